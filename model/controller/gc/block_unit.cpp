// ftl.gc_unit=block: each die is its own block pool, a victim is one block of a die, collected per die
// (gc_unit.h).
#include <algorithm>

#include "controller/block_manager.h"
#include "controller/gc/gc_unit.h"

namespace ssdtlm {

namespace {
class BlockUnit final : public GcUnit {
 public:
  const char* name() const override { return "block"; }
  void shape(BlockParams& b, uint32_t gc_free_blocks) const override {
    // A free block per GC stream, but fewer than the GC threshold: GC runs whenever host writes cannot open one.
    b.gc_reserve = std::max<uint32_t>(1, std::min<uint32_t>(b.layout.gc, gc_free_blocks - 1));
  }
  bool short_of_free(const BlockManager& b, uint32_t die, uint32_t pending, uint32_t threshold) const override {
    return b.free_blocks(die) + pending < threshold;
  }
};
}  // namespace

std::unique_ptr<GcUnit> make_block_unit(const UnitConfig&) { return std::make_unique<BlockUnit>(); }

}  // namespace ssdtlm
