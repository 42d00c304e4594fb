#include "controller/dram_model.h"

#include <algorithm>

namespace ssdtlm {

const char* dram_use_name(DramUse u) {
  switch (u) {
    case DramUse::HostWrite: return "host_write_dma";
    case DramUse::HostRead: return "host_read_dma";
    case DramUse::FlashDataIn: return "flash_data_in";
    case DramUse::FlashDataOut: return "flash_data_out";
    case DramUse::MapLookup: return "map_lookup";
    default: return "?";
  }
}

DramModel::DramModel(double bytes_per_s, uint64_t latency_ps)
    : ps_per_byte_(1e12 / bytes_per_s), latency_ps_(latency_ps), ring_(kWindows) {}

DramModel::Window& DramModel::window(uint64_t w) {
  Window& s = ring_[w & (kWindows - 1)];
  if (s.index != w) {  // a window not used yet (or one 65 ms older, long over)
    s.index = w;
    s.used = 0;
  }
  return s;
}

void DramModel::mark_full(uint64_t w) {
  // Extend the known full run when w touches it, else start a new run at w.
  if (w == full_hi_) ++full_hi_;
  else if (w + 1 == full_lo_) --full_lo_;
  else full_lo_ = w, full_hi_ = w + 1;
}

uint64_t DramModel::access(uint64_t t, uint32_t bytes, DramUse use, uint64_t pace_ps) {
  const size_t u = size_t(use);
  const uint64_t total = transfer_ps(bytes);
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

uint64_t DramModel::reserve(uint64_t t, uint64_t need) {
  uint64_t w = t / kWindowPs;
  // The ring (1 MiB) is swept once per 65 ms of simulated time, so a window's slot is cold when simulated time
  // first reaches it (a cache miss per 4 us, about one per host I/O): fetch the slots 16 us ahead.
  __builtin_prefetch(&ring_[(w + 16) & (kWindows - 1)], 1);
  Window* s = &window(w);
  if (!(w >= full_lo_ && w < full_hi_) && s->used + need <= kWindowPs) {  // fits where it starts: no wait
    s->used += need;
    if (s->used == kWindowPs) mark_full(w);
    return t + need;
  }
  // Spill: take what is left of each window in turn, skipping the run known to be full.
  const uint64_t total = need;
  for (;;) {
    if (w >= full_lo_ && w < full_hi_) {
      w = full_hi_;
      s = &window(w);
      continue;
    }
    const uint64_t room = kWindowPs - s->used;
    if (need <= room) {  // ends here, behind what the window already holds
      const uint64_t end = std::max(t + total, w * kWindowPs + s->used + need);
      s->used += need;
      if (s->used == kWindowPs) mark_full(w);
      return end;
    }
    need -= room;
    s->used = kWindowPs;
    mark_full(w);
    s = &window(++w);
  }
}

}  // namespace ssdtlm
