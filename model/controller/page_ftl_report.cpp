// PageFtl's report: the drive state's part of summary.json, each engine's object from the engine itself.
#include <nlohmann/json.hpp>

#include "controller/page_ftl.h"
#include "controller/placement/fdp.h"

namespace ssdtlm {

nlohmann::json PageFtl::report(double host_bytes, uint64_t now_ps) const {
  const double page_bytes = double(g_.units_per_page) * kUnitBytes;
  const bool slc = slc_ != nullptr;  // the fold counts only with the cache, so other summaries stand
  nlohmann::json r = {{"nand", counters_.nand_report(page_bytes, slc)},
                      {"waf", counters_.waf_report(page_bytes, host_bytes, slc)},
                      {"ftl",
                       {{"alpha", alpha()},
                        {"gc_unit", blocks_.lines() ? "superblock" : "block"},
                        {"line_retired_units", blocks_.retired_units()},
                        {"gc_declined_victims", blocks_.declines()},
                        {"free_blocks", blocks_.total_free_blocks()}}}};
  if (rel_) r["reliability"] = rel_->report(now_ps);
  if (wl_) r["wear_level"] = wl_->report();
  if (slc_) {
    std::vector<uint32_t> free(g_.dies);
    for (uint32_t d = 0; d < g_.dies; ++d) free[d] = blocks_.free_blocks(d);
    r["slc"] = slc_->report(counters_, free);
  }
  if (streams_->params().fdp) r["fdp"] = fdp_report(*this);
  if (const ZnsNamespace* z = streams_->zns()) {
    r["zns"] = z->report();
    r["zns"]["gc_units_moved"] = counters_.gc_units_moved;
  }
  return r;
}

}  // namespace ssdtlm
