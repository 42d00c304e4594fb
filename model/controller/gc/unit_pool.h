// The GC unit's shape as the block manager's callers see it: which dies a unit spans, how a victim unit is started
// and its blocks handed out die by die, the units free and in GC, a unit's valid units, and whether a die is ahead
// of the others in a frontier's units (so that host pages and GC copies go elsewhere). Owned by the BlockManager
// (pool()), chosen by the GcUnit at construction (GcUnit::shape sets BlockParams::pool). The callers ask the pool,
// never the shape: GcVictims::pick_victim (a started unit's blocks), GcJob::collect (a whole unit, immediate),
// GcEngine's triggers and GC copy die, FlushScheduler::pick_die (a die ahead), the preconditioning's workers.
// Two implementations: block_pool.cpp (a die's block, the die's FIFO of free blocks) and line_pool.cpp (lines of a
// group of dies x depth blocks: BlockManager's lines). The hot paths ask spans_dies() once, at construction;
// per-unit-written bookkeeping (validate, invalidate) stays the block manager's, non-virtual.
// Still the block manager's (issue 46, docs/history/issue46_audit.md): the state of both shapes (free ring, lines,
// open-line sequences, retirement, started victim lines) and their snapshot; the pools read it through its API.
#pragma once
#include <cstdint>
#include <memory>

namespace ssdtlm {

class BlockManager;

class UnitPool {
 public:
  // spans_dies: a unit holds blocks of several dies, collected together (a victim unit is started for its dies,
  // each collecting its blocks of it, and is free once every block is erased); false: a unit is one die's block,
  // picked and freed on its own.
  explicit UnitPool(bool spans_dies) : spans_dies_(spans_dies) {}
  virtual ~UnitPool() = default;
  bool spans_dies() const { return spans_dies_; }
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
  virtual uint32_t free_units(uint32_t die) const = 0;
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

 private:
  const bool spans_dies_;
};

using UnitPoolFactory = std::unique_ptr<UnitPool> (*)(BlockManager&);
std::unique_ptr<UnitPool> make_block_pool(BlockManager& b);  // block_pool.cpp
std::unique_ptr<UnitPool> make_line_pool(BlockManager& b);   // line_pool.cpp: BlockParams::lines

}  // namespace ssdtlm
