// The workloads' own objects of summary.json. Each job's workload reports what it counted (Workload::report: the
// file system's, the capture's, the app's, the trace fit's); here the jobs' objects are combined: "filesystem"
// summed over the jobs on a file system, "capture" one per job (the object itself for one), "app" the first app's,
// and the host's "trace" ("traces" for several) with "folded_requests".
#include "report/summary.h"

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

}  // namespace

WorkloadObjects workload_objects(Platform& p) {
  WorkloadObjects w;
  nlohmann::json filesystems = nlohmann::json::array(), captures = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    const Workload* wl = p.host().job(j).workload;
    if (!wl) continue;
    nlohmann::json mine = nlohmann::json::object();
    wl->report(mine);
    if (mine.contains("filesystem")) filesystems.push_back(mine["filesystem"]);
    if (mine.contains("capture")) {
      mine["capture"]["job"] = j;
      captures.push_back(mine["capture"]);
    }
    if (mine.contains("app") && w.app.is_null()) w.app = mine["app"];
    if (mine.contains("trace")) {
      const nlohmann::json& t = mine["trace"];
      if (t["fit_applied"] == "wrap") w.folded_requests += t["refitted_requests"].get<uint64_t>();
      w.traces.push_back(t);
    }
  }
  if (!filesystems.empty()) w.filesystem = filesystem_json(filesystems);
  if (captures.size() == 1) w.capture = captures[0];
  if (captures.size() > 1) w.capture = {{"jobs", captures}};
  return w;
}

}  // namespace ssdtlm
