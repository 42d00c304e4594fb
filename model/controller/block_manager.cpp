#include "controller/block_manager.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void BlockManager::Seq::snapshot(SnapshotArchive& a) { a.io_all(lines, base); }

void BlockManager::snapshot(SnapshotArchive& a) {
  a.section("blocks");
  a.expect(blocks_.size(), "blocks");
  a.expect(lines_, "superblock mode");
  a.io_all(gc_reserve_, blocks_, ring_, free_, frontier_, total_free_);
  victim_->snapshot(a);
  if (lines_) {
    a.expect(groups_, "line groups");
    a.expect(depth_, "line depth");
    line_victim_->snapshot(a);
    a.io_all(line_, free_lines_, seq_, taken_, started_, start_base_, line_started_, line_taken_, lines_in_gc_,
             lines_in_gc_total_, lines_opened_, lines_cut_, lines_erased_);
  }
  a.io_all(retired_units_, worth_, worth_line_, urgent_, declined_, declines_, close_clock_, close_seq_, opened_, cut_);
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
      blocks_(size_t(g.dies) * g.blocks_per_die),
      ring_(blocks_.size()),
      free_(g.dies),
      frontier_(size_t(g.dies) * streams_, kInvalid),
      opened_(size_t(g.dies) * streams_, 0),
      cut_(size_t(g.dies) * streams_, 0) {
  for (uint32_t b = 0; b < ring_.size(); ++b) ring_[b] = b;
  for (auto& f : free_) f.count = g.blocks_per_die;
  total_free_ = blocks_.size();
  close_seq_.assign(blocks_.size(), 0);
  group_dies_ = g.dies;  // one group of every die unless lines say otherwise
  // In the order they depend on each other: the lines (their size), the write pointers over their groups, the SLC
  // cache's static blocks (out of the free blocks), the victims' worth (the lines' size).
  unit_ = p.unit ? std::move(p.unit) : make_block_unit(UnitConfig());
  if (p.lines) enable_lines(p.line_victim, p.line_victim_key, p.line_groups, p.line_depth);
  wp_ = p.write_pointer(PointerShape{groups_, group_dies_, streams_});
  pointer_moves_ = wp_->one_die();
  pool_ = (p.pool ? p.pool : p.lines ? make_line_pool : make_block_pool)(*this);
  set_slc(p.slc);
  set_worth(p.min_invalid, p.urgent_free_blocks);
}

void BlockManager::set_worth(double min_invalid, uint32_t urgent) {
  if (min_invalid <= 0) return;  // any victim will do
  const auto most_valid = [&](uint64_t units) {
    return uint32_t(units - uint64_t(std::ceil(min_invalid * double(units))));
  };
  worth_ = most_valid(g_.units_per_block);
  worth_line_ = most_valid(uint64_t(g_.units_per_block) * line_blocks());
  urgent_ = urgent;
}

uint32_t BlockManager::open_block(uint32_t die, uint32_t stream) {
  if (!lines_) {
    FreeRing& r = free_[die];
    if (r.count == 0) return kInvalid;
    const uint32_t b = ring_[size_t(die) * g_.blocks_per_die + r.head];
    r.head = r.head + 1 == g_.blocks_per_die ? 0 : r.head + 1;
    --r.count;
    total_free_.fetch_sub(1, std::memory_order_relaxed);
    return b;
  }
  return open_line(die, stream);
}

uint32_t BlockManager::open_line(uint32_t die, uint32_t stream) {
  // The die's next block of the frontier's lines in its group, opening a line if no other die has yet.
  const uint32_t group = group_of_die(die);
  Seq& q = seq_[size_t(group) * streams_ + stream];
  uint64_t& t = taken_[size_t(die) * streams_ + stream];
  if (t == (q.base + q.lines.size()) * depth_) {
    std::deque<uint32_t>& free = free_lines_[group];
    if (free.empty()) return kInvalid;
    forget_filled(group, stream);
    if (q.lines.size() >= kOpenLines) retire_oldest(group, stream);
    const uint32_t line = free.front();
    free.pop_front();
    line_[line].state = BlockState::Open;
    q.lines.push_back(line);
    ++lines_opened_[size_t(group) * streams_ + stream];
  }
  const uint32_t b = line_block(q.lines[size_t(t / depth_ - q.base)], die, uint32_t(t % depth_));
  ++t;
  return b;
}

uint32_t BlockManager::die_behind(uint32_t d, uint32_t frontier) const {
  const uint32_t group = group_of_die(d);
  const Seq& q = seq_[size_t(group) * streams_ + frontier];
  const uint64_t end = (q.base + q.lines.size()) * depth_;  // blocks of the open lines, per die
  uint32_t behind = d;
  uint64_t least = ~uint64_t(0);
  for (uint32_t e = group * group_dies_; e < (group + 1) * group_dies_; ++e) {  // rare: once per block a die fills
    const size_t k = size_t(e) * streams_ + frontier;
    const uint32_t f = frontier_[k];
    if (f == kInvalid && taken_[k] >= end) continue;  // no room in the open lines
    // Pages written into the frontier's lines so far (its open block's, or up to the blocks it has taken).
    const uint64_t written = f != kInvalid ? (taken_[k] - 1) * g_.pages_per_block + blocks_[f].next_page
                                           : taken_[k] * g_.pages_per_block;
    if (written < least) {
      least = written;
      behind = e;
    }
  }
  return behind;
}

void BlockManager::forget_filled(uint32_t group, uint32_t stream) {
  // A die is in the line of the block before the next it would take while its frontier block is open.
  Seq& q = seq_[size_t(group) * streams_ + stream];
  uint64_t low = q.base + q.lines.size();
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) {
    const size_t i = size_t(d) * streams_ + stream;
    low = std::min(low, (taken_[i] - (frontier_[i] != kInvalid ? 1 : 0)) / depth_);
  }
  while (q.base < low) {
    q.lines.pop_front();
    ++q.base;
  }
}

