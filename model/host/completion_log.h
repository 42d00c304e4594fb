// A job's per-I/O log (fio's write_bw_log, write_lat_log, write_iops_log, write_hist_log): the host tells it
// each completion the job's statistics count (after the ramp) and when the job ends; what it writes is the
// log's business (frontend/fio/fio_logs.h). Plain C++, O(1) per completion.
#pragma once
#include <cstdint>
#include <string>

namespace ssdtlm {

// What a job logs (workload.log_*). A name is the prefix of fio's file names (NAME_bw.N.log); "" = not written.
struct IoLogParams {
  std::string bw, lat, iops, hist;  // lat writes NAME_slat, NAME_clat and NAME_lat
  uint64_t avg_ms = 0;              // fio log_avg_msec: one averaged entry per window (0 = one entry per I/O)
  uint64_t hist_ms = 0;             // fio log_hist_msec: one histogram entry per window (0 = hist log empty)
  uint32_t hist_coarseness = 0;     // fio log_hist_coarseness: 2^c bins merged into one
  enum class Window { Avg, Max, Both } window = Window::Avg;  // fio log_window_value
  bool offset = false;              // fio log_offset: the I/O's byte offset column
  bool issue_time = false;          // fio log_issue_time: the issue-time column (ns since the job's epoch)
  bool prio = false;                // fio log_prio: the priority column as 0x%04x (always 0: no priorities)
  bool per_job = true;              // fio per_job_logs: the job's index in the file name
  // fio disable_lat / disable_clat / disable_slat: that latency is not recorded (no log file; no clat
  // histogram entries without clat) and fio.json reports it empty
  bool no_lat = false, no_clat = false, no_slat = false;
  bool any() const { return !bw.empty() || !lat.empty() || !iops.empty() || !hist.empty(); }
};

// One completion as the job's log sees it; times from the job's epoch (its start, after the ramp).
struct LoggedIo {
  uint64_t at_ps = 0;      // completed
  uint64_t issued_ps = 0;  // submitted
  int dir = 0;             // 0 read, 1 write, 2 trim
  uint32_t bytes = 0;
  uint64_t offset = 0;
  uint64_t clat_ns = 0;    // submission to completion (the model has no submission cost: slat 0, lat = clat)
};

class CompletionLog {
 public:
  virtual ~CompletionLog() = default;
  virtual void completed(const LoggedIo& io) = 0;
  virtual void finished(uint64_t at_ps) = 0;  // the job's last completion is in; flush the open windows
};

}  // namespace ssdtlm
