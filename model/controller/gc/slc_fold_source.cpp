// SLC folding (slc.*, slc/slc_cache.h): the oldest full SLC block is folded into TLC/QLC when folding is due (an idle
// host, or a full cache), or when GC needs a victim and (dynamic cache, whose SLC blocks come from the free pool) it
// holds no more valid units than the best TLC/QLC victim.
#include "controller/gc/victim_source.h"
#include "controller/drive_state.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm {

namespace {
class SlcFoldSource final : public VictimSource {
 public:
  explicit SlcFoldSource(const VictimSourceContext& ctx) : ctx_(ctx) {}
  // Should the die fold an SLC block now (idle host, or a full cache)?
  bool wanted(uint32_t die) const override {
    return ctx_.slc && ctx_.slc->fold_wanted(die, ctx_.state.blocks().free_blocks(die));
  }
  // A fold not needed for free blocks paces no host write (the SLC blocks it frees gate them instead).
  bool unpaced(uint32_t, uint32_t victim) const override { return ctx_.state.blocks().is_slc(victim); }
  uint32_t take(uint32_t die, bool) override {
    const SlcCache* slc = ctx_.slc;
    if (!slc || !slc->has_full(die)) return kInvalid;
    BlockManager& blocks = ctx_.state.blocks();
    bool fold = wanted(die);
    if (!fold && ctx_.gc_needed(die) && slc->dynamic()) {
      const uint32_t best = blocks.peek_victim(die);
      fold = best == kInvalid || blocks.valid(slc->oldest_full(die)) <= blocks.valid(best);
    }
    if (!fold) return kInvalid;
    const uint32_t v = blocks.pick_slc_victim(die);
    return v == kInvalid ? kNoVictim : v;  // a fold is due but no SLC block can be taken now: no victim at all
  }

 private:
  VictimSourceContext ctx_;
};
}  // namespace

std::unique_ptr<VictimSource> make_slc_fold_source(const VictimSourceContext& ctx) {
  return std::make_unique<SlcFoldSource>(ctx);
}

}  // namespace ssdtlm
