// The workloads' own objects of summary.json. Each job's workload reports what it counted (Workload::report: the
// file system's, the capture's, the page cache's, the app's, the trace fit's); here the jobs' objects are combined:
// "filesystem" summed over the jobs on a file system, "capture" and "page_cache" one per job (the object itself for
// one), "app" the first app's, and the host's "trace" ("traces" for several) with "folded_requests".
#include "report/summary.h"

#include "config/choices.h"

namespace ssdtlm {

namespace {

// The "filesystem" object from the jobs' counters: their sums and the share the file system added.
nlohmann::json filesystem_json(const nlohmann::json& jobs) {
  static const char* const kSummed[] = {"data_bytes", "data_read_bytes", "metadata_bytes", "journal_bytes",
                                        "commits",    "checkpoints",     "split_requests"};
  nlohmann::json fs = {{"type", "ext4"}, {"jobs", jobs.size()}};
  for (const char* key : kSummed) {
    uint64_t sum = 0;
    for (const nlohmann::json& j : jobs) sum += j[key].get<uint64_t>();
    fs[key] = sum;
  }
  const uint64_t extra = fs["metadata_bytes"].get<uint64_t>() + fs["journal_bytes"].get<uint64_t>();
  const uint64_t written = fs["data_bytes"].get<uint64_t>() + extra;
  fs["overhead_share"] = written ? double(extra) / double(written) : 0.0;
  return fs;
}

// One object per job that has one, each with its job's index: the object itself for one job, else {"jobs": [...]}.
nlohmann::json per_job(const nlohmann::json& jobs) {
  if (jobs.empty()) return nullptr;
  return jobs.size() == 1 ? jobs[0] : nlohmann::json{{"jobs", jobs}};
}

}  // namespace

WorkloadObjects workload_objects(Platform& p) {
  WorkloadObjects w;
  nlohmann::json filesystems = nlohmann::json::array(), captures = nlohmann::json::array(),
                 caches = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    const Workload* wl = p.host().job(j).workload;
    if (!wl) continue;
    nlohmann::json mine = nlohmann::json::object();
    wl->report(mine);
    if (mine.contains("filesystem")) filesystems.push_back(mine["filesystem"]);
    for (auto [key, list] : {std::pair{"capture", &captures}, std::pair{"page_cache", &caches}})
      if (mine.contains(key)) {
        mine[key]["job"] = j;
        list->push_back(mine[key]);
      }
    if (mine.contains("app") && w.app.is_null()) w.app = mine["app"];
    if (mine.contains("trace")) {
      const nlohmann::json& t = mine["trace"];
      // the fit applied, as workload.trace_fit names it (trace_fit.cpp: FittedTrace::report)
      const std::string applied = t["fit_applied"].get<std::string>();
      if (parse_choice(choices::kWorkloadTraceFit, applied, "workload.trace_fit") == TraceFitMode::Wrap)
        w.folded_requests += t["refitted_requests"].get<uint64_t>();
      w.traces.push_back(t);
    }
  }
  if (!filesystems.empty()) w.filesystem = filesystem_json(filesystems);
  w.capture = per_job(captures);
  w.page_cache = per_job(caches);
  return w;
}

}  // namespace ssdtlm
