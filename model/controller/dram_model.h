// The controller DRAM's timing as plain C++ (no SystemC): a bandwidth in bytes per second shared by every
// access, plus a fixed access latency, with per-initiator accounting. Used by the Dram module (dram.h).
//
// Accesses arrive in call order, not in time order (the channel controllers reserve bus slots ahead of
// simulated time, the NVMe front end annotates DMA at completion times), so the DRAM is not one FIFO
// timeline. Time is cut into windows of kWindowPs; each window holds kWindowPs of transfer time. An access
// starting at t takes its transfer time from t's window, spilling into the following windows when it is
// full, and ends when its last byte is transferred (at t + its transfer time when it fits; else at the spot
// in the last window behind what that window already holds), plus the latency. So a DRAM that keeps up adds
// only the latency, and a saturated one serves exactly its bandwidth. The error against an exact
// time-ordered queue is at most one window (1 us) per access. O(1) per access amortised: runs of full
// windows are skipped. An access reserves its transfer time from its start window on, also when it streams
// to or from a slower partner (the PCIe link, the flash bus: pace_ps, its transfer time): such an access is
// over when the later of the two is, so a DRAM that keeps up with the partner delays it by nothing, however
// the windows are shared. Reservations are kept for kWindows windows: one more than 65 ms ahead of older live
// ones would alias (the model never reserves that far ahead).
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdtlm {

// Who moves the bytes, with the direction (reads are from DRAM, writes into it).
enum class DramUse : uint8_t {
  HostWrite,      // NVMe DMA of host write data into the buffer
  HostRead,       // NVMe DMA of read data out to the host
  FlashDataIn,    // a program's data read from DRAM onto the flash bus
  FlashDataOut,   // a read's data from the flash bus into DRAM
  MapLookup,      // map-table entries read or updated by the firmware
  Count
};
const char* dram_use_name(DramUse u);

struct DramStats {
  uint64_t accesses[size_t(DramUse::Count)] = {};
  uint64_t bytes[size_t(DramUse::Count)] = {};
  uint64_t busy_ps[size_t(DramUse::Count)] = {};  // transfer time at the DRAM's bandwidth
  uint64_t wait_ps = 0;  // summed over accesses: how much later they ended than their partner (or, alone,
                         // their transfer and latency) would have
};

class DramModel {
 public:
  static constexpr uint64_t kWindowPs = 1000000;  // 1 us
  static constexpr uint32_t kWindows = 1u << 16;  // 65 ms of reservations ahead

  // bytes_per_s: mts * 1e6 * width_bytes.
  DramModel(double bytes_per_s, uint64_t latency_ps);

  // An access of `bytes` starting at t (ps): returns when it is over (its last byte moved, plus the latency).
  // pace_ps > 0: the bytes stream to or from a partner (the PCIe link, the flash bus) that takes pace_ps for
  // them; the caller takes the later end (the statistic wait_ps counts only the DRAM's delay beyond it).
  // Inline: an access that fits in its window (a DRAM that keeps up: nearly all of them) is a few instructions at its
  // caller; a full window's spill is out of line.
  uint64_t access(uint64_t t, uint32_t bytes, DramUse use, uint64_t pace_ps = 0) {
    const size_t u = size_t(use);
    if (bytes != memo_bytes_[u]) memo_bytes_[u] = bytes, memo_ps_[u] = transfer_ps(bytes);  // (each use: one size)
    const uint64_t total = memo_ps_[u];
    ++stats_.accesses[u];
    stats_.bytes[u] += bytes;
    stats_.busy_ps[u] += total;
    // A streaming access (pace_ps: the slower partner's transfer time) is over when the partner is; it waited
    // only if the DRAM ends later than that.
    const uint64_t end = reserve(t, total) + latency_ps_;
    const uint64_t due = t + std::max(total + latency_ps_, pace_ps);
    stats_.wait_ps += end > due ? end - due : 0;
    return end;
  }

  uint64_t transfer_ps(uint32_t bytes) const { return uint64_t(double(bytes) * ps_per_byte_ + 0.5); }
  uint64_t latency_ps() const { return latency_ps_; }
  double bytes_per_s() const { return 1e12 / ps_per_byte_; }
  const DramStats& stats() const { return stats_; }
  void reset_stats() { stats_ = DramStats(); }

 private:
  struct Window {
    uint64_t index = ~uint64_t(0);  // absolute window number held in this slot
    uint64_t used = 0;              // ps of transfer time reserved
  };
  Window& window(uint64_t w) {
    Window& s = ring_[w & (kWindows - 1)];
    if (s.index != w) {  // a window not used yet (or one 65 ms older, long over)
      s.index = w;
      s.used = 0;
    }
    return s;
  }
  void mark_full(uint64_t w);
  // Takes need_ps of transfer time from t on; returns its end.
  uint64_t reserve(uint64_t t, uint64_t need) {
    const uint64_t w = t / kWindowPs;
    // The ring (1 MiB) is swept once per 65 ms of simulated time, so a window's slot is cold when simulated time
    // first reaches it (a cache miss per 4 us, about one per host I/O): fetch the slots 16 us ahead.
    __builtin_prefetch(&ring_[(w + 16) & (kWindows - 1)], 1);
    Window& s = window(w);
    if (!(w >= full_lo_ && w < full_hi_) && s.used + need <= kWindowPs) {  // fits where it starts: no wait
      s.used += need;
      if (s.used == kWindowPs) mark_full(w);
      return t + need;
    }
    return spill(t, need, w);
  }
  uint64_t spill(uint64_t t, uint64_t need, uint64_t w);  // reserve's wait: window w cannot take need from t

  double ps_per_byte_;
  uint64_t latency_ps_;
  std::vector<Window> ring_;
  uint64_t full_lo_ = 0, full_hi_ = 0;  // windows [full_lo_, full_hi_) are known to be full
  DramStats stats_;
  uint32_t memo_bytes_[size_t(DramUse::Count)] = {};  // per use: the last access's bytes and their transfer_ps
  uint64_t memo_ps_[size_t(DramUse::Count)] = {};
};

}  // namespace ssdtlm
