// ftl.gc_pacing=gc_first (FEMU bbssd's FTL thread, which collects a whole line before it serves the next request): no
// die takes host writes while a victim line is not yet erased, and with at least ftl.gc_urgent_free_blocks free lines
// a new line waits for a host write since the last one started (one background do_gc per request). Needs
// ftl.gc_unit=superblock (validation.cpp).
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_pacing.h"

namespace ssdtlm {

namespace {
class GcFirstPacing final : public GcPacing {
 public:
  explicit GcFirstPacing(uint32_t urgent_lines) : urgent_lines_(urgent_lines) {}
  void begin_victim(GcDie& job, double) const override { job.ratio = job.credit = 0.0; }  // until the job ends
  bool lines_hold_host() const override { return true; }
  bool line_waits_for_host(uint32_t free_lines) const override { return free_lines >= urgent_lines_; }

 private:
  uint32_t urgent_lines_;
};
}  // namespace

std::unique_ptr<GcPacing> make_gc_first_pacing(uint32_t urgent_lines) {
  return std::make_unique<GcFirstPacing>(urgent_lines);
}

}  // namespace ssdtlm
