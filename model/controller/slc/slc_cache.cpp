#include "controller/slc/slc_cache.h"

#include <stdexcept>
#include <string>
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void SlcCache::snapshot(SnapshotArchive& a) {
  a.section("slc");
  a.io_all(static_, on_, idle_, slc_, in_use_, full_, static_free_, counters_);
}

SlcCache::SlcCache(const Geometry& g, const SlcParams& p, uint32_t gc_free_blocks)
    : g_(g),
      p_(p),
      gc_free_(gc_free_blocks),
      slc_pages_(g.pages_per_block / (p.bits ? p.bits : 1)),
      slc_(size_t(g.dies) * g.blocks_per_die, 0),
      in_use_(g.dies, 0),
      full_(g.dies),
      static_free_(g.dies) {
  if (slc_pages_ == 0) throw std::logic_error("SLC block of no page");
  dynamic_max_ = slc_dynamic_max_blocks_per_die(p_, g);
  if (p_.mode != SlcMode::Static) return;
  const uint64_t blocks = slc_static_blocks_per_die(p_, g);
  if (blocks >= g.blocks_per_die)  // check_slc_static refuses it first
    throw std::logic_error("slc.static_bytes: " + std::to_string(blocks) + " SLC blocks per die, the die has " +
                           std::to_string(g.blocks_per_die));
  static_ = uint32_t(blocks);
  for (uint32_t d = 0; d < g.dies; ++d)
    for (uint32_t b = 0; b < static_; ++b) {
      const uint32_t gb = d * g.blocks_per_die + b;
      slc_[gb] = 1;
      static_free_[d].push_back(gb);
    }
}

uint32_t SlcCache::take_static(uint32_t die) {
  std::vector<uint32_t>& f = static_free_[die];
  if (f.empty()) return kInvalid;
  const uint32_t b = f.back();
  f.pop_back();
  ++in_use_[die];
  return b;
}

void SlcCache::opened(uint32_t gblock) {
  slc_[gblock] = 1;
  ++in_use_[g_.die_of_gblock(gblock)];
}

bool SlcCache::erased(uint32_t gblock) {
  const uint32_t die = g_.die_of_gblock(gblock);
  if (in_use_[die] == 0) throw std::logic_error("SLC block " + std::to_string(gblock) + " erased twice");
  --in_use_[die];
  if (p_.mode == SlcMode::Static) {
    static_free_[die].push_back(gblock);
    return true;
  }
  slc_[gblock] = 0;
  return false;
}

uint64_t SlcCache::capacity_units(const std::vector<uint32_t>& free_per_die) const {
  uint64_t blocks = 0;
  for (uint32_t d = 0; d < g_.dies; ++d) {
    uint64_t n = in_use_[d];
    if (p_.mode == SlcMode::Static) {
      n += static_free_[d].size();
    } else {
      // the largest s with free - (s - in_use) - 1 >= G + ceil(s / bits), opening s - in_use more
      uint32_t s = in_use_[d];
      uint32_t free = free_per_die[d];
      while ((!dynamic_max_ || s < dynamic_max_) && free >= 1 + gc_free_ + (s + p_.bits) / p_.bits) {
        ++s;
        --free;
      }
      n = s;
    }
    blocks += n;
  }
  return blocks * slc_pages_ * g_.units_per_page;
}

}  // namespace ssdtlm
