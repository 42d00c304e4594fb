// The "slc" object of summary.json (docs/reference/nand.md): what the SLC cache took, folded and let through, over the
// timed run, and its size at the end.
#include "controller/page_ftl.h"
#include "report/summary.h"

namespace ssdtlm {

nlohmann::json slc_summary(Platform& p) {
  PageFtl& ftl = p.ftl().page_ftl();
  const SlcCache& slc = *ftl.slc();
  const FlashCounters& f = ftl.counters();
  const Geometry& g = ftl.geometry();
  std::vector<uint32_t> free(g.dies);
  for (uint32_t d = 0; d < g.dies; ++d) free[d] = ftl.blocks().free_blocks(d);
  uint64_t in_use = 0;
  for (uint32_t d = 0; d < g.dies; ++d) in_use += slc.in_use(d);
  const SlcParams& sp = slc.params();
  return {{"mode", sp.mode == SlcMode::Static ? "static" : "dynamic"},
          {"host_bytes", f.slc_host_units * kUnitBytes},
          {"folded_bytes", f.slc_folded_units * kUnitBytes},
          {"direct_bytes", f.slc_direct_units * kUnitBytes},
          {"fold_programs", f.fold_programs},
          {"fold_reads", f.fold_reads},
          {"folds", slc.counters().folds},
          {"blocks_in_use", in_use},
          {"capacity_bytes", slc.capacity_units(free) * kUnitBytes},
          {"block_bytes", uint64_t(slc.slc_pages()) * g.units_per_page * kUnitBytes}};
}

}  // namespace ssdtlm
