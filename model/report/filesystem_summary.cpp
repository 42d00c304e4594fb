// The "filesystem" object of summary.json (workload.filesystem=ext4, workload/filesystem/): what the jobs'
// file system sent in the timed run, by kind. Absent when no job runs on a file system.
#include "report/summary.h"
#include "workload/filesystem/ext4_workload.h"

namespace ssdtlm {

nlohmann::json filesystem_summary(Platform& p) {
  FsCounters sum;
  size_t jobs = 0;
  for (size_t j = 0; j < p.host().jobs(); ++j)
    if (auto* w = dynamic_cast<const Ext4Workload*>(p.host().job(j).workload)) {
      const FsCounters& c = w->counters();
      sum.data_bytes += c.data_bytes;
      sum.data_read_bytes += c.data_read_bytes;
      sum.metadata_bytes += c.metadata_bytes;
      sum.journal_bytes += c.journal_bytes;
      sum.commits += c.commits;
      sum.checkpoints += c.checkpoints;
      sum.split_requests += c.split_requests;
      ++jobs;
    }
  if (!jobs) return nullptr;
  const uint64_t written = sum.data_bytes + sum.metadata_bytes + sum.journal_bytes;
  return {{"type", "ext4"},
          {"jobs", jobs},
          {"data_bytes", sum.data_bytes},
          {"data_read_bytes", sum.data_read_bytes},
          {"metadata_bytes", sum.metadata_bytes},
          {"journal_bytes", sum.journal_bytes},
          {"overhead_share", written ? double(sum.metadata_bytes + sum.journal_bytes) / double(written) : 0.0},
          {"commits", sum.commits},
          {"checkpoints", sum.checkpoints},
          {"split_requests", sum.split_requests}};
}

}  // namespace ssdtlm
