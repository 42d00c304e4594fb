// SLC folding (slc.*, slc/slc_cache.h): the oldest full SLC block is folded into TLC/QLC when folding is due (an idle
// host, or a full cache), or when GC needs a victim and (dynamic cache, whose SLC blocks come from the free pool) it
// holds no more valid units than the best TLC/QLC victim.
#include "controller/gc/victim_source.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

namespace {
class SlcFoldSource final : public VictimSource {
 public:
  explicit SlcFoldSource(PageFtl& ftl) : ftl_(ftl) {}
  bool wanted(uint32_t die) const override { return ftl_.fold_wanted(die); }
  // A fold not needed for free blocks paces no host write (the SLC blocks it frees gate them instead).
  bool unpaced(uint32_t, uint32_t victim) const override { return ftl_.state().blocks().is_slc(victim); }
  uint32_t take(uint32_t die) override {
    const SlcCache* slc = ftl_.slc();
    if (!slc || !slc->has_full(die)) return kInvalid;
    BlockManager& blocks = ftl_.state().blocks();
    bool fold = ftl_.fold_wanted(die);
    if (!fold && ftl_.gc_needed(die) && slc->dynamic()) {
      const uint32_t best = blocks.peek_victim(die);
      fold = best == kInvalid || blocks.valid(slc->oldest_full(die)) <= blocks.valid(best);
    }
    if (!fold) return kInvalid;
    const uint32_t v = blocks.pick_slc_victim(die);
    return v == kInvalid ? kNoVictim : v;  // a fold is due but no SLC block can be taken now: no victim at all
  }

 private:
  PageFtl& ftl_;
};
}  // namespace

std::unique_ptr<VictimSource> make_slc_fold_source(PageFtl& ftl) { return std::make_unique<SlcFoldSource>(ftl); }

}  // namespace ssdtlm
