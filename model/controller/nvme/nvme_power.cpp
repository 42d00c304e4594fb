// The endpoint's power states (NVMe Base 1.4 §8.4): the non-operational states of EndpointParams::power_states in
// Identify Controller's power state descriptors, and Autonomous Power State Transition (Set/Get Features 0Ch, §5.21.1.12)
// driving the drive's Apst (power/apst.h) with the idle-time table the host writes.
#include <algorithm>
#include <cmath>

#include "common/sim_time.h"
#include "controller/nvme/endpoint_command.h"
#include "power/apst.h"

namespace ssdtlm {

using namespace nvme;

void NvmeEndpoint::set_apst(Apst* apst) {
  apst_ = apst;
  if (apst_) apst_->set_idle_times({});  // APSTE is 0 after reset: no state is entered until the host enables it
}

void NvmeEndpoint::power_descriptors(uint8_t* id) const {
  // NPSS (byte 263): the last power state; APSTA (byte 265, bit 0): APST supported. Power state descriptor n at
  // 2048 + 32n: MP (bytes 1:0), MXPS (byte 3 bit 0: MP in 0.0001 W), NOPS (byte 3 bit 1: non-operational),
  // ENLAT (7:4) and EXLAT (11:8) in microseconds. PS0, the operational state, reports MP 0 (no maximum modelled).
  const auto put = [&](size_t at, uint64_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) id[at + i] = uint8_t(v >> (8 * i));
  };
  put(263, p_.power_states.size(), 1);
  put(265, p_.power_states.empty() ? 0 : 1, 1);
  for (size_t i = 0; i < p_.power_states.size() && i < 31; ++i) {
    const PowerState& s = p_.power_states[i];
    const size_t d = 2048 + 32 * (i + 1);
    put(d, uint64_t(std::min<long long>(65535, std::llround(s.max_w * 10000.0))), 2);
    put(d + 3, 0x3, 1);
    put(d + 4, (s.entry_ps + 500000) / 1000000, 4);
    put(d + 8, (s.exit_ps + 500000) / 1000000, 4);
  }
}

bool NvmeEndpoint::apst_idle_times(const std::array<uint64_t, 32>& table, std::vector<uint64_t>& idle) const {
  // Entry n (bits 7:3 ITPS, 31:8 ITPT in ms, 0 = no transition): after ITPT of idle time in state n, the controller
  // enters state ITPS, a non-operational state (§5.21.1.12). Followed from PS0, the time in a state counted
  // from the end of its entry: the idle time since the last completion at which each state is entered (Apst's
  // terms). The model's states are entered deepest last: a transition to a shallower or the same state is refused.
  const uint32_t n = uint32_t(p_.power_states.size());
  for (uint32_t ps = 0; ps <= n; ++ps) {
    const uint32_t itps = (table[ps] >> 3) & 0x1F, itpt = uint32_t(table[ps] >> 8) & 0xFFFFFF;
    if (itpt && (itps == 0 || itps > n || itps <= ps)) return false;
  }
  idle.assign(n, Apst::kNever);
  uint64_t t = 0;
  for (uint32_t ps = 0;;) {
    const uint32_t itps = (table[ps] >> 3) & 0x1F, itpt = uint32_t(table[ps] >> 8) & 0xFFFFFF;
    if (!itpt) break;
    t += uint64_t(itpt) * 1000000000ull + (ps ? p_.power_states[ps - 1].entry_ps : 0);
    idle[itps - 1] = t;
    ps = itps;
  }
  return true;
}

uint16_t NvmeEndpoint::apst_feature(const Sqe& s, bool set, uint64_t t, uint64_t& done, uint32_t& result) {
  if (p_.power_states.empty() || !apst_) return kInvalidField | kDnr;  // APSTA 0: the feature is not supported
  uint16_t st = kSuccess;
  if (!set) {  // CDW0 bit 0: APSTE; the table goes to the host
    result = apste_;
    done = copy_out(s, apst_table_.data(), sizeof apst_table_, t, st);
    return st ? uint16_t(st | kDnr) : uint16_t(kSuccess);
  }
  std::array<uint64_t, 32> table{};
  done = copy_in(s, table.data(), sizeof table, t, st);
  if (st) return uint16_t(st | kDnr);
  std::vector<uint64_t> idle;
  if (!apst_idle_times(table, idle)) return kInvalidField | kDnr;
  for (size_t ps = p_.power_states.size() + 1; ps < table.size(); ++ps) table[ps] = 0;  // unsupported states: 0
  apst_table_ = table;
  apste_ = s.cdw(11) & 1;
  apst_->set_idle_times(apste_ ? idle : std::vector<uint64_t>());
  result = apste_;
  return kSuccess;
}

uint16_t NvmeEndpoint::power_feature(bool set, uint32_t value, uint64_t& t, uint32_t& result) {
  // Set Features Power Management (NVMe Base 1.4 §5.21.1.2): PS, the state the host chooses. PS0 is the one
  // operational state; PS1..NPSS, the non-operational ones (power.ps_*), are entered at once (their ENLAT from the
  // command), and the next I/O command brings the controller back to PS0, paying the rest of the entry and EXLAT
  // (§8.4.1: a non-operational state is left for the last operational one when an I/O command is processed), APST's
  // table applying again from then on. Admin commands do not wake it; PS0 chosen does, the command completing
  // after the exit latency. WH (bits 7:5): no workload hints, ignored. A state beyond NPSS: Invalid Field.
  const uint32_t ps = value & 0x1F;
  if (set && ps > (apst_ ? p_.power_states.size() : 0)) return kInvalidField | kDnr;
  if (set && ps) apst_->enter(ps, t, active_ == 0);
  if (set && !ps && apst_ && apst_->host_state()) {
    t += apst_->wake(t);
    if (active_ == 0) apst_->idle_from(t);  // idle in PS0: APST's idle time counts from here
  }
  result = apst_ ? apst_->host_state() : 0;
  return kSuccess;
}

}  // namespace ssdtlm
