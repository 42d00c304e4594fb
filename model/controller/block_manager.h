// Block bookkeeping for all dies: one write frontier per (die, stream), the blocks' valid-unit counts and states,
// the hand-off of full blocks to the victim policy, retirement. Plain C++; every operation is O(1). The per-unit
// operations (validate, invalidate, page_done) are inline: they run several times per simulated unit write.
//
// The GC unit's shape is the unit pool's (gc/unit_pool.h, pool()): which blocks are free and which a frontier opens
// next (the block pool: a die's FIFO of free blocks, so erases spread over blocks; the line pool, gc/line_pool.h:
// lines of blocks over a group of dies, superblocks and FDP's reclaim units), when a unit becomes a victim candidate
// and when it is free again. The block manager asks it per block opened, closed or erased; validate and invalidate
// count a unit's valid units in the pool's UnitTally (units spanning dies) or the victim policy of blocks.
#pragma once
#include <algorithm>
#include <atomic>
#include <deque>
#include <string>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/gc/gc_unit.h"
#include "controller/gc/unit_pool.h"
#include "controller/gc/victim_policy.h"
#include "controller/gc/write_pointer.h"
#include "controller/slc/slc_cache.h"
#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

// The write frontiers of a die, numbered: the user streams (streams.count + 1, stream 0 the default), then
// the GC streams (one shared, or one per user stream), then, with translation pages on flash, the map
// stream. A single-stream drive has frontiers 0 (user), 1 (GC) and 2 (map). With gc_in_user
// (streams.gc_frontier=user) GC stream k writes into user stream k's frontier and has none of its own.
struct FrontierLayout {
  uint32_t user = 1;
  uint32_t gc = 1;
  bool gc_in_user = false;
  bool map = false;
  uint32_t user_frontier(uint32_t stream) const { return stream; }
  uint32_t gc_frontier(uint32_t gc_stream) const { return gc_in_user ? gc_stream : user + gc_stream; }
  uint32_t map_frontier() const { return user + (gc_in_user ? 0 : gc); }
  uint32_t frontiers() const { return map_frontier() + (map ? 1 : 0); }
};

// What a BlockManager is built with: it is complete once constructed (no set-up calls).
struct BlockParams {
  FrontierLayout layout;
  std::unique_ptr<VictimPolicy> victim;  // required: the victim policy of blocks
  // Free blocks (lines) a die keeps for its GC frontiers (gc_reserve()).
  uint32_t gc_reserve = 1;
  // The GC unit (gc/gc_unit.h; null: block), which shapes these parameters (GcUnit::shape) before the build.
  std::unique_ptr<GcUnit> unit;
  // The unit pool (gc/unit_pool.h): the unit's shape and its state, set by GcUnit::shape (make_line_pool with
  // lines); null: the block pool.
  UnitPoolFactory pool = nullptr;
  // Lines (the line pool, gc/line_pool.h: superblock mode, FDP's reclaim units): victim lines chosen by the named
  // victim policy (its key for errors) over Geometry::lines(groups, depth); groups must divide the dies and depth
  // the blocks per die. line_groups are also the dies' groups of the write pointer (groups()).
  bool lines = false;
  std::string line_victim, line_victim_key;
  uint32_t line_groups = 1, line_depth = 1;
  WritePointerFactory write_pointer = make_per_die_pointer;  // ftl.write_pointer (gc/write_pointer.h)
  SlcCache* slc = nullptr;     // slc.* (block mode): user frontiers open SLC blocks while it allows; null: none
  // Victims worth collecting (ftl.gc_min_invalid, FEMU's background GC): a victim's least share of invalid units
  // (0: any), waived below urgent_free_blocks free blocks (lines).
  double min_invalid = 0;
  uint32_t urgent_free_blocks = 0;
};

class BlockManager {
 public:
  explicit BlockManager(const Geometry& g, BlockParams p);
  // Block mode, every block a candidate, one free block kept for GC.
  BlockManager(const Geometry& g, const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim);

