#include "flash/die.h"

#include "controller/snapshot/snapshot_archive.h"

#include <algorithm>
#include <string>

namespace ssdtlm {

Die::Die(const Geometry& g, uint32_t index, bool keep_versions, HugeArena* arena)
    : g_(g),
      index_(index),
      lpn_(size_t(g.blocks_per_die) * g.units_per_block, kInvalid, ArenaAllocator<uint32_t>(arena)),
      versions_(ArenaAllocator<uint32_t>(arena)),
      kind_(size_t(g.blocks_per_die) * g.units_per_block, 0, ArenaAllocator<uint8_t>(arena)),
      write_ptr_(g.blocks_per_die, 0),
      erases_(g.blocks_per_die, 0) {
  if (keep_versions) versions_.assign(lpn_.size(), 0);
}

void Die::program(uint32_t block, uint32_t page, const uint32_t* lpns, const uint32_t* versions, UnitKind kind,
                  uint8_t stream) {
  if (block >= g_.blocks_per_die || page != write_ptr_[block])
    throw NandRuleViolation("die " + std::to_string(index_) + " block " + std::to_string(block) + ": program of page " +
                            std::to_string(page) + " but the next erased page is " +
                            std::to_string(write_ptr_[block]));
  if (stream > kMaxStream)
    throw NandRuleViolation("die " + std::to_string(index_) + ": stream tag " + std::to_string(stream) +
                            " does not fit the 6-bit out-of-band field");
  write_ptr_[block] = uint16_t(page + 1);
  const size_t base = size_t(block) * g_.units_per_block + size_t(page) * g_.units_per_page;
  const uint32_t n = g_.units_per_page;
  // Plain loops: pages hold a handful of units, too few for a library copy to pay off.
  uint32_t* lpn = &lpn_[base];
  uint8_t* k = &kind_[base];
  const uint8_t tag = uint8_t(uint8_t(kind) | (stream << 2));
  for (uint32_t s = 0; s < n; ++s) {
    lpn[s] = lpns[s];
    k[s] = tag;
  }
  if (versions_.empty()) return;
  uint32_t* ver = &versions_[base];
  for (uint32_t s = 0; s < n; ++s) ver[s] = versions ? versions[s] : 0;
}

void Die::erase(uint32_t block) {
  write_ptr_[block] = 0;
  ++erases_[block];
  size_t base = size_t(block) * g_.units_per_block;
  std::fill(lpn_.begin() + base, lpn_.begin() + base + g_.units_per_block, kInvalid);
}

void Die::snapshot(SnapshotArchive& a) {
  a.io_all(lpn_, versions_, kind_, write_ptr_, erases_);
}

}  // namespace ssdtlm
