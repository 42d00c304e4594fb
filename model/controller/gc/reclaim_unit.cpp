// FDP's reclaim units (fdp.enabled; docs/reference/placement.md): lines of `depth` blocks on every die of each of
// `groups` reclaim groups, each written by one write pointer per frontier over its group's dies (striped), so a
// reclaim unit handle has one open RU per group; a victim RU relocates into one GC frontier (its RUH's, or the
// shared one), so host writes leave one free RU per group for GC (gc_unit.h, block_manager.h).
#include "controller/block_manager.h"
#include "controller/gc/gc_unit.h"

namespace ssdtlm {

namespace {
class ReclaimUnit final : public GcUnit {
 public:
  explicit ReclaimUnit(const UnitConfig& c) : GcUnit(true), c_(c) {}
  const char* name() const override { return "reclaim_units"; }
  void shape(BlockParams& b, uint32_t) const override {
    b.lines = true;
    b.pool = make_line_pool;
    b.line_victim = c_.victim;
    b.line_victim_key = c_.victim_key;
    b.line_groups = c_.groups;
    b.line_depth = c_.depth;
    b.gc_reserve = 1;
    b.write_pointer = make_striped_pointer;  // whatever ftl.write_pointer says
  }
  // Free RUs and RUs being reclaimed, of the die's reclaim group.
  bool short_of_free(const BlockManager& b, uint32_t die, uint32_t, uint32_t threshold) const override {
    return b.pool().free_units(die) + b.pool().units_in_gc(die) < threshold;
  }
  bool shared_by_group() const override { return true; }

 private:
  // The RU's write pointer's die, of the die's reclaim group (the timed flush scheduler picked that die already).
  uint32_t placed_die(const BlockManager& b, uint32_t die, uint32_t frontier) const override {
    return b.write_pointer().next_die(frontier, b.group_of_die(die));
  }
  UnitConfig c_;
};
}  // namespace

std::unique_ptr<GcUnit> make_reclaim_unit(const UnitConfig& c) { return std::make_unique<ReclaimUnit>(c); }

}  // namespace ssdtlm
