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
// The "filesystem" object (workload.filesystem=ext4), null when no job uses one (filesystem_summary.cpp).
nlohmann::json filesystem_summary(Platform& p);
// The "capture" object (workload.trace_format=capture), null without a capture replay (capture_summary.cpp).
nlohmann::json capture_summary(Platform& p);
// The "page_cache" object (workload.buffered), null when no job goes through it (page_cache_summary.cpp).
nlohmann::json page_cache_summary(Platform& p);
// The "app" object (workload.pattern=app): the app's writes and, with workload.app.placement=zns, its zones,
// resets and host-side zone GC per lifetime class (app_summary.cpp); null when no job runs an app.
nlohmann::json app_summary(Platform& p);
std::string latency_cdf_csv(const HostStats& h);
// summary.json's latency object of a histogram: count, min, mean, stddev, p50 ... p9999, max (us).
nlohmann::json latency_json(const Histogram& h);
// A few lines for the terminal.
std::string summary_text(const nlohmann::json& s);

}  // namespace ssdtlm
