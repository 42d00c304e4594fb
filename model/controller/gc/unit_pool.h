// The GC unit's shape: its state (the free units, the units a frontier writes, the victim units in GC) with their
// allocation, closing and freeing, and the questions its callers ask: which dies a unit spans, how a victim unit is
// started and its blocks handed out die by die, the units free and in GC, a unit's valid units, and whether a die
// is ahead of the others in a frontier's units (so that host pages and GC copies go elsewhere). Owned by the
// BlockManager (pool()), chosen by the GcUnit at construction (GcUnit::shape sets BlockParams::pool). The block
// manager keeps what every shape shares (the blocks' valid counts and states, the frontiers' open blocks, the
// victim policy of blocks, retirement's counts) and asks the pool once per block opened (open), closed (closed) or
// erased (erased) and per frontier with no room (has_room); the callers ask the pool, never the shape:
// GcVictims::pick_victim (a started unit's blocks), GcJob::collect (a whole unit, immediate), GcEngine's triggers
// and GC copy die, FlushScheduler::pick_die (a die ahead), the preconditioning's workers.
// Two implementations: block_pool.cpp (a die's block: the die's FIFO of free blocks, the SLC cache's static blocks
// kept out of it) and line_pool.cpp (lines of a group of dies x depth blocks: line_pool.h). The hot paths ask
// spans_dies() once, at construction; free_units is inline; the per-unit-written bookkeeping of a pool whose units
// span dies (BlockManager::validate, invalidate) goes to its UnitTally, inline and non-virtual.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/gc/victim_policy.h"

namespace ssdtlm {

class BlockManager;
struct BlockParams;
class SnapshotArchive;

// Cached: a full SLC block (slc.*), waiting to be folded; never a GC victim candidate.
enum class BlockState : uint8_t { Free, Open, Full, Victim, Cached };

// The units of a pool whose units span dies, as BlockManager::validate and invalidate count their valid units
// (per unit written: inline, non-virtual): each block's unit, each unit's valid units, blocks closed and erased and
// state, and the victim policy over the units (a Full unit is a candidate, ranked by its valid units).
struct UnitTally {
  struct Unit {
    uint32_t valid = 0;
    uint32_t closed = 0, erased = 0;  // its blocks full, its blocks erased
    BlockState state = BlockState::Free;
  };
  std::vector<uint32_t> of_block;  // per block (global id): its unit
  std::vector<Unit> units;
  std::unique_ptr<VictimPolicy> victim;
  void add(uint32_t gblock, uint32_t n) {
    const uint32_t u = of_block[gblock];
    Unit& x = units[u];
    x.valid += n;
    if (x.state == BlockState::Full) victim->update(u, x.valid - n, x.valid);
  }
  void sub(uint32_t gblock, uint32_t n) {
    const uint32_t u = of_block[gblock];
    Unit& x = units[u];
    x.valid -= n;
    if (x.state == BlockState::Full) victim->update(u, x.valid + n, x.valid);
  }
};

class UnitPool {
 public:
  // spans_dies: a unit holds blocks of several dies, collected together (a victim unit is started for its dies,
  // each collecting its blocks of it, and is free once every block is erased); false: a unit is one die's block,
  // picked and freed on its own. free_units(die) starts at 0 for every die (the pool sets it).
  UnitPool(bool spans_dies, uint32_t dies) : free_(dies, 0), spans_dies_(spans_dies) {}
  virtual ~UnitPool() = default;
  bool spans_dies() const { return spans_dies_; }

  // The state: allocation, closing, freeing (the block manager calls these).
  // A free block for the (die, frontier) whose open block is full (kInvalid: none, no unit free).
  virtual uint32_t open(uint32_t die, uint32_t frontier) = 0;
  // A block of the pool closed (fully written or retired; not an SLC block): its unit may become a victim candidate.
  virtual void closed(uint32_t gblock) = 0;
  // A block erased (not a static SLC block): its unit may be free again.
  virtual void erased(uint32_t gblock) = 0;
  // May die's full frontier take a block of a unit already open for it (taking no free unit)?
  virtual bool has_room(uint32_t, uint32_t) const { return false; }
  virtual uint64_t total_free_blocks() const = 0;
  // The units of a pool whose units span dies (null: a unit is a block, counted by the block manager).
  UnitTally* tally() { return tally_; }
  virtual void reset_counts() {}  // the counts a report reads since a point (BlockManager::reset_counts)
  virtual size_t memory_bytes() const = 0;
  // Saves or loads the pool's state (controller/snapshot; BlockManager::snapshot).
  virtual void snapshot(SnapshotArchive& a) = 0;

  // The questions.
  // The dies [first, last) whose blocks a unit holding a block of `die` holds.
  virtual void unit_dies(uint32_t die, uint32_t* first, uint32_t* last) const = 0;
  virtual uint32_t blocks_per_die() const = 0;  // of one unit, on each of its dies
  virtual uint32_t unit_blocks() const = 0;     // of one unit
  // Starts the next victim unit of `die`'s dies (false: none is a candidate, or BlockManager::declined()).
  virtual bool start_victim(uint32_t die) = 0;
  // The die's next block of a started victim unit it has not collected yet, or kInvalid.
  virtual uint32_t next_victim_block(uint32_t die) = 0;
  // Has a started victim unit a block of the die left? Started victim units not free again, of every die. Asked per
  // page and per completion (GcJob::kick): no virtual call for units of one die (never started).
  bool victim_pending(uint32_t die) const { return spans_dies_ && spanning_victim_pending(die); }
  uint32_t units_in_gc() const { return spans_dies_ ? spanning_units_in_gc() : 0; }
  virtual uint32_t units_in_gc(uint32_t die) const = 0;  // started victim units of die's dies, not free again
  uint32_t free_units(uint32_t die) const { return free_[die]; }  // free units of die's dies
  virtual uint32_t unit_of(uint32_t gblock) const = 0;
  virtual uint32_t unit_valid(uint32_t unit) const = 0;
  // Would die's next page of `frontier` open one more unit while others are still open (a die ahead)?
  virtual bool ahead(uint32_t die, uint32_t frontier) const = 0;
  // The die a GC copy read on die d is programmed on (with a write pointer that leaves the die to the writer).
  virtual uint32_t gc_copy_die(uint32_t d, uint32_t frontier) const = 0;

 protected:
  // A pool whose units span dies (spans_dies): victim_pending and units_in_gc().
  virtual bool spanning_victim_pending(uint32_t) const { return false; }
  virtual uint32_t spanning_units_in_gc() const { return 0; }
  std::vector<uint32_t> free_;  // per die: free_units (a pool whose units span dies counts its dies' units on each)
  UnitTally* tally_ = nullptr;  // (a pool whose units span dies: its own)

 private:
  const bool spans_dies_;
};

// Builds the pool for the block manager being built (its geometry, frontiers, groups of dies and SLC cache are set;
// the shape's parameters are in `p`).
using UnitPoolFactory = std::unique_ptr<UnitPool> (*)(BlockManager&, const BlockParams& p);
std::unique_ptr<UnitPool> make_block_pool(BlockManager& b, const BlockParams& p);  // block_pool.cpp
std::unique_ptr<UnitPool> make_line_pool(BlockManager& b, const BlockParams& p);   // line_pool.cpp: BlockParams::lines

}  // namespace ssdtlm
