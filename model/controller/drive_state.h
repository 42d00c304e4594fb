// The drive's state, what the FTL's engines read and change: the logical-to-physical map in 4 KiB units, the
// valid-unit bitmap, the trim notes, the block bookkeeping (block_manager.h), the dies (their out-of-band data),
// the flash counters and the log of map changes since a power loss. It depends on no engine: the GC engine, the
// victim sources, the fast-forward's executors and the reports read it; PageFtl (page_ftl.h) owns it with the
// engines that decide. Plain C++; the per-unit calls are inline.
//
// A unit at ppa is valid iff map[oob_lpn(ppa)] == ppa; a bitmap over physical units (1 bit each, the
// FTL's valid-page bitmap) keeps that answer at hand, so GC scans victims without map lookups.
// Model state per logical page: 4 B map + (1 + over-provisioning) x (5 B of OOB + 1 bit) + block metadata.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/block_manager.h"
#include "controller/flash_counters.h"
#include "controller/integrity_checker.h"
#include "controller/lpn_change_log.h"
#include "flash/die.h"
#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

class DriveState {
 public:
  // Every LPN unmapped, every block free; the blocks as given (block_manager.h).
  DriveState(const Geometry& g, std::vector<Die*> dies, BlockParams blocks);
  DriveState(const DriveState&) = delete;
  DriveState& operator=(const DriveState&) = delete;

  const Geometry& geometry() const { return g_; }
  Die& die(uint32_t d) { return *dies_[d]; }
  const Die& die(uint32_t d) const { return *dies_[d]; }
  BlockManager& blocks() { return blocks_; }
  const BlockManager& blocks() const { return blocks_; }
  FlashCounters& counters() { return counters_; }
  const FlashCounters& counters() const { return counters_; }
  // The fast-forward's counters, per die (its workers own disjoint dies), until merge_die_counters adds them to
  // counters().
  FlashCounters& die_counters(uint32_t d) { return die_counters_[d]; }
  void merge_die_counters();
  // Host pages programmed so far (timed and fast-forward).
  uint64_t host_programs() const;
  // The LPNs whose map entry changed since the last power loss (power_loss/power_loss.cpp arms and clears it).
  LpnChangeLog& changes() { return changes_; }

  uint32_t lookup(uint32_t lpn) const { return l2p_[lpn]; }
  // Hints for batched writers: bring lpn's map entry, then its current block's metadata, into cache.
  void prefetch_map(uint32_t lpn) const { __builtin_prefetch(&l2p_[lpn], 1); }
  void prefetch_old(uint32_t lpn) const {
    uint32_t ppa = l2p_[lpn];
    if (ppa == kInvalid) return;
    blocks_.prefetch(g_.gblock_of(ppa));
    __builtin_prefetch(&valid_bits_[ppa >> 6], 1);
  }
  // Data for lpn now lives at ppa (set when the program is issued; the buffer serves reads until it lands).
  // Nothing stops two LPNs from being pointed at one unit (the map audit's business: audit_map).
  void map(uint32_t lpn, uint32_t ppa) {
    if (changes_.armed()) changes_.note(lpn);
    repoint(l2p_[lpn], ppa);
    blocks_.validate(g_.gblock_of(ppa));
  }
  // A host page's units (lpns[0 .. units_per_page), kInvalid = padding) now live in the page at ppa (set when its
  // program is issued); returns how many. The page's block is open (its program in flight): its valid count is added
  // once, before the units are mapped, since a page may hold two versions of one LPN (the first is dropped at once).
  uint32_t map_page(uint32_t ppa, const uint32_t* lpns) {
    uint32_t units = 0;
    for (uint32_t s = 0; s < g_.units_per_page; ++s) units += lpns[s] != kInvalid;
    blocks_.validate(g_.gblock_of(ppa), units);
    const bool noted = changes_.armed();
    for (uint32_t s = 0; s < g_.units_per_page; ++s) {
      if (lpns[s] == kInvalid) continue;
      if (noted) changes_.note(lpns[s]);
      repoint(l2p_[lpns[s]], ppa + s);
    }
    return units;
  }
  // GC relocation: moves lpn to new_ppa only if it still lives at old_ppa. Returns whether it moved.
  // (The map entry decides, not old_ppa's valid bit: the block may have been erased and rewritten while the copy
  // waited, so the unit need not hold lpn any more.)
  bool remap_if(uint32_t lpn, uint32_t old_ppa, uint32_t new_ppa) {
    if (l2p_[lpn] != old_ppa) return false;
    map(lpn, new_ppa);
    return true;
  }
  void unmap(uint32_t lpn);
  // A host trim (Dataset Management deallocate, or a zone reset): lpn unmapped and noted as trimmed, so that a
  // power-loss recovery replaying the out-of-band data does not bring back the copies flash still holds
  // (power_loss/dump.cpp: the firmware's trim journal). note_trimmed: the note alone (preconditioning, whose
  // writers unmap).
  void trim(uint32_t lpn) {
    unmap(lpn);
    note_trimmed(lpn);
  }
  void note_trimmed(uint32_t lpn) { trimmed_bits_[lpn >> 6] |= uint64_t(1) << (lpn & 63); }
  // lpn's last map change was a trim (meaningful while it is unmapped: a later write maps it again).
  bool trimmed(uint32_t lpn) const { return (trimmed_bits_[lpn >> 6] >> (lpn & 63)) & 1; }
  // The first LPN >= lpn noted as trimmed, or the logical size.
  uint32_t next_trimmed(uint32_t lpn) const;
  bool valid(uint32_t ppa) const { return (valid_bits_[ppa >> 6] >> (ppa & 63)) & 1; }
  // Slots of one page that hold valid units (bit s = slot s).
  uint32_t valid_mask(uint32_t die, uint32_t block, uint32_t page) const;

