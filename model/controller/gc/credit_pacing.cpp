// ftl.gc_pacing=credit: a collecting die takes host pages in proportion to the space its victims free. Each unit
// relocated earns (Np - v) / v units of host writes (the victim's invalid per valid units, in pages), so host writes
// and GC progress in the proportion the victim frees space and the die's free blocks hold steady.
#include <algorithm>

#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_pacing.h"

namespace ssdtlm {

namespace {
class CreditPacing final : public GcPacing {
 public:
  void begin_victim(GcDie& job, double ratio) const override {
    job.ratio = ratio;
    job.credit = std::max(job.credit, 1.0);
  }
};
}  // namespace

std::unique_ptr<GcPacing> make_credit_pacing(uint32_t) { return std::make_unique<CreditPacing>(); }

}  // namespace ssdtlm
