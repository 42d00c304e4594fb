// The unit pool of lines (ftl.gc_unit=superblock, FDP's reclaim units; unit_pool.h), with its state.
//
// Superblock mode (BlockParams::lines): block b of every die makes line b, the unit of allocation and of garbage
// collection (FEMU bbssd's "line"). Free lines form one FIFO; a frontier's blocks come from a sequence of lines it
// opens in turn, die by die (each die writes its block of the frontier's current line, then its block of the next;
// a die ahead of the others opens the next line), so every line is written by one frontier across all dies. A line
// is a GC candidate once all its blocks are full, ranked by its total valid units (the victim policy over
// Geometry::lines()); GC collects a victim line block by block on every die (start_line / next_line_block) and the
// line is free again once every block is erased. free_units(die) then counts free lines. Dies fill their blocks of
// a line unevenly (a die's GC copies stay in the die), so a frontier keeps at most kOpenLines lines open: the die
// that would open one more retires the oldest, closing the other dies' blocks of it where they are. To keep that
// rare, a die a whole line ahead (line_ahead) sends its GC copies (line_gc_die) and host pages to a die behind.
//
// FDP reclaim units (lines with groups and depth; docs/reference/placement.md): the dies form `groups` groups of
// consecutive dies (the reclaim groups, BlockManager::groups()) and a line is `depth` blocks on every die of one
// group (a reclaim unit, fdp.ru_bytes): line r of group k holds blocks r * depth .. r * depth + depth - 1 of each of
// the group's dies. Each group has its own free lines, victim lines (the victim policy's "dies" are the groups)
// and GC, and a frontier opens lines of the group of the die that writes. With one group of depth 1 this is
// superblock mode.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "controller/gc/unit_pool.h"
#include "flash/geometry.h"

namespace ssdtlm {

class LinePool final : public UnitPool {
 public:
  LinePool(BlockManager& b, const BlockParams& p);

  uint32_t open(uint32_t die, uint32_t frontier) override;  // the die's next block of the frontier's lines
  void closed(uint32_t gblock) override;
  void erased(uint32_t gblock) override;
  bool has_room(uint32_t die, uint32_t frontier) const override;  // a line another die already opened takes nothing
  uint64_t total_free_blocks() const override;
  void reset_counts() override;
  size_t memory_bytes() const override;
  void snapshot(SnapshotArchive& a) override;

  void unit_dies(uint32_t die, uint32_t* first, uint32_t* last) const override {
    *first = group_of_die(die) * group_dies_;
    *last = *first + group_dies_;
  }
  uint32_t blocks_per_die() const override { return depth_; }
  uint32_t unit_blocks() const override { return line_blocks(); }
  bool start_victim(uint32_t die) override { return start_line(group_of_die(die)); }
  uint32_t next_victim_block(uint32_t die) override { return next_line_block(die); }
  uint32_t units_in_gc(uint32_t die) const override { return lines_in_gc(group_of_die(die)); }
  uint32_t unit_of(uint32_t gblock) const override { return line_of(gblock); }
  uint32_t unit_valid(uint32_t unit) const override { return line_valid(unit); }
  bool ahead(uint32_t die, uint32_t frontier) const override { return line_ahead(die, frontier); }
  uint32_t gc_copy_die(uint32_t d, uint32_t frontier) const override { return line_gc_die(d, frontier); }

