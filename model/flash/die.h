// One NAND die (LUN): its blocks, pages and out-of-band data, with the NAND rules enforced
// (pages of a block programmed in order, a page programmed once between erases).
// The array timing lives here too; the channel controller sequences operations on the die.
#pragma once
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/huge_pages.h"
#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

// What a programmed unit holds: who wrote it and which version (for the integrity checker).
enum class UnitKind : uint8_t { UD = 0, MD = 1, GUD = 2, GMD = 3 };

struct DieTiming {
  uint64_t t_read_ps = 0, t_prog_ps = 0, t_erase_ps = 0;
};

// Raised when the model breaks a NAND rule: always a model bug, never bad input.
struct NandRuleViolation : std::logic_error {
  using std::logic_error::logic_error;
};

class Die {
 public:
  // arena: where the out-of-band arrays live (huge pages shared by the drive's dies; null: the heap). It must
  // outlive the die.
  Die(const Geometry& g, uint32_t index, bool keep_versions, HugeArena* arena = nullptr);
  // The arena bytes one die's out-of-band arrays take.
  static size_t arena_bytes(const Geometry& g, bool keep_versions) {
    const size_t units = size_t(g.blocks_per_die) * g.units_per_block;
    return HugeArena::need(units * 4, keep_versions ? 2 : 1) + HugeArena::need(units);
  }

  // Programs the next page of `block` (must be `page`). lpns/versions hold units_per_page entries
  // (kInvalid lpn = padding). versions may be null when versions are not kept.
  void program(uint32_t block, uint32_t page, const uint32_t* lpns, const uint32_t* versions, UnitKind kind,
               uint8_t stream = 0);
  void erase(uint32_t block);

  // Out-of-band data of one unit, by unit index within the die (block * units_per_block + offset).
  uint32_t lpn(uint32_t unit) const { return lpn_[unit]; }
  uint32_t version(uint32_t unit) const { return versions_.empty() ? 0 : versions_[unit]; }
  // A hint: the page will be programmed (its program is issued): its write pointer and out-of-band lines are
  // fetched for writing meanwhile.
  void prefetch_program(uint32_t block, uint32_t page) const {
    const size_t base = size_t(block) * g_.units_per_block + size_t(page) * g_.units_per_page;
    __builtin_prefetch(&write_ptr_[block], 1);
    __builtin_prefetch(&lpn_[base], 1);
    __builtin_prefetch(&kind_[base], 1);
    if (!versions_.empty()) __builtin_prefetch(&versions_[base], 1);
  }
  // A hint: the out-of-band LPN (and version) of the unit will be read soon (a GC read is issued).
  void prefetch_oob(uint32_t unit) const {
    __builtin_prefetch(&lpn_[unit]);
    if (!versions_.empty()) __builtin_prefetch(&versions_[unit]);
  }
  UnitKind kind(uint32_t unit) const { return UnitKind(kind_[unit] & 3); }
  // The data stream a unit was written to (streams.*), 0..63: the six upper bits of its kind byte.
  uint8_t stream(uint32_t unit) const { return uint8_t(kind_[unit] >> 2); }
  // Rewrites one programmed unit's stream tag: for pages whose units belong to different streams (GC copies
  // with streams.gc_stream=shared), whose per-unit tags the program's single `stream` cannot carry.
  void set_stream(uint32_t unit, uint8_t stream) { kind_[unit] = uint8_t((kind_[unit] & 3) | (stream << 2)); }
  static constexpr uint32_t kMaxStream = 63;
  // Saves or loads the out-of-band data, write pointers and erase counts (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  bool programmed(uint32_t block, uint32_t page) const { return page < write_ptr_[block]; }
  uint32_t erase_count(uint32_t block) const { return erases_[block]; }
  uint32_t index() const { return index_; }
  size_t memory_bytes() const {
    return lpn_.capacity() * 4 + versions_.capacity() * 4 + kind_.capacity() + write_ptr_.capacity() * 2 + erases_.capacity() * 4;
  }

 private:
  const Geometry& g_;
  uint32_t index_;
  ArenaVector<uint32_t> lpn_;       // per unit
  ArenaVector<uint32_t> versions_;  // per unit, only with the integrity checker
  ArenaVector<uint8_t> kind_;       // per unit: kind in bits 0-1, stream in bits 2-7
  std::vector<uint16_t> write_ptr_; // per block: pages programmed
  std::vector<uint32_t> erases_;    // per block
};

}  // namespace ssdtlm
