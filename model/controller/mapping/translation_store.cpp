#include "controller/mapping/translation_store.h"

#include "controller/mapping/map_cache.h"
#include "controller/snapshot/snapshot_archive.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdtlm {

TranslationStore::TranslationStore(const Geometry& g, BlockManager& blocks, uint32_t segments, uint32_t segment_bytes)
    : g_(g),
      blocks_(blocks),
      segment_bytes_(segment_bytes),
      k_(std::min<uint32_t>(kMaxGather, g.units_per_page * kUnitBytes / segment_bytes)),
      gtd_(segments, kNowhere) {}

void TranslationStore::snapshot(SnapshotArchive& a) {
  a.section("translation pages");
  a.io_all(gtd_, records_, cursor_);
}

void TranslationStore::drop(uint64_t where) {
  const uint32_t b = g_.gblock_of(page_ppa(where));
  Record& r = records_.at(b);
  const uint32_t before = units(r.live--);
  const uint32_t after = units(r.live);
  if (before != after) blocks_.invalidate(b, before - after);
}

void TranslationStore::point(uint32_t seg, uint32_t ppa, uint32_t off) {
  if (gtd_[seg] != kNowhere) drop(gtd_[seg]);
  gtd_[seg] = loc(ppa, off);
  const uint32_t b = g_.gblock_of(ppa);
  Record& r = records_[b];
  if (r.segs.empty()) r.segs.assign(size_t(g_.pages_per_block) * k_, kInvalid);
  r.segs[size_t(g_.page_of(ppa)) * k_ + off] = seg;
  const uint32_t before = units(r.live++);
  const uint32_t after = units(r.live);
  if (after != before) blocks_.validate(b, after - before);
}

uint32_t TranslationStore::pick_die() {
  // Round robin, so the map spreads over every die; a die keeps the free block its own GC needs (a die
  // brought below its GC threshold collects on its next write).
  for (uint32_t i = 0; i < g_.dies; ++i) {
    const uint32_t d = cursor_ + i < g_.dies ? cursor_ + i : cursor_ + i - g_.dies;
    if (can_place(d, blocks_.gc_reserve())) {
      cursor_ = d + 1 == g_.dies ? 0 : d + 1;
      return d;
    }
  }
  return kInvalid;
}

uint32_t TranslationStore::place(uint32_t die, const uint32_t* segs, uint32_t n) {
  const uint32_t ppa = blocks_.allocate_page(die, blocks_.layout().map_frontier());
  if (ppa == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for map data");
  for (uint32_t i = 0; i < n; ++i) point(segs[i], ppa, i);
  return ppa;
}

uint32_t TranslationStore::relocate(uint32_t die, const uint32_t* segs, const uint64_t* olds, uint32_t n,
                                    uint32_t* moved) {
  const uint32_t ppa = blocks_.allocate_page(die, blocks_.layout().map_frontier());
  if (ppa == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for map GC");
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (gtd_[segs[i]] == olds[i]) point(segs[i], ppa, m++);
  *moved = m;
  return ppa;
}

uint32_t TranslationStore::live_in_page(uint32_t gblock, uint32_t page, uint32_t* segs, uint64_t* locs) const {
  auto it = records_.find(gblock);
  if (it == records_.end()) return 0;
  const uint32_t base = g_.ppa(g_.die_of_gblock(gblock), g_.block_in_die(gblock), page);
  uint32_t n = 0;
  for (uint32_t off = 0; off < k_; ++off) {
    const uint32_t seg = it->second.segs[size_t(page) * k_ + off];
    if (seg != kInvalid && gtd_[seg] == loc(base, off)) {
      segs[n] = seg;
      locs[n++] = loc(base, off);
    }
  }
  return n;
}

size_t TranslationStore::memory_bytes() const {
  size_t n = gtd_.capacity() * 8;
  for (auto& [b, r] : records_) n += r.segs.capacity() * 4 + 48;
  return n;
}

}  // namespace ssdtlm