uint32_t BlockManager::allocate_page(uint32_t die, uint32_t stream) {
  uint32_t& f = frontier_[size_t(die) * streams_ + stream];
  if (f == kInvalid) {
    uint32_t b = slc_ && stream < layout_.user && slc_->on() ? open_slc(die, stream) : kInvalid;
    if (b == kInvalid) b = open_block(die, stream);
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

void BlockManager::retire_oldest(uint32_t group, uint32_t stream) {
  // Every die still writing its blocks of the frontier's oldest line (or yet to start them) leaves them now:
  // each block is closed with its remaining pages unwritten, so the line can fill and become a candidate.
  Seq& q = seq_[size_t(group) * streams_ + stream];
  const uint32_t line = q.lines.front();
  const uint64_t cut_before = retired_units_;
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) {
    uint64_t& t = taken_[size_t(d) * streams_ + stream];
    uint32_t& f = frontier_[size_t(d) * streams_ + stream];
    if (f != kInvalid && line_id_[f] == line) {
      const uint32_t b = f;
      f = kInvalid;
      retire_block(d, stream, b);
    }
    for (; t < (q.base + 1) * depth_; ++t) {  // never started: empty blocks, closed as they are (erased with the line)
      const uint32_t b = line_block(line, d, uint32_t(t % depth_));
      blocks_[b].state = BlockState::Open;
      retire_block(d, stream, b);
    }
  }
  if (retired_units_ != cut_before) ++lines_cut_[size_t(group) * streams_ + stream];
  q.lines.pop_front();
  ++q.base;
}

void BlockManager::retire_block(uint32_t d, uint32_t stream, uint32_t b) {
  if (blocks_[b].next_page < g_.pages_per_block) ++cut_[size_t(d) * streams_ + stream];
  retire_block(b);
}

bool BlockManager::retire_frontier(uint32_t die, uint32_t frontier) {
  uint32_t& f = frontier_[size_t(die) * streams_ + frontier];
  if (f == kInvalid) return false;
  ++cut_[size_t(die) * streams_ + frontier];
  const uint32_t b = f;
  f = kInvalid;
  return retire_block(b);
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
  if (!lines_) {
    victim_->insert(b, blocks_[b].valid);
    return;
  }
  const uint32_t line = line_id_[b];
  Line& l = line_[line];
  if (++l.closed == line_blocks()) {  // every block of the line is full: the line is a candidate
    l.state = BlockState::Full;
    line_victim_->insert(line, l.valid);
  }
}

void BlockManager::enable_lines(const std::string& victim_policy, const std::string& key, uint32_t groups,
                                uint32_t depth) {
  if (groups == 0 || g_.dies % groups || depth == 0 || g_.blocks_per_die % depth)
    throw std::logic_error("lines: " + std::to_string(groups) + " groups of depth " + std::to_string(depth) +
                           " do not divide " + std::to_string(g_.dies) + " dies of " + std::to_string(g_.blocks_per_die) +
                           " blocks");
  lines_ = true;
  groups_ = groups;
  group_dies_ = g_.dies / groups;
  depth_ = depth;
  lines_per_group_ = g_.blocks_per_die / depth;
  line_g_ = g_.lines(groups, depth);
  line_victim_ = make_victim_policy(victim_policy, line_g_, key);
  line_.assign(size_t(groups) * lines_per_group_, Line());
  line_id_.resize(blocks_.size());
  for (uint32_t b = 0; b < line_id_.size(); ++b)
    line_id_[b] = group_of_die(g_.die_of_gblock(b)) * lines_per_group_ + g_.block_in_die(b) / depth;
  free_lines_.assign(groups, std::deque<uint32_t>());
  for (uint32_t k = 0; k < groups; ++k)
    for (uint32_t l = 0; l < lines_per_group_; ++l) free_lines_[k].push_back(k * lines_per_group_ + l);
  seq_.assign(size_t(groups) * streams_, Seq());
  taken_.assign(size_t(g_.dies) * streams_, 0);
  started_.assign(groups, std::deque<uint32_t>());
  start_base_.assign(groups, 0);
  line_started_.assign(groups, 0);
  line_taken_.assign(g_.dies, 0);
  lines_in_gc_.assign(groups, 0);
  lines_opened_.assign(size_t(groups) * streams_, 0);
  lines_cut_.assign(size_t(groups) * streams_, 0);
}

uint64_t BlockManager::total_free_blocks() const {
  if (!lines_) return total_free_.load(std::memory_order_relaxed);
  uint64_t n = 0;
  for (const auto& f : free_lines_) n += f.size();
  return n * line_blocks();
}

uint64_t BlockManager::open_line_units_left(uint32_t group, uint32_t frontier) const {
  const Seq& q = seq_[size_t(group) * streams_ + frontier];
  if (q.lines.empty()) return kInvalid;
  uint64_t pages = 0;
  for (uint32_t line : q.lines)
    for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d)
      for (uint32_t i = 0; i < depth_; ++i) pages += g_.pages_per_block - blocks_[line_block(line, d, i)].next_page;
  return pages * g_.units_per_page;
}

