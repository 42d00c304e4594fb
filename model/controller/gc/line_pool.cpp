// The line pool (line_pool.h): lines of `depth` blocks on every die of a group of consecutive dies, their free
// FIFO per group, the open-line sequences of the frontiers with their retirement, and the started victim lines.
#include "controller/gc/line_pool.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/block_manager.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void LinePool::Seq::snapshot(SnapshotArchive& a) { a.io_all(lines, base); }

LinePool::LinePool(BlockManager& b, const BlockParams& p)
    : UnitPool(true, b.dies()),
      b_(b),
      streams_(b.streams()),
      blocks_per_die_(b.geometry().blocks_per_die),
      pages_per_block_(b.geometry().pages_per_block),
      units_per_page_(b.geometry().units_per_page) {
  const Geometry& g = b.geometry();
  const uint32_t groups = b.groups(), depth = p.line_depth;
  if (!p.lines) throw std::logic_error("the line pool needs lines (BlockParams::lines)");
  if (b.slc()) throw std::logic_error("the line pool with an SLC cache (its blocks are a die's)");
  if (depth == 0 || g.blocks_per_die % depth)
    throw std::logic_error("lines: " + std::to_string(groups) + " groups of depth " + std::to_string(depth) +
                           " do not divide " + std::to_string(g.dies) + " dies of " + std::to_string(g.blocks_per_die) +
                           " blocks");
  groups_ = groups;
  group_dies_ = b.group_dies();
  depth_ = depth;
  lines_per_group_ = g.blocks_per_die / depth;
  line_g_ = g.lines(groups, depth);
  tally_own_.victim = make_victim_policy(p.line_victim, line_g_, p.line_victim_key);
  tally_own_.units.assign(size_t(groups) * lines_per_group_, UnitTally::Unit());
  tally_own_.of_block.resize(size_t(g.dies) * g.blocks_per_die);
  for (uint32_t blk = 0; blk < tally_own_.of_block.size(); ++blk)
    tally_own_.of_block[blk] = group_of_die(g.die_of_gblock(blk)) * lines_per_group_ + g.block_in_die(blk) / depth;
  tally_ = &tally_own_;
  free_lines_.assign(groups, std::deque<uint32_t>());
  for (uint32_t k = 0; k < groups; ++k)
    for (uint32_t l = 0; l < lines_per_group_; ++l) free_lines_[k].push_back(k * lines_per_group_ + l);
  std::fill(free_.begin(), free_.end(), lines_per_group_);
  seq_.assign(size_t(groups) * streams_, Seq());
  taken_.assign(size_t(g.dies) * streams_, 0);
  started_.assign(groups, std::deque<uint32_t>());
  start_base_.assign(groups, 0);
  line_started_.assign(groups, 0);
  line_taken_.assign(g.dies, 0);
  lines_in_gc_.assign(groups, 0);
  lines_opened_.assign(size_t(groups) * streams_, 0);
  lines_cut_.assign(size_t(groups) * streams_, 0);
}

void LinePool::snapshot(SnapshotArchive& a) {
  a.expect(groups_, "line groups");
  a.expect(depth_, "line depth");
  tally_own_.victim->snapshot(a);
  a.io_all(tally_own_.units, free_, free_lines_, seq_, taken_, started_, start_base_, line_started_, line_taken_,
           lines_in_gc_, lines_in_gc_total_, lines_opened_, lines_cut_, lines_erased_);
}

size_t LinePool::memory_bytes() const {
  return tally_own_.of_block.capacity() * 4 + tally_own_.units.capacity() * sizeof(UnitTally::Unit) +
         tally_own_.victim->memory_bytes() + size_t(groups_) * lines_per_group_ * 4 + free_.capacity() * 4 +
         taken_.capacity() * 8 + line_taken_.capacity() * 8;
}

void LinePool::reset_counts() {
  std::fill(lines_opened_.begin(), lines_opened_.end(), 0);
  std::fill(lines_cut_.begin(), lines_cut_.end(), 0);
  lines_erased_ = 0;
}

void LinePool::count_free(uint32_t group, bool freed) {
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) freed ? ++free_[d] : --free_[d];
}

uint32_t LinePool::open(uint32_t die, uint32_t stream) {
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
    count_free(group, false);
    tally_own_.units[line].state = BlockState::Open;
    q.lines.push_back(line);
    ++lines_opened_[size_t(group) * streams_ + stream];
  }
  const uint32_t blk = line_block(q.lines[size_t(t / depth_ - q.base)], die, uint32_t(t % depth_));
  ++t;
  return blk;
}

bool LinePool::has_room(uint32_t die, uint32_t frontier) const {
  const Seq& q = seq_[size_t(group_of_die(die)) * streams_ + frontier];
  return taken_[size_t(die) * streams_ + frontier] < (q.base + q.lines.size()) * depth_;
}

bool LinePool::line_ahead(uint32_t d, uint32_t frontier) const {
  const size_t i = size_t(d) * streams_ + frontier;
  const Seq& q = seq_[size_t(group_of_die(d)) * streams_ + frontier];
  return b_.frontier_full(d, frontier) && taken_[i] >= (q.base + q.lines.size()) * depth_ &&
         q.lines.size() >= kOpenLines;
}

