// Reliability's report: summary.json "reliability" (docs/reference/reliability.md).
#include <nlohmann/json.hpp>

#include "flash/reliability/reliability.h"

namespace ssdtlm {

nlohmann::json Reliability::report(uint64_t now_ps) const {
  const ReliabilityCounters& k = counters_;
  return {{"reads", k.reads},
          {"retries", k.retries},
          {"retry_reads", k.retry_reads},
          {"soft_decodes", k.soft_decodes},
          {"uncorrectable", k.uncorrectable},
          {"reclaimed_blocks", k.reclaimed_blocks},
          {"decode_s", double(k.decode_ps) / 1e12},
          {"max_rber", k.max_rber},
          {"initial_pe_cycles", model_.params().initial_pe},
          {"retention_days", model_.params().retention_hours / 24},
          {"temp_c", temp_c_},                  // the drive's temperature the data aged at last
          {"run_aged_h", aged_hours(now_ps)}};  // the run's hours at reliability.rber_temp_c
}

}  // namespace ssdtlm
