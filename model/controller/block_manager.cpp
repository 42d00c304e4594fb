#include "controller/block_manager.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void BlockManager::snapshot(SnapshotArchive& a) {
  a.section("blocks");
  a.expect(blocks_.size(), "blocks");
  a.expect(pool_->spans_dies(), "units spanning dies");
  a.io_all(gc_reserve_, blocks_, frontier_);
  victim_->snapshot(a);
  pool_->snapshot(a);
  a.io_all(retired_units_, worth_, worth_unit_, urgent_, declined_, declines_, close_clock_, close_seq_, opened_, cut_);
  wp_->snapshot(a);
}

namespace {
BlockParams block_mode(const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim) {
  BlockParams p;
  p.layout = layout;
  p.victim = std::move(victim);
  return p;
}
}  // namespace

BlockManager::BlockManager(const Geometry& g, const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim)
    : BlockManager(g, block_mode(layout, std::move(victim))) {}

BlockManager::BlockManager(const Geometry& g, BlockParams p)
    : g_(g),
      layout_(p.layout),
      streams_(p.layout.frontiers()),
      gc_reserve_(p.gc_reserve),
      victim_(std::move(p.victim)),
      slc_(p.slc),
      blocks_(size_t(g.dies) * g.blocks_per_die),
      frontier_(size_t(g.dies) * streams_, kInvalid),
      opened_(size_t(g.dies) * streams_, 0),
      cut_(size_t(g.dies) * streams_, 0) {
  close_seq_.assign(blocks_.size(), 0);
  // In the order they depend on each other: the dies' groups, the write pointers over them, the unit pool (the
  // groups, the SLC cache's static blocks), the victims' worth (the pool's units' size).
  unit_ = p.unit ? std::move(p.unit) : make_block_unit(UnitConfig());
  set_groups(p.lines, p.line_groups);
  wp_ = p.write_pointer(PointerShape{groups_, group_dies_, streams_});
  pointer_moves_ = wp_->one_die();
  pool_ = (p.pool ? p.pool : make_block_pool)(*this, p);
  tally_ = pool_->tally();
  set_worth(p.min_invalid, p.urgent_free_blocks);
}

void BlockManager::set_groups(bool lines, uint32_t groups) {
  if (!lines) return;  // one group of every die
  if (groups == 0 || g_.dies % groups)
    throw std::logic_error("lines: " + std::to_string(groups) + " groups do not divide " + std::to_string(g_.dies) +
                           " dies");
  groups_ = groups;
  group_dies_ = g_.dies / groups;
}

void BlockManager::set_worth(double min_invalid, uint32_t urgent) {
  if (min_invalid <= 0) return;  // any victim will do
  const auto most_valid = [&](uint64_t units) {
    return uint32_t(units - uint64_t(std::ceil(min_invalid * double(units))));
  };
  worth_ = most_valid(g_.units_per_block);
  worth_unit_ = most_valid(uint64_t(g_.units_per_block) * pool_->unit_blocks());
  urgent_ = urgent;
}

uint32_t BlockManager::allocate_page(uint32_t die, uint32_t stream) {
  uint32_t& f = frontier_[size_t(die) * streams_ + stream];
  if (f == kInvalid) {
    uint32_t b = slc_ && stream < layout_.user && slc_->on() ? open_slc(die, stream) : kInvalid;
    if (b == kInvalid) b = pool_->open(die, stream);
    if (b == kInvalid) return kInvalid;
    ++opened_[size_t(die) * streams_ + stream];
    f = b;
    blocks_[f].state = BlockState::Open;
    blocks_[f].next_page = 0;
  }
  uint32_t b = f;
  Block& blk = blocks_[b];
  uint32_t page = blk.next_page++;
  ++blk.inflight;
  if (pointer_moves_) wp_->allocated(die, stream);
  if (blk.next_page == g_.pages_per_block) f = kInvalid;  // the block is fully allocated
  if (slc_ && blk.next_page == slc_->slc_pages() && slc_->is_slc(b)) {  // an SLC block holds 1/bits of the pages
    blk.next_page = uint16_t(g_.pages_per_block);
    f = kInvalid;
  }
  return (b * g_.pages_per_block + page) * g_.units_per_page;
}

