// The "capture" object of summary.json (workload.trace_format=capture, workload/filesystem/capture_replay.h): what
// the captured program did and what the file system sent for it, for the timed run. Absent without a capture.
#include "report/summary.h"
#include "workload/filesystem/capture_replay.h"

namespace ssdtlm {

nlohmann::json capture_summary(Platform& p) {
  nlohmann::json jobs = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    const auto* w = dynamic_cast<const CaptureWorkload*>(p.host().job(j).workload);
    if (!w) continue;
    const CaptureCounters& c = w->counters();
    jobs.push_back({{"job", j},
                    {"records", c.records},
                    {"processes", c.processes},
                    {"writes", c.writes},
                    {"write_bytes", c.write_bytes},
                    {"reads", c.reads},
                    {"read_bytes", c.read_bytes},
                    {"distinct_pcs", w->distinct_pcs()},
                    {"distinct_pcs_issued", w->distinct_pcs_issued()},
                    {"fsyncs", c.fsyncs},
                    {"sync_writes", c.sync_writes},
                    {"hints", c.hints},
                    {"direct_write_bytes", c.direct_write_bytes},
                    {"cache_read_bytes", c.cache_read_bytes},
                    {"unwritten_read_bytes", c.unwritten_read_bytes},
                    {"data_bytes", c.data_bytes},
                    {"data_read_bytes", c.data_read_bytes},
                    {"rmw_read_bytes", c.rmw_read_bytes},
                    {"flusher_bytes", c.flusher_bytes},
                    {"sync_bytes", c.sync_bytes},
                    {"journal_bytes", c.journal_bytes},
                    {"metadata_bytes", c.metadata_bytes},
                    {"trim_bytes", c.trim_bytes},
                    {"commits", c.commits},
                    {"checkpoints", c.checkpoints},
                    {"layout_files", c.layout_files},
                    {"layout_bytes", c.layout_bytes},
                    {"unseen",
                     {{"shared_writable_mmaps", c.unseen_mmap},
                      {"stdio_write_bytes", c.unseen_stdio_bytes},
                      {"io_uring_setups", c.unseen_io_uring},
                      {"aio_submits", c.unseen_aio}}},
                    {"file_layer_check", w->check()}});
  }
  if (jobs.empty()) return nullptr;
  return jobs.size() == 1 ? jobs[0] : nlohmann::json{{"jobs", jobs}};
}

}  // namespace ssdtlm
