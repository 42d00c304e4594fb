#include "controller/placement/zns.h"

#include "controller/block_manager.h"
#include "controller/buffer/write_buffer.h"

namespace ssdtlm {

ZnsNamespace::ZnsNamespace(const ZnsLayout& l)
    : l_(l), zm_(l.zones), slot_of_zone_(l.zones.zones, kNoSlot), zone_of_slot_(ZnsLayout::kSlots, kNoZone),
      group_(ZnsLayout::kSlots, 0), pending_(ZnsLayout::kSlots, 0), pages_(ZnsLayout::kSlots, 0),
      retiring_(ZnsLayout::kSlots, 0), writing_(l.groups, 0) {
  for (uint32_t k = ZnsLayout::kSlots; k-- > 0;) free_.push_back(uint16_t(k));
}

uint16_t ZnsNamespace::take_slot(uint64_t zone, BlockManager& blocks) {
  const uint16_t s = free_.back();
  free_.pop_back();
  slot_of_zone_[zone] = s;
  zone_of_slot_[s] = zone;
  group_[s] = uint32_t(zone % l_.groups);
  pages_[s] = 0;  // a zone new to flash starts on its group's first die, in fresh blocks
  ++in_use_;
  ++writing_[group_[s]];
  auto p = parked_.find(zone);
  if (p != parked_.end()) {  // an active zone back: its open blocks become the slot's frontiers again
    pages_[s] = p->second.pages;
    for (uint32_t k = 0; k < l_.group_dies; ++k)
      blocks.attach_frontier(group_[s] * l_.group_dies + k, blocks.layout().user_frontier(s), p->second.blocks[k]);
    parked_.erase(p);
  }
  return s;
}

void ZnsNamespace::release(uint64_t zone, BlockManager& blocks) {
  const uint16_t s = slot_of_zone_[zone];
  if (s == kNoSlot) {  // no slot: its parked open blocks (if any) close where they are
    auto p = parked_.find(zone);
    if (p == parked_.end()) return;
    for (uint32_t b : p->second.blocks) closed_early_ += blocks.retire_block(b) ? 1 : 0;
    parked_.erase(p);
    return;
  }
  slot_of_zone_[zone] = kNoSlot;
  if (!retiring_[s]) {
    retiring_[s] = 1;
    draining_.push_back(s);
  }
}

uint16_t ZnsNamespace::admit_write(uint32_t* lpn, uint32_t units, bool append, uint16_t* slot, BlockManager& blocks) {
  const uint64_t zone = zm_.zone_of(*lpn);
  const bool fresh = zone < l_.zones.zones && slot_of_zone_[zone] == kNoSlot;
  // A zone without a slot takes one before it opens; none free: the write waits for one.
  if (fresh && free_.empty() && zm_.state(zone) != ZoneState::Full && zm_.state(zone) != ZoneState::ReadOnly &&
      zm_.state(zone) != ZoneState::Offline)
    return kWaitForSlot;
  uint16_t st;
  if (append) {
    uint64_t at = 0;
    st = zm_.append(*lpn, units, &at);
    if (!st) *lpn = uint32_t(at);
  } else {
    st = zm_.write(*lpn, units);
  }
  if (st) return st;
  if (fresh) take_slot(zone, blocks);
  *slot = slot_of_zone_[zone];
  ++pending_[*slot];
  if (zm_.state(zone) == ZoneState::Full) release(zone, blocks);
  return kZnsOk;
}

uint16_t ZnsNamespace::manage(ZoneAction a, uint64_t zone, BlockManager& blocks) {
  uint16_t st = kInvalidField;
  switch (a) {
    case ZoneAction::Reset: st = zm_.reset(zone); break;
    case ZoneAction::Finish: st = zm_.finish(zone); break;
    case ZoneAction::Open: st = zm_.open(zone); break;
    case ZoneAction::Close: st = zm_.close(zone); break;
    case ZoneAction::Offline: st = zm_.offline(zone); break;  // Read Only -> Offline: its blocks go as a reset's
    case ZoneAction::SetExtension: st = zm_.set_extension(zone); break;  // Empty -> Closed, nothing on flash
    case ZoneAction::None: break;
  }
  if (!st && (a == ZoneAction::Reset || a == ZoneAction::Finish || a == ZoneAction::Offline)) release(zone, blocks);
  return st;
}

bool ZnsNamespace::idle(uint16_t s, const WriteBuffer& buffer) const { return !pending_[s] && !buffer.dirty(s); }

void ZnsNamespace::free_slot(uint16_t s, BlockManager& blocks) {
  const uint32_t first = group_[s] * l_.group_dies, f = blocks.layout().user_frontier(s);
  if (retiring_[s]) {
    for (uint32_t d = first; d < first + l_.group_dies; ++d) closed_early_ += blocks.retire_frontier(d, f) ? 1 : 0;
    retiring_[s] = 0;
  } else {  // an active zone: its open blocks wait, parked, for its next write
    const uint64_t zone = zone_of_slot_[s];
    Parked& p = parked_[zone];
    p.pages = pages_[s];
    p.blocks.resize(l_.group_dies);
    for (uint32_t k = 0; k < l_.group_dies; ++k) p.blocks[k] = blocks.detach_frontier(first + k, f);
    slot_of_zone_[zone] = kNoSlot;
    ++parks_;
  }
  zone_of_slot_[s] = kNoZone;
  free_.push_back(s);
  --in_use_;
  --writing_[group_[s]];
}

bool ZnsNamespace::drain(const WriteBuffer& buffer, BlockManager& blocks, bool need) {
  const uint32_t before = in_use_;
  for (size_t i = 0; i < draining_.size();) {
    const uint16_t s = draining_[i];
    if (!idle(s, buffer)) {
      ++i;
      continue;
    }
    free_slot(s, blocks);
    draining_[i] = draining_.back();
    draining_.pop_back();
  }
  if (need && free_.empty()) {
    // Active zones with nothing in flight: every such zone not open, else the first open one.
    uint16_t open_idle = kNoSlot;
    for (uint16_t s = 0; s < ZnsLayout::kSlots; ++s) {
      if (zone_of_slot_[s] == kNoZone || retiring_[s] || slot_of_zone_[zone_of_slot_[s]] != s || !idle(s, buffer)) continue;
      const ZoneState st = zm_.state(zone_of_slot_[s]);
      if (st == ZoneState::ImplicitOpen || st == ZoneState::ExplicitOpen) {
        if (open_idle == kNoSlot) open_idle = s;
        continue;
      }
      free_slot(s, blocks);
    }
    if (free_.empty() && open_idle != kNoSlot) free_slot(open_idle, blocks);
  }
  return in_use_ < before;
}

uint64_t ZnsNamespace::draining_streams() const {
  uint64_t m = 0;
  for (uint16_t s : draining_) m |= uint64_t(1) << s;
  for (uint16_t s = 0; s < ZnsLayout::kSlots; ++s) {
    const uint64_t z = zone_of_slot_[s];
    if (z == kNoZone || retiring_[s]) continue;
    const ZoneState st = zm_.state(z);
    if (st != ZoneState::ImplicitOpen && st != ZoneState::ExplicitOpen) m |= uint64_t(1) << s;
  }
  return m;
}

const std::vector<uint32_t>* ZnsNamespace::zone_blocks(uint64_t zone) const {
  auto b = blocks_.find(zone);
  return b == blocks_.end() ? nullptr : &b->second;
}

std::vector<uint32_t> ZnsNamespace::take_blocks(uint64_t zone) {
  std::vector<uint32_t> v;
  auto b = blocks_.find(zone);
  if (b == blocks_.end()) return v;
  v.swap(b->second);
  blocks_.erase(b);
  return v;
}

}  // namespace ssdtlm
