// Static wear levelling (ftl.wear_level_spread, wear_level.h): the least-erased full block's cold data moves so the
// block takes new data. Collected and paced like a GC victim, timed and fast-forward alike.
#include "controller/gc/victim_source.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

namespace {
class WearLevelSource final : public VictimSource {
 public:
  explicit WearLevelSource(PageFtl& ftl) : ftl_(ftl) {}
  bool wanted(uint32_t die) const override { return ftl_.wear_level_wanted(die); }
  // (free blocks are not short: gc_needed comes first)
  bool wanted_now(uint32_t die) const override { return ftl_.wear_level_wanted(die); }
  uint32_t take(uint32_t die) override {
    WearLevel* wl = ftl_.wear_level();
    if (!wl) return kInvalid;
    const uint32_t b = ftl_.wear_level_candidate(die);
    if (b == kInvalid || !ftl_.state().blocks().take_victim(b)) return kInvalid;
    wl->relocating(die, b);
    return b;
  }

 private:
  PageFtl& ftl_;
};
}  // namespace

std::unique_ptr<VictimSource> make_wear_level_source(PageFtl& ftl) { return std::make_unique<WearLevelSource>(ftl); }

}  // namespace ssdtlm
