// Static wear levelling (ftl.wear_level_spread, wear_level.h): the least-erased full block's cold data moves so the
// block takes new data. Collected and paced like a GC victim, timed and fast-forward alike.
#include "controller/gc/victim_source.h"
#include "controller/drive_state.h"
#include "controller/gc/wear_level.h"

namespace ssdtlm {

namespace {
class WearLevelSource final : public VictimSource {
 public:
  explicit WearLevelSource(const VictimSourceContext& ctx) : ctx_(ctx) {}
  bool wanted(uint32_t die) const override { return ctx_.wear_level && wear_level_candidate(ctx_, die) != kInvalid; }
  // (free blocks are not short: gc_needed comes first)
  bool wanted_now(uint32_t die) const override { return wanted(die); }
  uint32_t take(uint32_t die, bool) override {
    WearLevel* wl = ctx_.wear_level;
    if (!wl) return kInvalid;
    const uint32_t b = wear_level_candidate(ctx_, die);
    if (b == kInvalid || !ctx_.state.blocks().take_victim(b)) return kInvalid;
    wl->relocating(die, b);
    return b;
  }

 private:
  VictimSourceContext ctx_;
};
}  // namespace

std::unique_ptr<VictimSource> make_wear_level_source(const VictimSourceContext& ctx) {
  return std::make_unique<WearLevelSource>(ctx);
}

uint32_t wear_level_candidate(const VictimSourceContext& ctx, uint32_t die) {
  if (!ctx.wear_level || ctx.gc_needed(die)) return kInvalid;  // free blocks first
  const BlockManager& b = ctx.state.blocks();
  return ctx.wear_level->candidate(die, [&](uint32_t blk) { return b.state(blk) == BlockState::Full && !b.is_slc(blk); });
}

}  // namespace ssdtlm
