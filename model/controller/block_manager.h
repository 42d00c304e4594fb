// Block bookkeeping for all dies: free blocks (FIFO per die, so erases spread over blocks), one write
// frontier per (die, stream), valid-unit counts, and the hand-off of full blocks to the victim policy.
// Plain C++; every operation is O(1). The per-unit operations (validate, invalidate, page_done) are
// inline: they run several times per simulated unit write.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/gc/victim_policy.h"
#include "flash/geometry.h"

namespace ssdtlm {

enum class BlockState : uint8_t { Free, Open, Full, Victim };

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

class BlockManager {
 public:
  BlockManager(const Geometry& g, const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim);

  // Next page of the (die, stream) frontier, opening a free block when needed: the ppa of its slot 0,
  // or kInvalid when the frontier is full and the die has no free block.
  uint32_t allocate_page(uint32_t die, uint32_t stream);
  // Would allocate_page open a new block?
  bool frontier_full(uint32_t die, uint32_t stream) const {
    return frontier_[size_t(die) * streams_ + stream] == kInvalid;
  }
  // A program into gblock finished.
  void page_done(uint32_t b) {
    Block& blk = blocks_[b];
    if (--blk.inflight == 0 && blk.next_page == g_.pages_per_block && blk.state == BlockState::Open) close(b);
  }
  // n more (fewer) valid units in gblock.
  void validate(uint32_t b, uint32_t n = 1) {
    Block& blk = blocks_[b];
    blk.valid += n;
    if (blk.state == BlockState::Full) victim_->update(b, blk.valid - n, blk.valid);
  }
  void invalidate(uint32_t b, uint32_t n = 1) {
    Block& blk = blocks_[b];
    if (blk.valid < n) underflow(b);
    blk.valid -= n;
    if (blk.state == BlockState::Full) victim_->update(b, blk.valid + n, blk.valid);
  }
  uint32_t pick_victim(uint32_t die);  // global block id or kInvalid
  void erased(uint32_t gblock);

  uint32_t free_blocks(uint32_t die) const { return free_[die].count; }
  uint64_t total_free_blocks() const { return total_free_.load(std::memory_order_relaxed); }
  uint32_t valid(uint32_t gblock) const { return blocks_[gblock].valid; }
  BlockState state(uint32_t gblock) const { return blocks_[gblock].state; }
  uint32_t streams() const { return streams_; }  // frontiers per die
  const FrontierLayout& layout() const { return layout_; }
  // Free blocks a die keeps for its GC frontiers: a host flush (or a map page) may open a block only while
  // the die has more than this. One per GC stream, but less than the GC threshold (PageFtl sets it), so GC
  // runs whenever host writes cannot open a block; GC itself never needs more than one (it spills).
  uint32_t gc_reserve() const { return gc_reserve_; }
  void set_gc_reserve(uint32_t n) { gc_reserve_ = n; }
  // Could die take a page of `frontier` now, keeping `reserve` free blocks?
  bool can_allocate(uint32_t die, uint32_t frontier, uint32_t reserve) const {
    return !frontier_full(die, frontier) || free_[die].count > reserve;
  }
  void prefetch(uint32_t gblock) const { __builtin_prefetch(&blocks_[gblock], 1); }
  size_t memory_bytes() const {
    return blocks_.capacity() * sizeof(Block) + ring_.capacity() * 4 + free_.capacity() * sizeof(FreeRing) +
           frontier_.capacity() * 4 + victim_->memory_bytes();
  }

 private:
  struct Block {
    uint32_t valid = 0;
    uint16_t next_page = 0;
    uint16_t inflight = 0;
    BlockState state = BlockState::Free;
  };
  struct FreeRing {  // a die's free blocks: ring_[die * blocks_per_die + (head + i) % blocks_per_die]
    uint32_t head = 0, count = 0;
  };
  void close(uint32_t gblock);
  [[noreturn]] void underflow(uint32_t gblock) const;

  const Geometry& g_;
  FrontierLayout layout_;
  uint32_t streams_;
  uint32_t gc_reserve_ = 1;
  std::unique_ptr<VictimPolicy> victim_;
  std::vector<Block> blocks_;
  std::vector<uint32_t> ring_;    // free block ids (global), blocks_per_die slots per die
  std::vector<FreeRing> free_;    // per die
  std::vector<uint32_t> frontier_;  // [die * streams + stream] -> global block id or kInvalid
  std::atomic<uint64_t> total_free_{0};  // dies may be worked on by parallel fast-forward workers
};

}  // namespace ssdtlm
