// The PCIe link between the host's root port and the SSD's endpoint, by generation, lanes, line encoding and
// per-packet overheads (plain C++, no SystemC). Each direction is a wire reserved first come, first served;
// a memory write, a read request and its completions are charged as the TLPs they travel in, and the
// Ack / UpdateFC DLLPs that acknowledge them take their bytes on the opposite direction.
//
// Arithmetic (sources in docs/reference/pcie_nvme.md):
//  - bytes per second per direction = GT/s x lanes x (8/10 for Gen1-2, 128/130 for Gen3 and later) / 8;
//  - a TLP carries header (3 DW for completions, 4 DW for 64-bit memory requests) + payload + 8 bytes of
//    framing, sequence number and LCRC (Gen1-2: STP 1 + sequence 2 + LCRC 4 + END 1; Gen3+: the 4-byte STP token
//    holds the sequence number, + LCRC 4), no ECRC (Intel AN 855, "Protocol Overhead": 5-6 DW per TLP);
//  - a DLLP is 8 bytes on the wire (6 + framing), in the direction opposite to the TLPs it answers;
//  - memory writes and completions carry at most MPS bytes and never cross an MPS-aligned boundary;
//    read requests ask for at most MRRS bytes.
// Not modelled: SKP ordered sets (about 0.3 %), replays, flow-control credit starvation.
#pragma once
#include <cstdint>

namespace ssdtlm {

struct PcieParams {
  uint32_t generation = 3;     // 1..5: 2.5, 5, 8, 16, 32 GT/s
  uint32_t lanes = 4;          // 1, 2, 4, 8, 16
  uint32_t mps = 256;          // max payload size, bytes (128..4096, power of two)
  uint32_t mrrs = 512;         // max read request size, bytes (128..4096, power of two)
  uint64_t latency_ps = 500000;  // one way: PHY, link layer, root complex (a TLP's last byte to the far end)
  uint32_t tlps_per_ack = 4;   // received TLPs acknowledged by one Ack DLLP
  uint32_t tlps_per_fc = 4;    // received TLPs whose credits one UpdateFC DLLP returns
};

// What a link generation is made of.
struct PcieGen {
  double gt_per_s;      // transfers per second per lane, 1e9
  uint32_t enc_payload, enc_total;  // line code: 8/10 or 128/130
};
PcieGen pcie_gen(uint32_t generation);

// Wire bytes of packets (header + payload + framing/sequence/LCRC).
constexpr uint32_t kTlpFraming = 8;     // STP/sequence/LCRC/END (Gen1-2) or STP token + LCRC (Gen3+)
constexpr uint32_t kHdr4Dw = 16;        // 64-bit memory request header
constexpr uint32_t kHdr3Dw = 12;        // completion header
constexpr uint32_t kDllpBytes = 8;

// One direction of the link: a wire reserved in call order.
class PcieWire {
 public:
  explicit PcieWire(double ps_per_byte) : ps_per_byte_(ps_per_byte) {}
  // `bytes` that may start at `t`, behind everything reserved before (data, and the entries that must stay
  // ordered behind it): returns when their last byte has left.
  uint64_t send(uint64_t t, uint64_t bytes);
  // A small packet that does not queue behind the transfers already reserved (a read request, a completion
  // of a command fetch, a doorbell, a DLLP: in a real device the DMA engines' packets interleave, and only
  // the TLP on the wire is ahead of it): it leaves within `slot_bytes` of `t`; the reserved transfers keep
  // their times and the wire's free time moves by its bytes, so a busy wire carries every byte. One due when
  // nothing is reserved goes at `t` and reserves nothing (packets reserved later for earlier times, in call
  // order, would otherwise wait behind a hole before it).
  uint64_t send_between(uint64_t t, uint64_t bytes, uint64_t slot_bytes);
  uint64_t busy_ps() const { return busy_ps_; }
  uint64_t bytes() const { return bytes_; }
  uint64_t free_at() const { return free_; }

 private:
  double ps_per_byte_;
  double carry_ = 0;  // fractions of a picosecond not yet charged (keeps long runs exact)
  uint64_t free_ = 0, busy_ps_ = 0, bytes_ = 0;
};

// Counts of what crossed the link (summary and tests).
struct PcieCounters {
  uint64_t tlps_up = 0, tlps_down = 0, payload_up = 0, payload_down = 0, dllps_up = 0, dllps_down = 0;
};

class PcieTlpLink {
 public:
  explicit PcieTlpLink(const PcieParams& p);
  const PcieParams& params() const { return p_; }
  // Bytes per second one direction carries after line encoding.
  double raw_bytes_per_s() const { return raw_bps_; }

  // The endpoint writes `bytes` to host memory at `addr` (data of a read, a completion entry, an MSI-X message),
  // starting at `t`: returns when the last TLP reaches the host. `control`: a packet that only has to follow
  // what has reached the host already (an MSI-X message after its completion entry): PcieWire::send_between.
  uint64_t write_up(uint64_t t, uint64_t addr, uint64_t bytes, bool control = false);
  // The endpoint reads `bytes` at `addr` from host memory (a submission entry, a PRP list, the data of a write):
  // requests go up from `t`, the host answers each `host_ps` after it arrives, completions come down.
  // Returns when the last completion has arrived. `control`: a command's own structures (entry, PRP list,
  // DSM ranges), whose completions interleave with the data reserved before them (send_between).
  uint64_t read_host(uint64_t t, uint64_t addr, uint64_t bytes, uint64_t host_ps, bool control = false);
  // The endpoint answers a register read with a completion of `bytes`: returns when it reaches the host.
  uint64_t complete_up(uint64_t t, uint64_t bytes);
  // The host writes `bytes` into the endpoint's BAR (a doorbell): returns when it arrives.
  uint64_t write_down(uint64_t t, uint64_t bytes);

  const PcieWire& up() const { return up_; }
  const PcieWire& down() const { return down_; }
  const PcieCounters& counters() const { return n_; }

 private:
  // TLPs of a transfer split at MPS-aligned boundaries, each `hdr` bytes of header: wire bytes, TLP count.
  uint64_t split_bytes(uint64_t addr, uint64_t bytes, uint32_t hdr, uint64_t& tlps) const;
  // A control packet on `wire` (PcieWire::send_between, behind at most one max-payload TLP).
  uint64_t control(PcieWire& wire, uint64_t t, uint64_t bytes) {
    return wire.send_between(t, bytes, p_.mps + kHdr4Dw + kTlpFraming);
  }
  // DLLPs owed by the receiver of `tlps` TLPs, sent on `wire` from `t` (counted in `*dllps`).
  void acknowledge(PcieWire& wire, uint64_t t, uint64_t tlps, uint64_t& owed, uint64_t* dllps);

  PcieParams p_;
  uint32_t mps_log2_;  // MPS (and MRRS) are powers of two, PCIe's encoding 128 << n: refused otherwise
  uint64_t per_dllp_;              // tlps_per_ack x tlps_per_fc: acknowledgement units per DLLP
  double raw_bps_;
  PcieWire up_, down_;
  PcieCounters n_;
  uint64_t owed_up_ = 0, owed_down_ = 0;  // TLP-acknowledgement units received and not yet answered
};

}  // namespace ssdtlm
