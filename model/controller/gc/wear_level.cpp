#include "controller/gc/wear_level.h"

#include <algorithm>
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void WearLevel::snapshot(SnapshotArchive& a) {
  a.section("wear level");
  a.io_all(count_, excluded_, order_, max_, relocated_, victim_);
}

WearLevel::WearLevel(const Geometry& g, uint32_t spread)
    : g_(g),
      spread_(spread),
      count_(size_t(g.dies) * g.blocks_per_die, 0),
      excluded_(size_t(g.dies) * g.blocks_per_die, 0),
      order_(g.dies),
      max_(g.dies, 0),
      relocated_(g.dies, 0),
      victim_(g.dies, kInvalid) {
  for (uint32_t d = 0; d < g.dies; ++d)
    for (uint32_t b = 0; b < g.blocks_per_die; ++b) order_[d].emplace_hint(order_[d].end(), 0u, d * g.blocks_per_die + b);
}

void WearLevel::exclude(uint32_t gblock) {
  if (excluded_[gblock]) return;
  excluded_[gblock] = 1;
  order_[g_.die_of_gblock(gblock)].erase({count_[gblock], gblock});
}

void WearLevel::erased(uint32_t gblock) {
  if (excluded_[gblock]) return;
  const uint32_t die = g_.die_of_gblock(gblock);
  uint32_t& c = count_[gblock];
  order_[die].erase({c, gblock});
  order_[die].emplace(++c, gblock);
  max_[die] = std::max(max_[die], c);
  if (victim_[die] == gblock) victim_[die] = kInvalid;
}

uint64_t WearLevel::relocated_blocks() const {
  uint64_t n = 0;
  for (uint64_t r : relocated_) n += r;
  return n;
}

uint32_t WearLevel::max_spread() const {
  uint32_t s = 0;
  for (uint32_t d = 0; d < g_.dies; ++d) s = std::max(s, spread(d));
  return s;
}

}  // namespace ssdtlm
