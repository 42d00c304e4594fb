#include "controller/nvme/pcie_link.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdtlm {

PcieGen pcie_gen(uint32_t generation) {
  switch (generation) {
    case 1: return {2.5, 8, 10};
    case 2: return {5.0, 8, 10};
    case 3: return {8.0, 128, 130};
    case 4: return {16.0, 128, 130};
    case 5: return {32.0, 128, 130};
    default: throw std::invalid_argument("PCIe generation " + std::to_string(generation) + ": expected 1 to 5");
  }
}

uint64_t PcieWire::send(uint64_t t, uint64_t bytes) {
  const uint64_t start = std::max(t, free_);
  const double exact = double(bytes) * ps_per_byte_ + carry_;
  const uint64_t busy = uint64_t(exact);
  carry_ = exact - double(busy);
  free_ = start + busy;
  busy_ps_ += busy;
  bytes_ += bytes;
  return free_;
}

uint64_t PcieWire::send_between(uint64_t t, uint64_t bytes, uint64_t slot_bytes) {
  const double exact = double(bytes) * ps_per_byte_ + carry_;
  const uint64_t busy = uint64_t(exact);
  carry_ = exact - double(busy);
  busy_ps_ += busy;
  bytes_ += bytes;
  if (t >= free_) return t + busy;  // the wire is idle then, as far as anything is reserved: no hole before it
  const uint64_t slot = uint64_t(double(slot_bytes) * ps_per_byte_);
  free_ += busy;
  return t + std::min(free_ - busy - t, slot) + busy;
}

namespace {
double raw_rate(const PcieParams& p) {
  const PcieGen g = pcie_gen(p.generation);
  return g.gt_per_s * 1e9 * p.lanes * g.enc_payload / g.enc_total / 8.0;
}

uint32_t log2_of(uint32_t bytes, const char* what) {
  // PCIe encodes MPS and MRRS as 128 << n bytes (n = 0..5): a power of two.
  if (bytes < 128 || bytes > 4096 || (bytes & (bytes - 1)))
    throw std::invalid_argument(std::string("PCIe ") + what + " " + std::to_string(bytes) +
                                " bytes: expected a power of two from 128 to 4096");
  return uint32_t(__builtin_ctz(bytes));
}
}  // namespace

PcieTlpLink::PcieTlpLink(const PcieParams& p)
    : p_(p),
      mps_log2_(log2_of(p.mps, "max payload size")),
      per_dllp_(uint64_t(p.tlps_per_ack) * p.tlps_per_fc),
      raw_bps_(raw_rate(p)),
      up_(1e12 / raw_bps_),
      down_(1e12 / raw_bps_) {
  log2_of(p.mrrs, "max read request size");  // read_host splits at MRRS-aligned boundaries by mask
}

uint64_t PcieTlpLink::split_bytes(uint64_t addr, uint64_t bytes, uint32_t hdr, uint64_t& tlps) const {
  // One TLP per MPS-aligned piece of [addr, addr + bytes): the first up to the boundary after addr, whole pieces,
  // the rest; each carries its header and framing.
  const uint64_t mask = (uint64_t(1) << mps_log2_) - 1;
  tlps = bytes ? ((addr & mask) + bytes + mask) >> mps_log2_ : 0;
  return bytes + tlps * (hdr + kTlpFraming);
}

void PcieTlpLink::acknowledge(PcieWire& wire, uint64_t t, uint64_t tlps, uint64_t& owed, uint64_t* dllps) {
  // Each received TLP owes 1/tlps_per_ack of an Ack and 1/tlps_per_fc of an UpdateFC, counted in units of
  // 1/(tlps_per_ack x tlps_per_fc) DLLP.
  owed += tlps * (p_.tlps_per_ack + p_.tlps_per_fc);
  if (owed < per_dllp_) return;  // not a whole DLLP yet
  const uint64_t n = owed / per_dllp_;
  owed -= n * per_dllp_;
  *dllps += n;
  control(wire, t, n * kDllpBytes);
}

uint64_t PcieTlpLink::write_up(uint64_t t, uint64_t addr, uint64_t bytes, bool ctl) {
  uint64_t tlps = 0;
  const uint64_t wire = split_bytes(addr, bytes, kHdr4Dw, tlps);
  const uint64_t arrive = (ctl ? control(up_, t, wire) : up_.send(t, wire)) + p_.latency_ps;
  n_.tlps_up += tlps;
  n_.payload_up += bytes;
  acknowledge(down_, arrive, tlps, owed_down_, &n_.dllps_down);
  return arrive;
}

uint64_t PcieTlpLink::read_host(uint64_t t, uint64_t addr, uint64_t bytes, uint64_t host_ps, bool ctl) {
  uint64_t last = t;
  uint64_t requests = 0, completions = 0;
  n_.payload_down += bytes;
  while (bytes) {
    // A read request never crosses an MRRS-aligned boundary (nor, MRRS <= 4096, a 4 KiB one).
    const uint64_t n = std::min<uint64_t>(bytes, p_.mrrs - (addr & (p_.mrrs - 1)));
    const uint64_t req_at_host = control(up_, t, kHdr4Dw + kTlpFraming) + p_.latency_ps;
    uint64_t tlps = 0;
    const uint64_t wire = split_bytes(addr, n, kHdr3Dw, tlps);
    last = (ctl ? control(down_, req_at_host + host_ps, wire) : down_.send(req_at_host + host_ps, wire)) + p_.latency_ps;
    ++requests;
    completions += tlps;
    addr += n;
    bytes -= n;
  }
  n_.tlps_up += requests;
  n_.tlps_down += completions;
  acknowledge(down_, t, requests, owed_down_, &n_.dllps_down);
  acknowledge(up_, last, completions, owed_up_, &n_.dllps_up);
  return last;
}

uint64_t PcieTlpLink::complete_up(uint64_t t, uint64_t bytes) {
  ++n_.tlps_up;
  return control(up_, t, bytes + kHdr3Dw + kTlpFraming) + p_.latency_ps;
}

uint64_t PcieTlpLink::write_down(uint64_t t, uint64_t bytes) {
  const uint64_t arrive = control(down_, t, bytes + kHdr4Dw + kTlpFraming) + p_.latency_ps;
  ++n_.tlps_down;
  n_.payload_down += bytes;
  acknowledge(up_, arrive, 1, owed_up_, &n_.dllps_up);
  return arrive;
}

}  // namespace ssdtlm