uint32_t LinePool::die_behind(uint32_t d, uint32_t frontier) const {
  const uint32_t group = group_of_die(d);
  const Seq& q = seq_[size_t(group) * streams_ + frontier];
  const uint64_t end = (q.base + q.lines.size()) * depth_;  // blocks of the open lines, per die
  uint32_t behind = d;
  uint64_t least = ~uint64_t(0);
  for (uint32_t e = group * group_dies_; e < (group + 1) * group_dies_; ++e) {  // rare: once per block a die fills
    const size_t k = size_t(e) * streams_ + frontier;
    const uint32_t f = b_.frontier_block(e, frontier);
    if (f == kInvalid && taken_[k] >= end) continue;  // no room in the open lines
    // Pages written into the frontier's lines so far (its open block's, or up to the blocks it has taken).
    const uint64_t written = f != kInvalid ? (taken_[k] - 1) * pages_per_block_ + b_.pages_written(f)
                                           : taken_[k] * pages_per_block_;
    if (written < least) {
      least = written;
      behind = e;
    }
  }
  return behind;
}

void LinePool::forget_filled(uint32_t group, uint32_t stream) {
  // A die is in the line of the block before the next it would take while its frontier block is open.
  Seq& q = seq_[size_t(group) * streams_ + stream];
  uint64_t low = q.base + q.lines.size();
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) {
    const size_t i = size_t(d) * streams_ + stream;
    low = std::min(low, (taken_[i] - (b_.frontier_full(d, stream) ? 0 : 1)) / depth_);
  }
  while (q.base < low) {
    q.lines.pop_front();
    ++q.base;
  }
}

void LinePool::retire_oldest(uint32_t group, uint32_t stream) {
  // Every die still writing its blocks of the frontier's oldest line (or yet to start them) leaves them now:
  // each block is closed with its remaining pages unwritten, so the line can fill and become a candidate.
  Seq& q = seq_[size_t(group) * streams_ + stream];
  const uint32_t line = q.lines.front();
  const uint64_t cut_before = b_.retired_units();
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) {
    uint64_t& t = taken_[size_t(d) * streams_ + stream];
    const uint32_t f = b_.frontier_block(d, stream);
    if (f != kInvalid && line_of(f) == line) b_.retire_frontier(d, stream);
    // Never started: empty blocks, closed as they are (erased with the line).
    for (; t < (q.base + 1) * depth_; ++t) b_.retire_unwritten(d, stream, line_block(line, d, uint32_t(t % depth_)));
  }
  if (b_.retired_units() != cut_before) ++lines_cut_[size_t(group) * streams_ + stream];
  q.lines.pop_front();
  ++q.base;
}

void LinePool::closed(uint32_t gblock) {
  const uint32_t line = line_of(gblock);
  UnitTally::Unit& l = tally_own_.units[line];
  if (++l.closed == line_blocks()) {  // every block of the line is full: the line is a candidate
    l.state = BlockState::Full;
    tally_own_.victim->insert(line, l.valid);
  }
}

void LinePool::erased(uint32_t gblock) {
  // The line is free once every block of it is.
  const uint32_t line = line_of(gblock), group = group_of_die(gblock / blocks_per_die_);
  UnitTally::Unit& l = tally_own_.units[line];
  if (++l.erased == line_blocks()) {
    l = UnitTally::Unit();
    free_lines_[group].push_back(line);
    count_free(group, true);
    --lines_in_gc_[group];
    --lines_in_gc_total_;
    ++lines_erased_;
  }
}

uint64_t LinePool::total_free_blocks() const {
  uint64_t n = 0;
  for (const auto& f : free_lines_) n += f.size();
  return n * line_blocks();
}

uint64_t LinePool::open_line_units_left(uint32_t group, uint32_t frontier) const {
  const Seq& q = seq_[size_t(group) * streams_ + frontier];
  if (q.lines.empty()) return kInvalid;
  uint64_t pages = 0;
  for (uint32_t line : q.lines)
    for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d)
      for (uint32_t i = 0; i < depth_; ++i) pages += pages_per_block_ - b_.pages_written(line_block(line, d, i));
  return pages * units_per_page_;
}

bool LinePool::start_line(uint32_t group) {
  if (b_.worth_asked(free_lines(group), true)) {
    const uint32_t best = tally_own_.victim->peek(group);
    if (best != kInvalid && b_.declines(tally_own_.units[best].valid, true)) return false;
  }
  const uint32_t line = tally_own_.victim->pick(group);
  if (line == kInvalid) return false;
  tally_own_.units[line].state = BlockState::Victim;
  started_[group].push_back(line);
  ++line_started_[group];
  ++lines_in_gc_[group];
  ++lines_in_gc_total_;
  return true;
}

uint32_t LinePool::next_line_block(uint32_t die) {
  const uint32_t group = group_of_die(die);
  uint64_t& t = line_taken_[die];
  if (t == line_started_[group] * depth_) return kInvalid;
  const uint32_t blk = line_block(started_[group][size_t(t / depth_ - start_base_[group])], die, uint32_t(t % depth_));
  b_.mark_victim(blk);
  ++t;
  uint64_t low = t / depth_;  // the lines every die of the group has taken all its blocks of
  for (uint32_t d = group * group_dies_; d < (group + 1) * group_dies_; ++d) low = std::min(low, line_taken_[d] / depth_);
  while (start_base_[group] < low) {
    started_[group].pop_front();
    ++start_base_[group];
  }
  return blk;
}

std::unique_ptr<UnitPool> make_line_pool(BlockManager& b, const BlockParams& p) {
  return std::make_unique<LinePool>(b, p);
}

LinePool& line_pool(BlockManager& b) {
  if (auto* lines = dynamic_cast<LinePool*>(&b.pool())) return *lines;
  throw std::logic_error("the block manager's units are not lines (BlockParams::lines)");
}

const LinePool& line_pool(const BlockManager& b) { return line_pool(const_cast<BlockManager&>(b)); }

}  // namespace ssdtlm
