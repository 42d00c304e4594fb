// The unit pool of lines (ftl.gc_unit=superblock, FDP's reclaim units; unit_pool.h): a unit is a line of `depth`
// blocks on every die of a group of consecutive dies (block_manager.h, "Superblock mode"); a victim line is started
// for its group and each die collects its blocks of it; a die a whole line ahead in a frontier's open lines sends
// host pages and GC copies to a die behind (BlockManager::line_ahead, line_gc_die).
#include <stdexcept>

#include "controller/block_manager.h"
#include "controller/gc/unit_pool.h"

namespace ssdtlm {

namespace {
class LinePool final : public UnitPool {
 public:
  explicit LinePool(BlockManager& b) : UnitPool(true), b_(b) {}
  void unit_dies(uint32_t die, uint32_t* first, uint32_t* last) const override {
    const uint32_t per = b_.dies() / b_.line_groups();
    *first = b_.group_of_die(die) * per;
    *last = *first + per;
  }
  uint32_t blocks_per_die() const override { return b_.line_depth(); }
  uint32_t unit_blocks() const override { return b_.line_blocks(); }
  bool start_victim(uint32_t die) override { return b_.start_line(b_.group_of_die(die)); }
  uint32_t next_victim_block(uint32_t die) override { return b_.next_line_block(die); }
  uint32_t units_in_gc(uint32_t die) const override { return b_.lines_in_gc(b_.group_of_die(die)); }
  uint32_t free_units(uint32_t die) const override { return b_.free_lines(b_.group_of_die(die)); }
  uint32_t unit_of(uint32_t gblock) const override { return b_.line_of(gblock); }
  uint32_t unit_valid(uint32_t unit) const override { return b_.line_valid(unit); }
  bool ahead(uint32_t die, uint32_t frontier) const override { return b_.line_ahead(die, frontier); }
  uint32_t gc_copy_die(uint32_t d, uint32_t frontier) const override { return b_.line_gc_die(d, frontier); }

 private:
  bool spanning_victim_pending(uint32_t die) const override { return b_.line_pending(die); }
  uint32_t spanning_units_in_gc() const override { return b_.lines_in_gc(); }
  BlockManager& b_;
};
}  // namespace

std::unique_ptr<UnitPool> make_line_pool(BlockManager& b) {
  if (!b.lines()) throw std::logic_error("the line pool needs the block manager's lines (BlockParams::lines)");
  return std::make_unique<LinePool>(b);
}

}  // namespace ssdtlm