  // Next page of the (die, stream) frontier, opening a free block when needed: the ppa of its slot 0,
  // or kInvalid when the frontier is full and the die has no free block.
  uint32_t allocate_page(uint32_t die, uint32_t stream);
  // The write pointer (ftl.write_pointer, gc/write_pointer.h): the die of a frontier's next page in a group (with
  // line groups, FDP, each frontier has one per group), told of every page allocate_page allocates.
  const WritePointer& write_pointer() const { return *wp_; }
  // The GC unit (ftl.gc_unit, or FDP's reclaim units: gc/gc_unit.h).
  const GcUnit& unit() const { return *unit_; }
  // The unit pool (gc/unit_pool.h): the unit's shape, its free units and victim units.
  UnitPool& pool() { return *pool_; }
  const UnitPool& pool() const { return *pool_; }
  const Geometry& geometry() const { return g_; }
  uint32_t dies() const { return g_.dies; }
  // The dies' groups of consecutive dies (BlockParams::line_groups with lines, else one): the write pointer's, and
  // the line pool's reclaim groups.
  uint32_t groups() const { return groups_; }
  uint32_t group_dies() const { return group_dies_; }
  uint32_t group_of_die(uint32_t die) const { return die / group_dies_; }
  // Would allocate_page open a new block?
  bool frontier_full(uint32_t die, uint32_t stream) const {
    return frontier_[size_t(die) * streams_ + stream] == kInvalid;
  }
  uint32_t frontier_block(uint32_t die, uint32_t stream) const { return frontier_[size_t(die) * streams_ + stream]; }
  // A program into gblock finished.
  void page_done(uint32_t b) {
    Block& blk = blocks_[b];
    if (--blk.inflight == 0 && blk.next_page == g_.pages_per_block && blk.state == BlockState::Open) close(b);
  }
  // n more (fewer) valid units in gblock.
  void validate(uint32_t b, uint32_t n = 1) {
    Block& blk = blocks_[b];
    blk.valid += n;
    if (tally_)
      tally_->add(b, n);
    else if (blk.state == BlockState::Full)
      victim_->update(b, blk.valid - n, blk.valid);
  }
  void invalidate(uint32_t b, uint32_t n = 1) {
    Block& blk = blocks_[b];
    if (blk.valid < n) underflow(b);
    blk.valid -= n;
    if (tally_)
      tally_->sub(b, n);
    else if (blk.state == BlockState::Full)
      victim_->update(b, blk.valid + n, blk.valid);
  }
  uint32_t pick_victim(uint32_t die);  // global block id or kInvalid (a pool whose units are blocks)
  uint32_t peek_victim(uint32_t die) const { return victim_->peek(die); }
  // The victim policy of blocks (a pool whose units are blocks inserts the blocks it closes).
  VictimPolicy& block_victims() { return *victim_; }
  // The SLC cache (slc.*, block mode): user frontiers open SLC blocks while it allows.
  SlcCache* slc() const { return slc_; }
  bool is_slc(uint32_t gblock) const { return slc_ && slc_->is_slc(gblock); }
  // The die's oldest full SLC block, as a fold victim (kInvalid if none).
  uint32_t pick_slc_victim(uint32_t die);
  // A given full block as a victim (read reclaim); false if it is not a GC candidate now (a unit of several blocks).
  bool take_victim(uint32_t gblock);
  // A block of a started victim unit handed to GC (UnitPool::next_victim_block).
  void mark_victim(uint32_t gblock) { blocks_[gblock].state = BlockState::Victim; }
  // Victims worth collecting (BlockParams::min_invalid): while at least urgent_free_blocks blocks (units) are
  // free, pick_victim and the pool's start_victim decline a victim with fewer invalid units than that share of a
  // block (unit); declined() tells whether the last pick was declined.
  bool declined() const { return declined_; }
  uint64_t declines() const { return declines_; }
  // A pick starts (declined() false): is a victim's worth asked with `free` blocks (units) free? Then
  // declines(valid, unit) declines (and counts) a victim with `valid` valid units.
  bool worth_asked(uint32_t free, bool unit) {
    declined_ = false;
    return (unit ? worth_unit_ : worth_) != ~0u && free >= urgent_;
  }
  bool declines(uint32_t valid, bool unit) {
    if (valid <= (unit ? worth_unit_ : worth_)) return false;
    declined_ = true;
    ++declines_;
    return true;
  }
  void erased(uint32_t gblock);

  uint64_t retired_units() const { return retired_units_; }  // pages left unwritten by retirement, in units
  // Per frontier: blocks opened, and blocks closed before they were fully written (superblock retirement).
  // Per-die counts, so that fast-forward workers on different dies count apart; these sums are O(dies).
  uint64_t blocks_opened(uint32_t frontier) const { return sum(opened_, frontier); }
  uint64_t blocks_cut(uint32_t frontier) const { return sum(cut_, frontier); }
  // Closes the (die, frontier)'s open block where it is (its remaining pages stay unwritten); true if one was
  // open (ZNS: a zone's blocks hold only that zone's data; the line pool's retirement).
  bool retire_frontier(uint32_t die, uint32_t frontier);
  // The same for an open block no frontier holds (a parked zone's); false for kInvalid.
  bool retire_block(uint32_t gblock);
  // A free block the (die, frontier) was to write, closed unwritten (the line pool's retirement).
  void retire_unwritten(uint32_t die, uint32_t frontier, uint32_t gblock);
  // A frontier's open block taken away, kept open (kInvalid if none), and given back to an empty frontier (ZNS:
  // an active zone without a stream slot keeps its open blocks). Block mode.
  uint32_t detach_frontier(uint32_t die, uint32_t frontier);
  void attach_frontier(uint32_t die, uint32_t frontier, uint32_t gblock);
  void reset_counts() {
    std::fill(opened_.begin(), opened_.end(), 0);
    std::fill(cut_.begin(), cut_.end(), 0);
    pool_->reset_counts();
  }

