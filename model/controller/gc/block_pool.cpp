// The unit pool of ftl.gc_unit=block (unit_pool.h): a unit is one block of a die, taken from the die's FIFO of free
// blocks (or the SLC cache's) and picked as a victim by the blocks' victim policy, block by block
// (GcVictims::pick_victim); no victim unit is started for several dies, and no die is ahead of another.
#include <stdexcept>

#include "controller/block_manager.h"
#include "controller/gc/unit_pool.h"

namespace ssdtlm {

namespace {
class BlockPool final : public UnitPool {
 public:
  explicit BlockPool(BlockManager& b) : UnitPool(false), b_(b) {}
  void unit_dies(uint32_t die, uint32_t* first, uint32_t* last) const override {
    *first = die;
    *last = die + 1;
  }
  uint32_t blocks_per_die() const override { return 1; }
  uint32_t unit_blocks() const override { return 1; }
  bool start_victim(uint32_t) override { return false; }
  uint32_t next_victim_block(uint32_t) override { return kInvalid; }
  uint32_t units_in_gc(uint32_t) const override { return 0; }
  uint32_t free_units(uint32_t die) const override { return b_.free_blocks(die); }
  uint32_t unit_of(uint32_t gblock) const override { return gblock; }
  uint32_t unit_valid(uint32_t unit) const override { return b_.valid(unit); }
  bool ahead(uint32_t, uint32_t) const override { return false; }
  uint32_t gc_copy_die(uint32_t d, uint32_t) const override { return d; }

 private:
  BlockManager& b_;
};
}  // namespace

std::unique_ptr<UnitPool> make_block_pool(BlockManager& b) {
  if (b.lines()) throw std::logic_error("the block pool with the block manager's lines (BlockParams::lines)");
  return std::make_unique<BlockPool>(b);
}

}  // namespace ssdtlm
