// fio's latency-target queue-depth search (io_u.c lat_target_*; options latency_target, latency_window,
// latency_percentile, latency_run): the job starts at depth 1; at the end of each window (latency_window from
// the cycle's start) it succeeds when latency_percentile % of the window's I/Os completed within latency_target
// (total latency), and then raises the depth (doubling until a failure, then bisecting between the last good and
// the first bad depth, and nudging the bad bound up after three stable successes); a failure lowers it (with
// latency_percentile = 100, at the first I/O over the target) and waits for the I/O in flight to drain. When a
// success leaves the depth unchanged the job drains, resets its statistics and runs one more window at that
// depth, then ends (latency_run keeps it searching instead). A failure at depth 1 ends the job with fio's
// "max latency exceeded" error. Plain C++; the host asks may_issue() before each submission.
#pragma once
#include <cstdint>

namespace ssdtlm {

struct LatencyTargetParams {
  uint64_t target_ns = 0;  // 0 = off
  uint64_t window_ns = 0;
  double percentile = 100.0;
  bool run = false;        // latency_run: keep searching (no final run)
  bool on() const { return target_ns > 0; }
};

class LatencyTarget {
 public:
  enum class Step { None, Restart, Done, Failed };  // Restart: statistics reset for the final run

  LatencyTarget(const LatencyTargetParams& p, uint32_t iodepth);
  void start(uint64_t now_ps) { cycle_ps_ = now_ps; }
  bool may_issue(uint32_t inflight);  // below the depth searched, and not draining
  Step completed(uint64_t now_ps, uint64_t lat_ns);
  uint32_t depth() const { return qd_; }
  bool failed() const { return failed_; }

 private:
  Step failed_step();
  Step success_step();
  void new_cycle(uint64_t now_ps);

  LatencyTargetParams p_;
  uint32_t iodepth_;
  uint32_t qd_ = 1, qd_low_ = 1, qd_high_;
  uint32_t stable_ = 0;
  uint64_t cycle_ps_ = 0, ios_ = 0, over_ = 0;
  bool draining_ = false, end_run_ = false, failed_ = false;
};

}  // namespace ssdtlm
