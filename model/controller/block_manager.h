// Block bookkeeping for all dies: free blocks (FIFO per die, so erases spread over blocks), one write
// frontier per (die, stream), valid-unit counts, and the hand-off of full blocks to the victim policy.
// Plain C++; every operation is O(1). The per-unit operations (validate, invalidate, page_done) are
// inline: they run several times per simulated unit write.
//
// Superblock mode (ftl.gc_unit=superblock, BlockParams::lines): block b of every die makes line b, the unit of
// allocation and of garbage collection (FEMU bbssd's "line"). Free lines form one FIFO; a frontier's
// blocks come from a sequence of lines it opens in turn, die by die (each die writes its block of the
// frontier's current line, then its block of the next; a die ahead of the others opens the next line),
// so every line is written by one frontier across all dies. A line is a GC candidate once all its blocks
// are full, ranked by its total valid units (the victim policy over Geometry::lines()); GC collects a
// victim line block by block on every die (start_line / next_line_block) and the line is free again
// once every block is erased. free_blocks(die) then counts free lines. Dies fill their blocks of a line
// unevenly (a die's GC copies stay in the die), so a frontier keeps at most kOpenLines lines open: the die
// that would open one more retires the oldest, closing the other dies' blocks of it where they are. To keep that
// rare, a die a whole line ahead (line_ahead) sends its GC copies (line_gc_die) and host pages to a die behind.
//
// FDP reclaim units (lines with groups and depth; docs/reference/placement.md): the dies form `groups` groups of
// consecutive dies (the reclaim groups) and a line is `depth` blocks on every die of one group (a reclaim unit,
// fdp.ru_bytes): line r of group k holds blocks r * depth .. r * depth + depth - 1 of each of the group's dies.
// Each group has its own free lines, victim lines (the victim policy's "dies" are the groups) and GC, and a
// frontier opens lines of the group of the die that writes. With one group of depth 1 this is superblock mode.
#pragma once
#include <algorithm>
#include <atomic>
#include <deque>
#include <string>
#include <cstdint>
#include <memory>
#include <vector>

#include "controller/gc/gc_unit.h"
#include "controller/gc/unit_pool.h"
#include "controller/gc/victim_policy.h"
#include "controller/gc/write_pointer.h"
#include "controller/slc/slc_cache.h"
#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

// Cached: a full SLC block (slc.*), waiting to be folded; never a GC victim candidate.
enum class BlockState : uint8_t { Free, Open, Full, Victim, Cached };

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

// What a BlockManager is built with: it is complete once constructed (no set-up calls).
struct BlockParams {
  FrontierLayout layout;
  std::unique_ptr<VictimPolicy> victim;  // required: the victim policy of blocks
  // Free blocks (lines) a die keeps for its GC frontiers (gc_reserve()).
  uint32_t gc_reserve = 1;
  // The GC unit (gc/gc_unit.h; null: block), which shapes these parameters (GcUnit::shape) before the build.
  std::unique_ptr<GcUnit> unit;
  // The unit pool (gc/unit_pool.h) the callers ask about the unit's shape, set by GcUnit::shape; null: the line
  // pool with lines, else the block pool.
  UnitPoolFactory pool = nullptr;
  // Lines (superblock mode, FDP's reclaim units): victim lines chosen by the named victim policy (its key for
  // errors) over Geometry::lines(groups, depth); groups must divide the dies and depth the blocks per die.
  bool lines = false;
  std::string line_victim, line_victim_key;
  uint32_t line_groups = 1, line_depth = 1;
  WritePointerFactory write_pointer = make_per_die_pointer;  // ftl.write_pointer (gc/write_pointer.h)
  SlcCache* slc = nullptr;     // slc.* (block mode): user frontiers open SLC blocks while it allows; null: none
  // Victims worth collecting (ftl.gc_min_invalid, FEMU's background GC): a victim's least share of invalid units
  // (0: any), waived below urgent_free_blocks free blocks (lines).
  double min_invalid = 0;
  uint32_t urgent_free_blocks = 0;
};

class BlockManager {
 public:
  explicit BlockManager(const Geometry& g, BlockParams p);
  // Block mode, every block a candidate, one free block kept for GC.
  BlockManager(const Geometry& g, const FrontierLayout& layout, std::unique_ptr<VictimPolicy> victim);

