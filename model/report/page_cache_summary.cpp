// The "page_cache" object of summary.json (workload.buffered, workload/filesystem/buffered_io.h): what the jobs
// asked of the block device's page cache and what it sent to the drive, for the timed run. Absent without one.
#include "report/summary.h"
#include "workload/filesystem/buffered_io.h"

namespace ssdtlm {

nlohmann::json page_cache_summary(Platform& p) {
  nlohmann::json jobs = nlohmann::json::array();
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    const auto* w = dynamic_cast<const BufferedWorkload*>(p.host().job(j).workload);
    if (!w) continue;
    const BufferedCounters& c = w->counters();
    jobs.push_back({{"job", j},
                    {"reads", c.reads},
                    {"read_bytes", c.read_bytes},
                    {"writes", c.writes},
                    {"write_bytes", c.write_bytes},
                    {"trims", c.trims},
                    {"cache_read_bytes", c.cache_read_bytes},
                    {"drive_read_bytes", c.drive_read_bytes},
                    {"readahead_bytes", c.readahead_bytes},
                    {"rmw_read_bytes", c.rmw_read_bytes},
                    {"flusher_bytes", c.flusher_bytes},
                    {"sync_bytes", c.sync_bytes},
                    {"flushes", c.flushes},
                    {"max_dirty_bytes", c.max_dirty_bytes},
                    {"dirty_bytes_left", w->dirty_bytes()},
                    {"ended_in_memory", c.ended_in_memory}});
  }
  if (jobs.empty()) return nullptr;
  return jobs.size() == 1 ? jobs[0] : nlohmann::json{{"jobs", jobs}};
}

}  // namespace ssdtlm
