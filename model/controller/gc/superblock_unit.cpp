// ftl.gc_unit=superblock: a line of the same block on every die is the unit of allocation and of GC (FEMU bbssd's
// line: femu/hw/femu/bbssd/ftl.c, ssd_init_lines and get_next_free_line), written by each frontier over all dies
// and collected whole; one victim line at a time (gc_unit.h, block_manager.h).
#include "controller/block_manager.h"
#include "controller/gc/gc_unit.h"

namespace ssdtlm {

namespace {
class SuperblockUnit final : public GcUnit {
 public:
  explicit SuperblockUnit(const UnitConfig& c) : c_(c) {}
  const char* name() const override { return "superblock"; }
  void shape(BlockParams& b, uint32_t) const override {
    b.lines = true;
    b.pool = make_line_pool;
    b.line_victim = c_.victim;
    b.line_victim_key = c_.victim_key;
    b.gc_reserve = b.layout.gc;  // host writes leave a free line per GC stream (the GC threshold exceeds it)
  }
  // Free lines and lines being collected, of the die's group.
  bool short_of_free(const BlockManager& b, uint32_t die, uint32_t, uint32_t threshold) const override {
    return b.pool().free_units(die) + b.pool().units_in_gc(die) < threshold;
  }

 private:
  UnitConfig c_;
};
}  // namespace

std::unique_ptr<GcUnit> make_superblock_unit(const UnitConfig& c) { return std::make_unique<SuperblockUnit>(c); }

}  // namespace ssdtlm
