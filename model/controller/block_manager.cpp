#include "controller/block_manager.h"

#include <stdexcept>
#include <string>

namespace ssdtlm {

BlockManager::BlockManager(const Geometry& g, const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim)
    : g_(g),
      layout_(layout),
      streams_(layout.frontiers()),
      victim_(std::move(victim)),
      blocks_(size_t(g.dies) * g.blocks_per_die),
      ring_(blocks_.size()),
      free_(g.dies),
      frontier_(size_t(g.dies) * streams_, kInvalid) {
  for (uint32_t b = 0; b < ring_.size(); ++b) ring_[b] = b;
  for (auto& f : free_) f.count = g.blocks_per_die;
  total_free_ = blocks_.size();
}

uint32_t BlockManager::allocate_page(uint32_t die, uint32_t stream) {
  uint32_t& f = frontier_[size_t(die) * streams_ + stream];
  if (f == kInvalid) {
    FreeRing& r = free_[die];
    if (r.count == 0) return kInvalid;
    f = ring_[size_t(die) * g_.blocks_per_die + r.head];
    r.head = r.head + 1 == g_.blocks_per_die ? 0 : r.head + 1;
    --r.count;
    total_free_.fetch_sub(1, std::memory_order_relaxed);
    blocks_[f].state = BlockState::Open;
    blocks_[f].next_page = 0;
  }
  uint32_t b = f;
  Block& blk = blocks_[b];
  uint32_t page = blk.next_page++;
  ++blk.inflight;
  if (blk.next_page == g_.pages_per_block) f = kInvalid;  // the block is fully allocated
  return (b * g_.pages_per_block + page) * g_.units_per_page;
}

void BlockManager::close(uint32_t b) {
  blocks_[b].state = BlockState::Full;
  victim_->insert(b, blocks_[b].valid);
}

void BlockManager::underflow(uint32_t b) const {
  throw std::logic_error("block " + std::to_string(b) + ": valid count below zero");
}

uint32_t BlockManager::pick_victim(uint32_t die) {
  uint32_t b = victim_->pick(die);
  if (b != kInvalid) blocks_[b].state = BlockState::Victim;
  return b;
}

void BlockManager::erased(uint32_t b) {
  Block& blk = blocks_[b];
  if (blk.valid != 0) throw std::logic_error("erase of block " + std::to_string(b) + " with valid data");
  blk.state = BlockState::Free;
  blk.next_page = 0;
  const uint32_t die = g_.die_of_gblock(b);
  FreeRing& r = free_[die];
  if (r.count == g_.blocks_per_die) throw std::logic_error("block " + std::to_string(b) + " erased while free");
  uint32_t slot = r.head + r.count;
  if (slot >= g_.blocks_per_die) slot -= g_.blocks_per_die;
  ring_[size_t(die) * g_.blocks_per_die + slot] = b;
  ++r.count;
  total_free_.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace ssdtlm
