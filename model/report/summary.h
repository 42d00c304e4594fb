// summary.json and latency_cdf.csv from a finished run: every figure computed from simulated events.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "controller/power_loss/power_loss.h"
#include "controller/precondition.h"
#include "sim/platform.h"

namespace ssdtlm {

nlohmann::json make_summary(Platform& p, const PreconditionResult& pre, double wall_s);
// The drive's state at the start of the timed run, in words (summary.json precondition.state).
std::string drive_state(const PreconditionResult& pre);
// zones.csv (Report Zones at the end of the run, as nvme zns report-zones lists them): a zone per line, its start
// LBA, capacity and write pointer in bytes, its state and the flash blocks it holds; "" without zns.enabled.
std::string zns_zones_csv(Platform& p);
// The "recovery" object: power losses and recoveries, each and in total (recovery_summary.cpp).
nlohmann::json recovery_summary(const std::vector<RecoveryReport>& rs, size_t scheduled);
// The workloads' own objects, the jobs' combined (workload_summary.cpp): "filesystem" (workload.filesystem=ext4),
// "capture" (workload.trace_format=capture), "page_cache" (workload.buffered), "app" (workload.pattern=app), each
// null when no job has one; the
// host's trace fits (one per trace job) and the requests folded onto the device by the fit "wrap".
struct WorkloadObjects {
  nlohmann::json filesystem, capture, page_cache, app;
  nlohmann::json traces = nlohmann::json::array();
  uint64_t folded_requests = 0;
};
WorkloadObjects workload_objects(Platform& p);
std::string latency_cdf_csv(const HostStats& h);
// summary.json's latency object of a histogram: count, min, mean, stddev, p50 ... p9999, max (us).
nlohmann::json latency_json(const Histogram& h);
// A few lines for the terminal.
std::string summary_text(const nlohmann::json& s);

}  // namespace ssdtlm