  // Next page of the (die, stream) frontier, opening a free block when needed: the ppa of its slot 0,
  // or kInvalid when the frontier is full and the die has no free block.
  uint32_t allocate_page(uint32_t die, uint32_t stream);
  // The write pointer (ftl.write_pointer, gc/write_pointer.h): the die of a frontier's next page in a group (with
  // line groups, FDP, each frontier has one per group), told of every page allocate_page allocates.
  const WritePointer& write_pointer() const { return *wp_; }
  // The GC unit (ftl.gc_unit, or FDP's reclaim units: gc/gc_unit.h).
  const GcUnit& unit() const { return *unit_; }
  // The unit pool (gc/unit_pool.h): the unit's shape as GC, the flush scheduler and the preconditioning see it.
  UnitPool& pool() { return *pool_; }
  const UnitPool& pool() const { return *pool_; }
  uint32_t dies() const { return g_.dies; }
  // Superblock mode with a write pointer that leaves the die to the writer (per_die): the die a GC copy read on
  // die d is programmed on (d in block mode). It stays on d
  // unless d would have to open one more line for the frontier while kOpenLines are open (which retires the
  // oldest and cuts the blocks of the dies behind): then it goes to the die of its group furthest behind in the
  // frontier's open lines (issue 44: without it lines filled so unevenly that retirement wasted 15 % of the flash
  // written and GC starved the host on the default drive).
  uint32_t line_gc_die(uint32_t d, uint32_t frontier) const {
    return line_ahead(d, frontier) ? die_behind(d, frontier) : d;
  }
  // Superblock mode: would die's next page of the frontier open one more line while kOpenLines are open (and so
  // retire the oldest)? Host flushes go to other dies while some may take them (FlushScheduler::pick_die).
  bool line_ahead(uint32_t d, uint32_t frontier) const {
    if (!lines_) return false;
    const size_t i = size_t(d) * streams_ + frontier;
    const Seq& q = seq_[size_t(group_of_die(d)) * streams_ + frontier];
    return frontier_[i] == kInvalid && taken_[i] >= (q.base + q.lines.size()) * depth_ && q.lines.size() >= kOpenLines;
  }
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
    if (lines_) {
      const uint32_t line = line_id_[b];
      Line& l = line_[line];
      l.valid += n;
      if (l.state == BlockState::Full) line_victim_->update(line, l.valid - n, l.valid);
    } else if (blk.state == BlockState::Full) {
      victim_->update(b, blk.valid - n, blk.valid);
    }
  }
  void invalidate(uint32_t b, uint32_t n = 1) {
    Block& blk = blocks_[b];
    if (blk.valid < n) underflow(b);
    blk.valid -= n;
    if (lines_) {
      const uint32_t line = line_id_[b];
      Line& l = line_[line];
      l.valid -= n;
      if (l.state == BlockState::Full) line_victim_->update(line, l.valid + n, l.valid);
    } else if (blk.state == BlockState::Full) {
      victim_->update(b, blk.valid + n, blk.valid);
    }
  }
  uint32_t pick_victim(uint32_t die);  // global block id or kInvalid (block mode)
  uint32_t peek_victim(uint32_t die) const { return victim_->peek(die); }
  // The SLC cache (slc.*, block mode): user frontiers open SLC blocks while it allows.
  SlcCache* slc() const { return slc_; }
  bool is_slc(uint32_t gblock) const { return slc_ && slc_->is_slc(gblock); }
  // The die's oldest full SLC block, as a fold victim (kInvalid if none).
  uint32_t pick_slc_victim(uint32_t die);
  // A given full block as a victim (read reclaim); false if it is not a GC candidate now (block mode).
  bool take_victim(uint32_t gblock);
  // Victims worth collecting (BlockParams::min_invalid): while at least urgent_free_blocks blocks (lines) are
  // free, pick_victim and start_line decline a victim with fewer invalid units than that share of a block (line);
  // declined() tells whether the last pick was declined.
  bool declined() const { return declined_; }
  uint64_t declines() const { return declines_; }
  void erased(uint32_t gblock);

  // Superblock mode (BlockParams::lines): groups and depth > 1 for FDP's reclaim units (above).
  bool lines() const { return lines_; }
  uint32_t line_groups() const { return groups_; }
  uint32_t line_depth() const { return depth_; }                   // blocks of a line on each die of its group
  uint32_t line_blocks() const { return group_dies_ * depth_; }    // blocks of a line
  uint32_t group_of_die(uint32_t die) const { return die / group_dies_; }
  uint32_t line_of(uint32_t gblock) const { return line_id_[gblock]; }
  uint32_t lines_per_group() const { return lines_per_group_; }
  // Block i (< line_depth()) of `line` on `die` (a die of the line's group).
  uint32_t line_block(uint32_t line, uint32_t die, uint32_t i) const {
    return die * g_.blocks_per_die + (line % lines_per_group_) * depth_ + i;
  }
  // Picks the group's next victim line for each of its dies to collect its blocks of; false if no line is a
  // candidate.
  bool start_line(uint32_t group = 0);
  // The die's next block of the oldest started victim line (of its group) it has not collected yet, or kInvalid.
  uint32_t next_line_block(uint32_t die);
  bool line_pending(uint32_t die) const {
    return lines_ && line_taken_[die] < line_started_[group_of_die(die)] * depth_;
  }
  uint32_t free_lines(uint32_t group = 0) const { return uint32_t(free_lines_[group].size()); }
  uint32_t lines_in_gc() const { return lines_in_gc_total_; }  // victim lines not yet free again, all groups
  uint32_t lines_in_gc(uint32_t group) const { return lines_in_gc_[group]; }
  uint32_t line_valid(uint32_t line) const { return line_[line].valid; }
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
  uint64_t retired_units() const { return retired_units_; }  // pages left unwritten by retirement, in units
  // Per frontier: blocks opened, and blocks closed before they were fully written (superblock retirement).
  // Per-die counts, so that fast-forward workers on different dies count apart; these sums are O(dies).
  uint64_t blocks_opened(uint32_t frontier) const { return sum(opened_, frontier); }
  uint64_t blocks_cut(uint32_t frontier) const { return sum(cut_, frontier); }
  // Closes the (die, frontier)'s open block where it is (its remaining pages stay unwritten); true if one was
  // open. Block mode (ZNS: a zone's blocks hold only that zone's data).
  bool retire_frontier(uint32_t die, uint32_t frontier);
  // The same for an open block no frontier holds (a parked zone's); false for kInvalid.
  bool retire_block(uint32_t gblock);
  // A frontier's open block taken away, kept open (kInvalid if none), and given back to an empty frontier (ZNS:
  // an active zone without a stream slot keeps its open blocks). Block mode.
  uint32_t detach_frontier(uint32_t die, uint32_t frontier);
  void attach_frontier(uint32_t die, uint32_t frontier, uint32_t gblock);
  void reset_counts() {
    std::fill(opened_.begin(), opened_.end(), 0);
    std::fill(cut_.begin(), cut_.end(), 0);
    std::fill(lines_opened_.begin(), lines_opened_.end(), 0);
    std::fill(lines_cut_.begin(), lines_cut_.end(), 0);
    lines_erased_ = 0;
  }

  // Superblock mode: the free lines of the die's group.
  uint32_t free_blocks(uint32_t die) const { return lines_ ? free_lines(group_of_die(die)) : free_[die].count; }
  uint64_t total_free_blocks() const;
  uint32_t valid(uint32_t gblock) const { return blocks_[gblock].valid; }
  // Blocks closed so far, and the count when gblock last closed (power-loss recovery: a block closed after a
  // map segment's write-back may hold updates that segment's flash copy lacks).
  uint32_t close_clock() const { return close_clock_.load(std::memory_order_relaxed); }
  const std::atomic<uint32_t>* close_clock_ptr() const { return &close_clock_; }
  uint32_t closed_at(uint32_t gblock) const { return close_seq_[gblock]; }
  uint32_t pages_written(uint32_t gblock) const { return blocks_[gblock].next_page; }
  BlockState state(uint32_t gblock) const { return blocks_[gblock].state; }
  uint32_t streams() const { return streams_; }  // frontiers per die
  const FrontierLayout& layout() const { return layout_; }
  // Free blocks a die keeps for its GC frontiers: a host flush (or a map page) may open a block only while
  // the die has more than this. One per GC stream, but less than the GC threshold (PageFtl's parameters), so GC
  // runs whenever host writes cannot open a block; GC itself never needs more than one (it spills).
  uint32_t gc_reserve() const { return gc_reserve_; }
  // Could die take a page of `frontier` now, keeping `reserve` free blocks (lines)?
  bool can_allocate(uint32_t die, uint32_t frontier, uint32_t reserve) const {
    if (!frontier_full(die, frontier)) return true;
    if (!lines_) return free_[die].count > reserve;
    const uint32_t group = group_of_die(die);
    const Seq& q = seq_[size_t(group) * streams_ + frontier];  // a line another die already opened takes nothing
    return taken_[size_t(die) * streams_ + frontier] < (q.base + q.lines.size()) * depth_ ||
           free_lines_[group].size() > reserve;
  }
  void prefetch(uint32_t gblock) const { __builtin_prefetch(&blocks_[gblock], 1); }
  // Saves or loads every block's state, the free lists, frontiers, lines and the victim policies
  // (controller/snapshot).
  void snapshot(SnapshotArchive& a);
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
  struct Line {
    uint32_t valid = 0;
    uint32_t closed = 0, erased = 0;  // blocks full, blocks erased (of dies)
    BlockState state = BlockState::Free;
  };
  struct Seq {  // lines a frontier has opened in a group, oldest first; lines[i] is its (base + i)-th
    std::deque<uint32_t> lines;
    uint64_t base = 0;
    void snapshot(SnapshotArchive& a);
  };
  // The construction's steps (BlockParams).
  void enable_lines(const std::string& victim_policy, const std::string& key, uint32_t groups, uint32_t depth);
  void set_slc(SlcCache* slc);
  void set_worth(double min_invalid, uint32_t urgent);
  uint32_t die_behind(uint32_t d, uint32_t frontier) const;  // line_gc_die's: the die of d's group furthest behind
  uint32_t open_block(uint32_t die, uint32_t stream);  // kInvalid: no free block (line)
  uint32_t open_slc(uint32_t die, uint32_t stream);    // an SLC block for a user frontier, or kInvalid
  uint32_t open_line(uint32_t die, uint32_t stream);  // lines: the die's next block of the frontier's lines
  void forget_filled(uint32_t group, uint32_t stream);  // drops the lines no die still writes or has to start
  void retire_oldest(uint32_t group, uint32_t stream);
  void retire_block(uint32_t die, uint32_t stream, uint32_t gblock);  // closes it where it is (retirement)

  void close(uint32_t gblock);
  [[noreturn]] void underflow(uint32_t gblock) const;

  const Geometry& g_;
  FrontierLayout layout_;
  uint32_t streams_;
  uint32_t gc_reserve_ = 1;
  std::unique_ptr<VictimPolicy> victim_;
  SlcCache* slc_ = nullptr;  // null: no SLC cache
  std::vector<Block> blocks_;
  std::vector<uint32_t> ring_;    // free block ids (global), blocks_per_die slots per die
  std::vector<FreeRing> free_;    // per die
  std::vector<uint32_t> frontier_;  // [die * streams + stream] -> global block id or kInvalid
  std::atomic<uint64_t> total_free_{0};  // dies may be worked on by parallel fast-forward workers
  // superblock mode
  bool lines_ = false;
  uint32_t groups_ = 1, group_dies_ = 1, depth_ = 1, lines_per_group_ = 0;  // (enable_lines)
  Geometry line_g_;
  std::unique_ptr<VictimPolicy> line_victim_;
  std::vector<Line> line_;
  std::vector<uint32_t> line_id_;    // per block: its line
  std::vector<std::deque<uint32_t>> free_lines_;  // per group
  std::vector<Seq> seq_;             // per (group, frontier)
  std::vector<uint64_t> taken_;      // per (die, frontier): blocks of the frontier's sequence (of its group) it has used
  // Per group: victim lines in the order started; started_[k][i] is the group's (start_base_[k] + i)-th.
  std::vector<std::deque<uint32_t>> started_;
  std::vector<uint64_t> start_base_, line_started_;
  std::vector<uint64_t> line_taken_;  // per die: blocks of its group's started victim lines it has taken
  std::vector<uint32_t> lines_in_gc_;  // per group
  uint32_t lines_in_gc_total_ = 0;
  uint64_t retired_units_ = 0;
  std::vector<uint64_t> lines_opened_, lines_cut_;  // per (group, frontier)
  uint64_t lines_erased_ = 0;
  std::unique_ptr<GcUnit> unit_;
  std::unique_ptr<WritePointer> wp_;  // (after the lines: their groups)
  std::unique_ptr<UnitPool> pool_;    // (after the lines: the line pool reads them)
  bool pointer_moves_ = false;        // wp_->one_die(), asked once: allocate_page tells it of each page
  uint32_t worth_ = ~0u, worth_line_ = ~0u, urgent_ = 0;
  bool declined_ = false;
  uint64_t declines_ = 0;
  std::atomic<uint32_t> close_clock_{0};  // fast-forward workers close blocks of different dies concurrently
  std::vector<uint32_t> close_seq_;  // per block
  std::vector<uint64_t> opened_, cut_;  // per (die, frontier): blocks_opened, blocks_cut
  uint64_t sum(const std::vector<uint64_t>& v, uint32_t frontier) const {
    uint64_t n = 0;
    for (size_t i = frontier; i < v.size(); i += streams_) n += v[i];
    return n;
  }
};

}  // namespace ssdtlm