void BlockManager::retire_block(uint32_t d, uint32_t stream, uint32_t b) {
  if (blocks_[b].next_page < g_.pages_per_block) ++cut_[size_t(d) * streams_ + stream];
  retire_block(b);
}

void BlockManager::retire_unwritten(uint32_t die, uint32_t frontier, uint32_t b) {
  blocks_[b].state = BlockState::Open;
  retire_block(die, frontier, b);
}

bool BlockManager::retire_frontier(uint32_t die, uint32_t frontier) {
  uint32_t& f = frontier_[size_t(die) * streams_ + frontier];
  if (f == kInvalid) return false;
  const uint32_t b = f;
  f = kInvalid;
  retire_block(die, frontier, b);
  return true;
}

bool BlockManager::retire_block(uint32_t b) {
  if (b == kInvalid) return false;
  Block& blk = blocks_[b];
  retired_units_ += uint64_t(g_.pages_per_block - blk.next_page) * g_.units_per_page;
  blk.next_page = uint16_t(g_.pages_per_block);
  if (blk.inflight == 0) close(b);  // else the last program in flight closes it
  return true;
}

uint32_t BlockManager::detach_frontier(uint32_t die, uint32_t frontier) {
  uint32_t& f = frontier_[size_t(die) * streams_ + frontier];
  const uint32_t b = f;
  f = kInvalid;
  return b;
}

void BlockManager::attach_frontier(uint32_t die, uint32_t frontier, uint32_t gblock) {
  uint32_t& f = frontier_[size_t(die) * streams_ + frontier];
  if (f != kInvalid) throw std::logic_error("BlockManager::attach_frontier: the frontier has an open block");
  f = gblock;
}

void BlockManager::close(uint32_t b) {
  blocks_[b].state = BlockState::Full;
  close_seq_[b] = close_clock_.fetch_add(1, std::memory_order_relaxed) + 1;
  if (slc_ && slc_->is_slc(b)) {  // folded, not collected by GC
    blocks_[b].state = BlockState::Cached;
    slc_->closed(b);
    return;
  }
  pool_->closed(b);
}

void BlockManager::underflow(uint32_t b) const {
  throw std::logic_error("block " + std::to_string(b) + ": valid count below zero");
}

uint32_t BlockManager::pick_victim(uint32_t die) {
  if (worth_asked(pool_->free_units(die), false)) {
    const uint32_t best = victim_->peek(die);
    if (best != kInvalid && declines(blocks_[best].valid, false)) return kInvalid;
  }
  uint32_t b = victim_->pick(die);
  if (b != kInvalid) blocks_[b].state = BlockState::Victim;
  return b;
}

uint32_t BlockManager::open_slc(uint32_t die, uint32_t stream) {
  if (!slc_->may_open(die, pool_->free_units(die))) return kInvalid;
  if (slc_->params().mode == SlcMode::Static) return slc_->take_static(die);
  const uint32_t b = pool_->open(die, stream);
  if (b != kInvalid) slc_->opened(b);
  return b;
}

bool BlockManager::take_victim(uint32_t b) {
  if (tally_ || blocks_[b].state != BlockState::Full) return false;
  victim_->remove(b);
  blocks_[b].state = BlockState::Victim;
  return true;
}

uint32_t BlockManager::pick_slc_victim(uint32_t die) {
  if (!slc_ || !slc_->has_full(die)) return kInvalid;
  const uint32_t b = slc_->pop_full(die);
  blocks_[b].state = BlockState::Victim;
  return b;
}

void BlockManager::erased(uint32_t b) {
  Block& blk = blocks_[b];
  if (blk.valid != 0) throw std::logic_error("erase of block " + std::to_string(b) + " with valid data");
  blk.state = BlockState::Free;
  blk.next_page = 0;
  if (slc_ && slc_->is_slc(b) && slc_->erased(b)) return;  // a static SLC block: back to the cache's own
  pool_->erased(b);
}

}  // namespace ssdtlm
