// Read reclaim (reliability.*): a block read too often or too hard is relocated, whatever it holds. The reliability
// model queues such blocks as reads find them (Reliability::reclaim_due).
#include "controller/gc/victim_source.h"
#include "controller/drive_state.h"
#include "flash/reliability/reliability.h"

namespace ssdtlm {

namespace {
class ReadReclaimSource final : public VictimSource {
 public:
  explicit ReadReclaimSource(const VictimSourceContext& ctx) : ctx_(ctx) {}
  bool wanted(uint32_t die) const override { return ctx_.reliability && ctx_.reliability->reclaim_due(die); }
  // Reclaim frees no space: the host is not held back for it.
  bool unpaced(uint32_t die, uint32_t) const override { return wanted(die); }
  uint32_t take(uint32_t die, bool gc_staged) override {
    Reliability* rel = ctx_.reliability;
    if (!rel || !rel->reclaim_due(die)) return kInvalid;
    for (uint32_t b = rel->pop_reclaim(die); b != kInvalid; b = rel->pop_reclaim(die))
      if (ctx_.state.blocks().take_victim(b)) {
        rel->reclaimed();
        return b;
      }
    // Only stale entries (blocks collected or erased meanwhile): no victim unless GC or another source wants one.
    if (!ctx_.gc_needed(die) && !ctx_.chain.wanted(die) && !gc_staged) return kNoVictim;
    return kInvalid;
  }

 private:
  VictimSourceContext ctx_;
};
}  // namespace

std::unique_ptr<VictimSource> make_read_reclaim_source(const VictimSourceContext& ctx) {
  return std::make_unique<ReadReclaimSource>(ctx);
}

}  // namespace ssdtlm
