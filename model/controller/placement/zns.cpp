#include "controller/placement/zns.h"

#include "controller/block_manager.h"
#include "controller/buffer/write_buffer.h"

namespace ssdtlm {

ZnsNamespace::ZnsNamespace(const ZnsLayout& l)
    : l_(l), zm_(l.zones), slot_of_zone_(l.zones.zones, kNoSlot), free_(l.groups),
      pending_(size_t(l.groups) * l.slots_per_group, 0), pages_(pending_.size(), 0), is_draining_(pending_.size(), 0) {
  for (uint32_t g = 0; g < l.groups; ++g)
    for (uint32_t k = l.slots_per_group; k-- > 0;) free_[g].push_back(uint16_t(g * l.slots_per_group + k));
}

uint16_t ZnsNamespace::take_slot(uint64_t zone) {
  std::vector<uint16_t>& f = free_[zone % l_.groups];
  if (f.empty()) return kNoSlot;
  const uint16_t s = f.back();
  f.pop_back();
  slot_of_zone_[zone] = s;
  pages_[s] = 0;  // the zone starts on its group's first die, in fresh blocks
  ++in_use_;
  return s;
}

void ZnsNamespace::release(uint64_t zone) {
  const uint16_t s = slot_of_zone_[zone];
  if (s == kNoSlot) return;
  slot_of_zone_[zone] = kNoSlot;
  is_draining_[s] = 1;
  draining_.push_back(s);
}

uint16_t ZnsNamespace::admit_write(uint32_t* lpn, uint32_t units, bool append, uint16_t* slot) {
  const uint64_t zone = zm_.zone_of(*lpn);
  const bool fresh = zone < l_.zones.zones && slot_of_zone_[zone] == kNoSlot;
  // A zone without a slot takes one before it opens; none free: the write waits for one to drain.
  if (fresh && zm_.state(zone) != ZoneState::Full && zm_.state(zone) != ZoneState::ReadOnly &&
      zm_.state(zone) != ZoneState::Offline && free_[zone % l_.groups].empty()) {
    return kWaitForSlot;
  }
  uint16_t st;
  if (append) {
    uint64_t at = 0;
    st = zm_.append(*lpn, units, &at);
    if (!st) *lpn = uint32_t(at);
  } else {
    st = zm_.write(*lpn, units);
  }
  if (st) return st;
  if (fresh) take_slot(zone);
  *slot = slot_of_zone_[zone];
  ++pending_[*slot];
  if (zm_.state(zone) == ZoneState::Full) release(zone);
  return kZnsOk;
}

uint16_t ZnsNamespace::reset(uint64_t first, uint64_t n) {
  for (uint64_t z = first; z < first + n; ++z) {
    if (const uint16_t st = zm_.reset(z)) return st;
    release(z);
  }
  return kZnsOk;
}

bool ZnsNamespace::drain(const WriteBuffer& buffer, BlockManager& blocks, uint32_t dies) {
  const uint32_t before = in_use_;
  for (size_t i = 0; i < draining_.size();) {
    const uint16_t s = draining_[i];
    if (pending_[s] || buffer.dirty(s)) {
      ++i;
      continue;
    }
    const uint32_t g = s / l_.slots_per_group, per = dies / l_.groups;
    for (uint32_t d = g * per; d < (g + 1) * per; ++d)
      closed_early_ += blocks.retire_frontier(d, blocks.layout().user_frontier(s)) ? 1 : 0;
    is_draining_[s] = 0;
    free_[g].push_back(s);
    --in_use_;
    draining_[i] = draining_.back();
    draining_.pop_back();
  }
  return in_use_ < before;
}

}  // namespace ssdtlm
