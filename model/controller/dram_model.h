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
  uint64_t access(uint64_t t, uint32_t bytes, DramUse use, uint64_t pace_ps = 0);

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
  Window& window(uint64_t w);
  void mark_full(uint64_t w);
  uint64_t reserve(uint64_t t, uint64_t need_ps);  // takes need_ps of transfer time from t on; returns its end

  double ps_per_byte_;
  uint64_t latency_ps_;
  std::vector<Window> ring_;
  uint64_t full_lo_ = 0, full_hi_ = 0;  // windows [full_lo_, full_hi_) are known to be full
  DramStats stats_;
};

}  // namespace ssdtlm