  // The free units of the die (a pool whose units span dies: of the die's dies).
  uint32_t free_blocks(uint32_t die) const { return pool_->free_units(die); }
  uint64_t total_free_blocks() const { return pool_->total_free_blocks(); }
  uint32_t valid(uint32_t gblock) const { return blocks_[gblock].valid; }
  // Blocks closed so far, and the count when gblock last closed (power-loss recovery: a block closed after a
  // map segment's write-back may hold updates that segment's flash copy lacks).
  uint32_t close_clock() const { return close_clock_.load(std::memory_order_relaxed); }
  const std::atomic<uint32_t>* close_clock_ptr() const { return &close_clock_; }
  uint32_t closed_at(uint32_t gblock) const { return close_seq_[gblock]; }
  uint32_t pages_written(uint32_t gblock) const { return blocks_[gblock].next_page; }
  BlockState state(uint32_t gblock) const { return blocks_[gblock].state; }
  uint32_t streams() const { return streams_; }  // frontiers per die
  const FrontierLayout& layout() const { return layout_; }
  // Free blocks a die keeps for its GC frontiers: a host flush (or a map page) may open a block only while
  // the die has more than this. One per GC stream, but less than the GC threshold (PageFtl's parameters), so GC
  // runs whenever host writes cannot open a block; GC itself never needs more than one (it spills).
  uint32_t gc_reserve() const { return gc_reserve_; }
  // Could die take a page of `frontier` now, keeping `reserve` free blocks (units)?
  bool can_allocate(uint32_t die, uint32_t frontier, uint32_t reserve) const {
    return !frontier_full(die, frontier) || pool_->free_units(die) > reserve || pool_->has_room(die, frontier);
  }
  void prefetch(uint32_t gblock) const { __builtin_prefetch(&blocks_[gblock], 1); }
  // Saves or loads every block's state, the frontiers, the victim policy of blocks and the unit pool's state
  // (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  size_t memory_bytes() const {
    return blocks_.capacity() * sizeof(Block) + frontier_.capacity() * 4 + victim_->memory_bytes() +
           pool_->memory_bytes();
  }

 private:
  struct Block {
    uint32_t valid = 0;
    uint16_t next_page = 0;
    uint16_t inflight = 0;
    BlockState state = BlockState::Free;
  };
  void set_groups(bool lines, uint32_t groups);
  void set_worth(double min_invalid, uint32_t urgent);
  uint32_t open_slc(uint32_t die, uint32_t stream);    // an SLC block for a user frontier, or kInvalid
  void retire_block(uint32_t die, uint32_t stream, uint32_t gblock);  // closes it where it is (retirement)

  void close(uint32_t gblock);
  [[noreturn]] void underflow(uint32_t gblock) const;

  const Geometry& g_;
  FrontierLayout layout_;
  uint32_t streams_;
  uint32_t gc_reserve_ = 1;
  std::unique_ptr<VictimPolicy> victim_;
  SlcCache* slc_ = nullptr;  // null: no SLC cache
  std::vector<Block> blocks_;
  std::vector<uint32_t> frontier_;  // [die * streams + stream] -> global block id or kInvalid
  uint32_t groups_ = 1, group_dies_ = 1;
  uint64_t retired_units_ = 0;
  std::unique_ptr<GcUnit> unit_;
  std::unique_ptr<WritePointer> wp_;  // (after the groups)
  std::unique_ptr<UnitPool> pool_;    // (after the groups and the SLC cache)
  UnitTally* tally_ = nullptr;        // pool_->tally(): the units' valid counts of a pool whose units span dies
  bool pointer_moves_ = false;        // wp_->one_die(), asked once: allocate_page tells it of each page
  uint32_t worth_ = ~0u, worth_unit_ = ~0u, urgent_ = 0;
  bool declined_ = false;
  uint64_t declines_ = 0;
  std::atomic<uint32_t> close_clock_{0};  // fast-forward workers close blocks of different dies concurrently
  std::vector<uint32_t> close_seq_;  // per block
  std::vector<uint64_t> opened_, cut_;  // per (die, frontier): blocks_opened, blocks_cut
  uint64_t sum(const std::vector<uint64_t>& v, uint32_t frontier) const {
    uint64_t n = 0;
    for (size_t i = frontier; i < v.size(); i += streams_) n += v[i];
    return n;
  }
};

}  // namespace ssdtlm
