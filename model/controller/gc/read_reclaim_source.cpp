// Read reclaim (reliability.*): a block read too often or too hard is relocated, whatever it holds. The reliability
// model queues such blocks as reads find them (Reliability::reclaim_due).
#include "controller/gc/victim_source.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

namespace {
class ReadReclaimSource final : public VictimSource {
 public:
  explicit ReadReclaimSource(PageFtl& ftl) : ftl_(ftl) {}
  bool wanted(uint32_t die) const override { return ftl_.reclaim_wanted(die); }
  // Reclaim frees no space: the host is not held back for it.
  bool unpaced(uint32_t die, uint32_t) const override { return ftl_.reclaim_wanted(die); }
  uint32_t take(uint32_t die) override {
    Reliability* rel = ftl_.reliability();
    if (!rel || !rel->reclaim_due(die)) return kInvalid;
    for (uint32_t b = rel->pop_reclaim(die); b != kInvalid; b = rel->pop_reclaim(die))
      if (ftl_.state().blocks().take_victim(b)) {
        rel->reclaimed();
        return b;
      }
    // Only stale entries (blocks collected or erased meanwhile): no victim unless GC or another source wants one.
    if (!ftl_.gc_needed(die) && !ftl_.victim_sources().wanted(die) && !ftl_.gc().any_staged(die)) return kNoVictim;
    return kInvalid;
  }

 private:
  PageFtl& ftl_;
};
}  // namespace

std::unique_ptr<VictimSource> make_read_reclaim_source(PageFtl& ftl) { return std::make_unique<ReadReclaimSource>(ftl); }

}  // namespace ssdtlm