  // The lines (their reports: FDP's reclaim units, fdp_report.cpp).
  uint32_t line_groups() const { return groups_; }
  uint32_t line_depth() const { return depth_; }                   // blocks of a line on each die of its group
  uint32_t line_blocks() const { return group_dies_ * depth_; }    // blocks of a line
  uint32_t group_of_die(uint32_t die) const { return die / group_dies_; }
  uint32_t line_of(uint32_t gblock) const { return tally_own_.of_block[gblock]; }
  uint32_t lines_per_group() const { return lines_per_group_; }
  // Block i (< line_depth()) of `line` on `die` (a die of the line's group).
  uint32_t line_block(uint32_t line, uint32_t die, uint32_t i) const {
    return die * blocks_per_die_ + (line % lines_per_group_) * depth_ + i;
  }
  // Picks the group's next victim line for each of its dies to collect its blocks of; false if no line is a
  // candidate (or the victim is declined: BlockManager::declined()).
  bool start_line(uint32_t group = 0);
  // The die's next block of the oldest started victim line (of its group) it has not collected yet, or kInvalid.
  uint32_t next_line_block(uint32_t die);
  bool line_pending(uint32_t die) const { return line_taken_[die] < line_started_[group_of_die(die)] * depth_; }
  uint32_t free_lines(uint32_t group = 0) const { return uint32_t(free_lines_[group].size()); }
  uint32_t lines_in_gc() const { return lines_in_gc_total_; }  // victim lines not yet free again, all groups
  uint32_t lines_in_gc(uint32_t group) const { return lines_in_gc_[group]; }
  uint32_t line_valid(uint32_t line) const { return tally_own_.units[line].valid; }
  // Units the frontier may still program in the lines it holds open in the group (FDP: the Reclaim Unit
  // Available Media Writes of the reclaim unit handle's RU in that reclaim group), or kInvalid with none open.
  uint64_t open_line_units_left(uint32_t group, uint32_t frontier) const;
  // Per (group, frontier): lines opened, and lines closed with pages left unwritten (retirement); lines erased
  // whole, all groups; since reset_counts.
  uint64_t lines_opened(uint32_t group, uint32_t frontier) const { return lines_opened_[size_t(group) * streams_ + frontier]; }
  uint64_t lines_cut(uint32_t group, uint32_t frontier) const { return lines_cut_[size_t(group) * streams_ + frontier]; }
  uint64_t lines_erased() const { return lines_erased_; }
  // A frontier keeps at most this many lines open: a die about to open one more first retires the oldest,
  // closing the blocks other dies have not filled (dies progress unevenly: GC copies stay in their die).
  static constexpr size_t kOpenLines = 2;
  // Would die's next page of the frontier open one more line while kOpenLines are open (and so retire the
  // oldest)? Host flushes go to other dies while some may take them (FlushScheduler::pick_die).
  bool line_ahead(uint32_t d, uint32_t frontier) const;
  // With a write pointer that leaves the die to the writer (per_die): the die a GC copy read on die d is programmed
  // on. It stays on d unless d would have to open one more line for the frontier while kOpenLines are open (which
  // retires the oldest and cuts the blocks of the dies behind): then it goes to the die of its group furthest
  // behind in the frontier's open lines (issue 44: without it lines filled so unevenly that retirement wasted 15 %
  // of the flash written and GC starved the host on the default drive).
  uint32_t line_gc_die(uint32_t d, uint32_t frontier) const {
    return line_ahead(d, frontier) ? die_behind(d, frontier) : d;
  }

 private:
  struct Seq {  // lines a frontier has opened in a group, oldest first; lines[i] is its (base + i)-th
    std::deque<uint32_t> lines;
    uint64_t base = 0;
    void snapshot(SnapshotArchive& a);
  };
  bool spanning_victim_pending(uint32_t die) const override { return line_pending(die); }
  uint32_t spanning_units_in_gc() const override { return lines_in_gc_total_; }
  uint32_t die_behind(uint32_t d, uint32_t frontier) const;  // line_gc_die's: the die of d's group furthest behind
  void forget_filled(uint32_t group, uint32_t stream);  // drops the lines no die still writes or has to start
  void retire_oldest(uint32_t group, uint32_t stream);
  void count_free(uint32_t group, bool freed);  // free_units of the group's dies: one line more (fewer)

  BlockManager& b_;
  const uint32_t streams_, blocks_per_die_, pages_per_block_, units_per_page_;
  uint32_t groups_ = 1, group_dies_ = 1, depth_ = 1, lines_per_group_ = 0;
  Geometry line_g_;        // (before the tally: its victim policy's geometry)
  UnitTally tally_own_;    // the lines: each block's line, each line's valid units and blocks closed and erased
  std::vector<std::deque<uint32_t>> free_lines_;  // per group
  std::vector<Seq> seq_;             // per (group, frontier)
  std::vector<uint64_t> taken_;      // per (die, frontier): blocks of the frontier's sequence (of its group) it has used
  // Per group: victim lines in the order started; started_[k][i] is the group's (start_base_[k] + i)-th.
  std::vector<std::deque<uint32_t>> started_;
  std::vector<uint64_t> start_base_, line_started_;
  std::vector<uint64_t> line_taken_;  // per die: blocks of its group's started victim lines it has taken
  std::vector<uint32_t> lines_in_gc_;  // per group
  uint32_t lines_in_gc_total_ = 0;
  std::vector<uint64_t> lines_opened_, lines_cut_;  // per (group, frontier)
  uint64_t lines_erased_ = 0;
};

// The block manager's pool as the line pool (std::logic_error if its units are not lines).
LinePool& line_pool(BlockManager& b);
const LinePool& line_pool(const BlockManager& b);

}  // namespace ssdtlm
