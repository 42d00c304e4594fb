// Dram's report: summary.json "dram" (docs/reference/hardware.md): what the controller DRAM moved, for whom, and how
// busy it was.
#include <nlohmann/json.hpp>

#include "controller/dram.h"

namespace ssdtlm {

nlohmann::json Dram::report(double span_ps) const {
  const DramStats& st = model_.stats();
  nlohmann::json util, bytes, accesses;
  double busy = 0;
  uint64_t all_bytes = 0, all_accesses = 0;
  for (size_t u = 0; u < size_t(DramUse::Count); ++u) {
    const char* name = dram_use_name(DramUse(u));
    util[name] = span_ps > 0 ? double(st.busy_ps[u]) / span_ps : 0.0;
    bytes[name] = st.bytes[u];
    accesses[name] = st.accesses[u];
    busy += double(st.busy_ps[u]);
    all_bytes += st.bytes[u];
    all_accesses += st.accesses[u];
  }
  util["total"] = span_ps > 0 ? busy / span_ps : 0.0;
  bytes["total"] = all_bytes;
  accesses["total"] = all_accesses;
  return {{"bandwidth_mbps", p_.bytes_per_s() / 1e6},
          {"latency_ns", double(p_.latency_ps) / 1e3},
          {"utilization", util},
          {"bytes", bytes},
          {"accesses", accesses},
          {"mean_wait_ns", all_accesses ? double(st.wait_ps) / 1e3 / double(all_accesses) : 0.0}};
}

}  // namespace ssdtlm