bool BlockManager::start_line(uint32_t group) {
  declined_ = false;
  if (worth_line_ != ~0u && free_lines_[group].size() >= urgent_) {
    const uint32_t best = line_victim_->peek(group);
    if (best != kInvalid && line_[best].valid > worth_line_) {
      declined_ = true;
      ++declines_;
      return false;
    }
  }
  const uint32_t line = line_victim_->pick(group);
  if (line == kInvalid) return false;
  line_[line].state = BlockState::Victim;
  started_[group].push_back(line);
  ++line_started_[group];
  ++lines_in_gc_[group];
  ++lines_in_gc_total_;
  return true;
}

uint32_t BlockManager::next_line_block(uint32_t die) {
  const uint32_t group = group_of_die(die);
  uint64_t& t = line_taken_[die];
  if (t == line_started_[group] * depth_) return kInvalid;
  const uint32_t b = line_block(started_[group][size_t(t / depth_ - start_base_[group])], die, uint32_t(t % depth_));
  blocks_[b].state = BlockState::Victim;
  ++t;
  uint64_t low = t / depth_;  // the lines every die of the group has taken all its blocks of
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) low = std::min(low, line_taken_[d] / depth_);
  while (start_base_[group] < low) {
    started_[group].pop_front();
    ++start_base_[group];
  }
  return b;
}

void BlockManager::underflow(uint32_t b) const {
  throw std::logic_error("block " + std::to_string(b) + ": valid count below zero");
}

uint32_t BlockManager::pick_victim(uint32_t die) {
  declined_ = false;
  if (worth_ != ~0u && free_[die].count >= urgent_) {
    const uint32_t best = victim_->peek(die);
    if (best != kInvalid && blocks_[best].valid > worth_) {
      declined_ = true;
      ++declines_;
      return kInvalid;
    }
  }
  uint32_t b = victim_->pick(die);
  if (b != kInvalid) blocks_[b].state = BlockState::Victim;
  return b;
}

void BlockManager::set_slc(SlcCache* slc) {
  slc_ = slc;
  if (!slc || slc->static_blocks() == 0) return;
  // Static: the first blocks of every die are the cache's, out of the free pool (the ring starts after them).
  const uint32_t n = slc->static_blocks();
  for (uint32_t d = 0; d < g_.dies; ++d) {
    if (free_[d].head != 0 || free_[d].count != g_.blocks_per_die)
      throw std::logic_error("the SLC cache is set up before any block is allocated");
    free_[d].head = n;
    free_[d].count -= n;
  }
  total_free_.fetch_sub(uint64_t(n) * g_.dies, std::memory_order_relaxed);
}

uint32_t BlockManager::open_slc(uint32_t die, uint32_t stream) {
  if (!slc_->may_open(die, free_[die].count)) return kInvalid;
  if (slc_->params().mode == SlcMode::Static) return slc_->take_static(die);
  const uint32_t b = open_block(die, stream);
  if (b != kInvalid) slc_->opened(b);
  return b;
}

bool BlockManager::take_victim(uint32_t b) {
  if (lines_ || blocks_[b].state != BlockState::Full) return false;
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
  if (lines_) {  // the line is free once every block of it is
    const uint32_t line = line_id_[b], group = group_of_die(g_.die_of_gblock(b));
    Line& l = line_[line];
    if (++l.erased == line_blocks()) {
      l = Line();
      free_lines_[group].push_back(line);
      --lines_in_gc_[group];
      --lines_in_gc_total_;
      ++lines_erased_;
    }
    return;
  }
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
