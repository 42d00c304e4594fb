// fio's log files (write_bw_log, write_lat_log, write_iops_log, write_hist_log; fio 3.42 HOWTO "Log File
// Formats", iolog.c flush_samples / flush_hist_samples, stat.c add_log_sample): NAME_bw.N.log, NAME_iops.N.log,
// NAME_slat.N.log, NAME_clat.N.log, NAME_lat.N.log and NAME_clat_hist.N.log, N the job's number (1..), written
// as the run goes (a per-I/O log of a long run never sits in memory), in fio's line formats, so fio's tools
// (fiologparser.py, fiologparser_hist.py, fio_generate_plots) read them:
//   time (ms), value[, value1], direction, block size[, offset], priority[, issue time (ns)]
//   time (ms), direction, block size, bin 0, bin 1, ...   (the histogram log: fio's 29 x 64 clat bins, ns)
// Per I/O (log_avg_msec 0): latencies in ns, bandwidth as fio computes it per I/O (bytes x 10^6 / clat ns),
// IOPS 1. Windowed (log_avg_msec > 0): latency logs average (or max, or both) over each window as fio's
// add_log_sample does (an entry when a completion finds its window over); bandwidth (KiB/s) and IOPS per
// window of log_avg_msec ending at its multiples, a direction without I/O in a window gives no entry, and the
// window the job ends in gives one over its own length, so the entries integrate to the bytes the job moved.
#pragma once
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "host/completion_log.h"

namespace ssdtlm {
namespace fio {

// fio's clat histogram bin of a latency in ns (stat.c plat_val_to_idx: 29 groups of 64 bins).
constexpr unsigned kPlatBits = 6, kPlatGroups = 29, kPlatBins = kPlatGroups << kPlatBits;
unsigned plat_bin(uint64_t ns);

class FioJobLog;

// The logs of every job of a run, written into `dir` (the run's staging folder, see OutputDir).
class FioLogSet {
 public:
  // jobs[j]: job j's (number j + 1) log parameters; a job that logs nothing gets no files.
  FioLogSet(const std::string& dir, const std::vector<IoLogParams>& jobs);
  ~FioLogSet();
  FioLogSet(const FioLogSet&) = delete;
  FioLogSet& operator=(const FioLogSet&) = delete;

  CompletionLog* job(size_t j);  // null: job j logs nothing
  // Writes the rest, closes the files (per_job_logs=0: the jobs' parts joined in job order, as fio appends each
  // job's log at its end) and returns the file names written, relative to dir. Throws OutputError.
  std::vector<std::string> close();

 private:
  std::string dir_;
  std::vector<std::unique_ptr<FioJobLog>> logs_;
};

// The file names job `number` (1..) writes for `p`, in the order FioLogSet writes them.
std::vector<std::string> log_file_names(const IoLogParams& p, size_t number);

}  // namespace fio
}  // namespace ssdtlm
