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

void DramModel::mark_full(uint64_t w) {
  // Extend the known full run when w touches it, else start a new run at w.
  if (w == full_hi_) ++full_hi_;
  else if (w + 1 == full_lo_) --full_lo_;
  else full_lo_ = w, full_hi_ = w + 1;
}

uint64_t DramModel::spill(uint64_t t, uint64_t need, uint64_t w) {
  // Take what is left of each window in turn, skipping the run known to be full.
  Window* s = &window(w);
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
