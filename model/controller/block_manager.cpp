#include "controller/block_manager.h"

#include <stdexcept>

namespace ssdtlm {

BlockManager::BlockManager(const Geometry& g, uint32_t streams, std::unique_ptr<VictimPolicy> victim)
    : g_(g),
      streams_(streams),
      victim_(std::move(victim)),
      blocks_(size_t(g.dies) * g.blocks_per_die),
      free_(g.dies),
      frontier_(size_t(g.dies) * streams, kInvalid) {
  for (uint32_t d = 0; d < g.dies; ++d)
    for (uint32_t b = 0; b < g.blocks_per_die; ++b) free_[d].push_back(d * g.blocks_per_die + b);
  total_free_ = blocks_.size();
}

bool BlockManager::frontier_full(uint32_t die, uint32_t stream) const {
  return frontier_[size_t(die) * streams_ + stream] == kInvalid;
}

uint32_t BlockManager::allocate_page(uint32_t die, uint32_t stream) {
  uint32_t& f = frontier_[size_t(die) * streams_ + stream];
  if (f == kInvalid) {
    if (free_[die].empty()) return kInvalid;
    f = free_[die].front();
    free_[die].pop_front();
    --total_free_;
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

void BlockManager::maybe_close(uint32_t b) {
  Block& blk = blocks_[b];
  if (blk.state == BlockState::Open && blk.inflight == 0 && blk.next_page == g_.pages_per_block) {
    blk.state = BlockState::Full;
    victim_->insert(b, blk.valid);
  }
}

void BlockManager::page_done(uint32_t b) {
  --blocks_[b].inflight;
  maybe_close(b);
}

void BlockManager::validate(uint32_t b) {
  Block& blk = blocks_[b];
  ++blk.valid;
  if (blk.state == BlockState::Full) victim_->update(b, blk.valid - 1, blk.valid);
}

void BlockManager::invalidate(uint32_t b) {
  Block& blk = blocks_[b];
  if (blk.valid == 0) throw std::logic_error("block " + std::to_string(b) + ": valid count below zero");
  --blk.valid;
  if (blk.state == BlockState::Full) victim_->update(b, blk.valid + 1, blk.valid);
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
  free_[b / g_.blocks_per_die].push_back(b);
  ++total_free_;
}

}  // namespace ssdtlm
