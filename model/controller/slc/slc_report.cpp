// SlcCache's report: summary.json "slc" (docs/reference/nand.md): what the SLC cache took, folded and let through
// over the timed run, and its size at the end.
#include <nlohmann/json.hpp>

#include "common/units.h"
#include "controller/flash_counters.h"
#include "controller/slc/slc_cache.h"

namespace ssdtlm {

nlohmann::json SlcCache::report(const FlashCounters& f, const std::vector<uint32_t>& free_per_die) const {
  uint64_t blocks_in_use = 0;
  for (uint32_t n : in_use_) blocks_in_use += n;
  return {{"mode", p_.mode == SlcMode::Static ? "static" : "dynamic"},
          {"host_bytes", f.slc_host_units * kUnitBytes},
          {"folded_bytes", f.slc_folded_units * kUnitBytes},
          {"direct_bytes", f.slc_direct_units * kUnitBytes},
          {"fold_programs", f.fold_programs},
          {"fold_reads", f.fold_reads},
          {"folds", counters_.folds},
          {"blocks_in_use", blocks_in_use},
          {"capacity_bytes", capacity_units(free_per_die) * kUnitBytes},
          {"block_bytes", uint64_t(slc_pages_) * g_.units_per_page * kUnitBytes}};
}

}  // namespace ssdtlm