  // Invariant checks (check.integrity). check_erase: no unit of the global block is valid or the current location
  // of its LPN (O(units per block / 64): the block's valid bits, which audit_map ties to the map). check_gc_source:
  // a GC copy of lpn from `old` is made only while old is lpn's current location. audit_map (at the end of a checked
  // run): every mapped LPN's unit is marked valid and as many units are marked valid as LPNs are mapped (no two
  // share a unit), O(logical units). A failure is reported to the checker and returns false.
  bool check_erase(uint32_t gblock, IntegrityChecker& c, uint64_t time_ps) const;
  bool audit_map(IntegrityChecker& c, uint64_t time_ps) const;
  bool check_gc_source(uint32_t lpn, uint32_t old, IntegrityChecker& c, uint64_t time_ps) const {
    c.gc_copy_checked();
    if (l2p_[lpn] == old) return true;
    gc_source_violation(lpn, old, c, time_ps);
    return false;
  }

  // Snapshot sections (controller/snapshot/drive_snapshot.cpp lists their order): the map with its bitmaps; the
  // dies' out-of-band data.
  void snapshot_map(SnapshotArchive& a);
  void snapshot_dies(SnapshotArchive& a);
  void snapshot_die_counters(SnapshotArchive& a);
  // Map, valid bitmap, trim notes and block metadata (block state, free lists, frontiers, victim policy), in bytes.
  size_t memory_bytes() const {
    return l2p_.capacity() * 4 + valid_bits_.capacity() * 8 + trimmed_bits_.capacity() * 8 + blocks_.memory_bytes();
  }

 private:
  void drop(uint32_t ppa) {  // the unit at ppa stops being valid
    blocks_.invalidate(g_.gblock_of(ppa));
    valid_bits_[ppa >> 6] &= ~(uint64_t(1) << (ppa & 63));
  }
  // Points a map entry at ppa and marks that unit valid, dropping the unit the entry pointed to; the
  // caller adds the unit to its block's valid count.
  void repoint(uint32_t& entry, uint32_t ppa) {
    if (entry != kInvalid) drop(entry);
    entry = ppa;
    valid_bits_[ppa >> 6] |= uint64_t(1) << (ppa & 63);
  }
  bool any_valid(uint32_t gblock) const;  // some unit of the global block is marked valid
  void gc_source_violation(uint32_t lpn, uint32_t old, IntegrityChecker& c, uint64_t time_ps) const;

  const Geometry& g_;
  std::vector<Die*> dies_;
  BlockManager blocks_;
  std::vector<uint32_t> l2p_;
  std::vector<uint64_t> valid_bits_;    // per physical unit
  std::vector<uint64_t> trimmed_bits_;  // per logical unit: trimmed (trim)
  FlashCounters counters_;
  std::vector<FlashCounters> die_counters_;  // the fast-forward's, per die
  LpnChangeLog changes_;  // map updates since the last power loss, once one happened
};

}  // namespace ssdtlm
