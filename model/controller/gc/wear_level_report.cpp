// WearLevel's report: summary.json "wear_level" (ftl.wear_level_spread).
#include <nlohmann/json.hpp>

#include "controller/gc/wear_level.h"

namespace ssdtlm {

nlohmann::json WearLevel::report() const {
  uint32_t most = 0, least = ~0u;
  for (uint32_t d = 0; d < max_.size(); ++d) {
    most = std::max(most, max_erases(d));
    least = std::min(least, min_erases(d));
  }
  return {{"spread_threshold", threshold()},
          {"relocated_blocks", relocated_blocks()},
          {"max_die_spread", max_spread()},
          {"max_block_erases", most},
          {"min_block_erases", least}};
}

}  // namespace ssdtlm
