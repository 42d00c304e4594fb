#include "host/workload_factory.h"

#include <stdexcept>

#include "common/config.h"
#include "flash/geometry.h"
#include "host/synthetic_workload.h"

namespace ssdtlm {

std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition) {
  SyntheticSpec s;
  s.pattern = c.s("workload.pattern");
  s.read_fraction = for_precondition ? 0.0 : c.d("workload.read_fraction");
  s.distribution = c.s("workload.distribution");
  s.random_map = c.b("workload.random_map");
  s.block_bytes = uint32_t(c.i("workload.block_bytes"));
  s.range_bytes = c.u("workload.address_range") ? c.u("workload.address_range") : logical_bytes;
  s.io_count = for_precondition ? 0 : c.u("workload.io_count");
  s.seed = uint64_t(c.i("sim.seed")) * 2 + (for_precondition ? 1 : 0);
  if (s.block_bytes % kUnitBytes)
    throw ConfigError("key 'workload.block_bytes': expected a multiple of 4096 (sub-page requests are not modelled yet), got " +
                      std::to_string(s.block_bytes));
  if (s.range_bytes > logical_bytes)
    throw ConfigError("key 'workload.address_range': expected at most the logical capacity " +
                      std::to_string(logical_bytes) + " bytes, got " + std::to_string(s.range_bytes));
  if (s.range_bytes < s.block_bytes)
    throw ConfigError("key 'workload.address_range': expected at least workload.block_bytes (" +
                      std::to_string(s.block_bytes) + "), got " + std::to_string(s.range_bytes));
  try {
    return std::make_unique<SyntheticWorkload>(s);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("workload: ") + e.what());
  }
}

}  // namespace ssdtlm
