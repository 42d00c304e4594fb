// The unit pool of ftl.gc_unit=block (unit_pool.h): a unit is one block of a die, taken from the die's FIFO of free
// blocks (so erases spread over the blocks; a static SLC cache's blocks, the first of every die, kept out of it:
// slc/slc_cache.h) and, once full, a candidate of the victim policy of blocks (BlockManager::block_victims), picked
// block by block (GcVictims::pick_victim); no victim unit is started for several dies, and no die is ahead of
// another.
#include <atomic>
#include <stdexcept>
#include <string>

#include "controller/block_manager.h"
#include "controller/gc/unit_pool.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

namespace {
class BlockPool final : public UnitPool {
 public:
  BlockPool(BlockManager& b, const Geometry& g)
      : UnitPool(false, g.dies), b_(b), per_die_(g.blocks_per_die), ring_(size_t(g.dies) * per_die_), head_(g.dies, 0) {
    for (uint32_t i = 0; i < ring_.size(); ++i) ring_[i] = i;
    // A static SLC cache's blocks are the first of every die, out of the free pool (the ring starts after them).
    const uint32_t slc = b.slc() ? b.slc()->static_blocks() : 0;
    for (uint32_t d = 0; d < g.dies; ++d) {
      head_[d] = slc;
      free_[d] = per_die_ - slc;
    }
    total_free_ = uint64_t(per_die_ - slc) * g.dies;
  }

  uint32_t open(uint32_t die, uint32_t) override {
    if (free_[die] == 0) return kInvalid;
    uint32_t& head = head_[die];
    const uint32_t b = ring_[size_t(die) * per_die_ + head];
    head = head + 1 == per_die_ ? 0 : head + 1;
    --free_[die];
    total_free_.fetch_sub(1, std::memory_order_relaxed);
    return b;
  }
  void closed(uint32_t gblock) override { b_.block_victims().insert(gblock, b_.valid(gblock)); }
  void erased(uint32_t gblock) override {
    const uint32_t die = gblock / per_die_;
    if (free_[die] == per_die_) throw std::logic_error("block " + std::to_string(gblock) + " erased while free");
    uint32_t slot = head_[die] + free_[die];
    if (slot >= per_die_) slot -= per_die_;
    ring_[size_t(die) * per_die_ + slot] = gblock;
    ++free_[die];
    total_free_.fetch_add(1, std::memory_order_relaxed);
  }
  uint64_t total_free_blocks() const override { return total_free_.load(std::memory_order_relaxed); }
  size_t memory_bytes() const override { return (ring_.capacity() + head_.capacity() + free_.capacity()) * 4; }
  void snapshot(SnapshotArchive& a) override { a.io_all(ring_, head_, free_, total_free_); }

  void unit_dies(uint32_t die, uint32_t* first, uint32_t* last) const override {
    *first = die;
    *last = die + 1;
  }
  uint32_t blocks_per_die() const override { return 1; }
  uint32_t unit_blocks() const override { return 1; }
  bool start_victim(uint32_t) override { return false; }
  uint32_t next_victim_block(uint32_t) override { return kInvalid; }
  uint32_t units_in_gc(uint32_t) const override { return 0; }
  uint32_t unit_of(uint32_t gblock) const override { return gblock; }
  uint32_t unit_valid(uint32_t unit) const override { return b_.valid(unit); }
  bool ahead(uint32_t, uint32_t) const override { return false; }
  uint32_t gc_copy_die(uint32_t d, uint32_t) const override { return d; }

 private:
  BlockManager& b_;
  const uint32_t per_die_;        // blocks per die
  std::vector<uint32_t> ring_;    // a die's free blocks: ring_[die * per_die_ + (head_[die] + i) % per_die_], i < free_
  std::vector<uint32_t> head_;    // per die
  std::atomic<uint64_t> total_free_{0};  // dies may be worked on by parallel fast-forward workers
};
}  // namespace

std::unique_ptr<UnitPool> make_block_pool(BlockManager& b, const BlockParams& p) {
  if (p.lines) throw std::logic_error("the block pool with lines (BlockParams::lines)");
  return std::make_unique<BlockPool>(b, b.geometry());
}

}  // namespace ssdtlm
