// PageFtl's report: the drive state's part of summary.json, each engine's object from the engine itself.
#include <nlohmann/json.hpp>

#include "controller/page_ftl.h"
#include "controller/placement/fdp.h"

namespace ssdtlm {

nlohmann::json PageFtl::report(double host_bytes, uint64_t now_ps) const {
  const double page_bytes = double(g_.units_per_page) * kUnitBytes;
  const bool slc = slc_ != nullptr;  // the fold counts only with the cache, so other summaries stand
  nlohmann::json r = {{"nand", state_.counters().nand_report(page_bytes, slc)},
                      {"waf", state_.counters().waf_report(page_bytes, host_bytes, slc)},
                      {"ftl",
                       {{"alpha", alpha()},
                        {"gc_unit", state_.blocks().unit().name()},
                        {"line_retired_units", state_.blocks().retired_units()},
                        {"gc_declined_victims", state_.blocks().declines()},
                        {"free_blocks", state_.blocks().total_free_blocks()}}}};
  if (rel_) r["reliability"] = rel_->report(now_ps);
  if (wl_) r["wear_level"] = wl_->report();
  if (slc_) {
    std::vector<uint32_t> free(g_.dies);
    for (uint32_t d = 0; d < g_.dies; ++d) free[d] = state_.blocks().free_blocks(d);
    r["slc"] = slc_->report(state_.counters(), free);
  }
  if (streams_->params().fdp) r["fdp"] = fdp_report(state_, *streams_, victims_.relocated_lines());
  if (const ZnsNamespace* z = streams_->zns()) {
    r["zns"] = z->report();
    r["zns"]["gc_units_moved"] = state_.counters().gc_units_moved;
  }
  return r;
}

}  // namespace ssdtlm
