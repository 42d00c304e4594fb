// fio's steady-state detection (steadystate.c; options ss, ss_dur, ss_ramp, ss_interval): a job (or the jobs of
// one report group, as fio's group_reporting) measures its IOPS, bandwidth and mean completion latency in each
// interval of ss_interval after ss_ramp, keeps the last ss_dur of them, and is at steady state when their
// largest deviation from their mean (ss=iops:, bw:, lat:) or the slope of their least-squares line (ss=
// iops_slope:, bw_slope:, lat_slope:; per interval, x = 0, 1, ...) is below the limit, in the metric's units or,
// with a %, as a share of the mean. Then the jobs stop (fio terminates them), reported as attained.
// Intervals are closed on time, as fio's timer does (steadystate_check): the host calls advance() at each
// interval's end (next_close_ps: one timer per interval, none per I/O), which records the interval from the
// completions before that time and decides; a completion after an end not yet advanced to closes it first (an
// interval without completions counts as 0). Plain C++.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ssdtlm {

struct SteadyStateParams {
  enum class Metric { None, Iops, Bw, Lat } metric = Metric::None;
  bool slope = false;    // least-squares slope instead of the largest deviation
  bool percent = false;  // the limit is a % of the mean
  double limit = 0;
  uint64_t dur_ms = 0, ramp_ms = 0, interval_ms = 1000;
  bool on() const { return metric != Metric::None && dur_ms > 0; }
  std::string text() const;  // fio's "iops_slope:0.100000%"
};

// Reads fio's ss value ("iops:10%", "bw_slope:0.5", ...): Metric::None for ""; std::invalid_argument otherwise.
SteadyStateParams parse_steady_state(const std::string& value);

class SteadyState {
 public:
  explicit SteadyState(const SteadyStateParams& p);
  void start(uint64_t epoch_ps);  // the first job of its group begins measuring (later calls do nothing)
  // A completion at at_ps; true once steady state is attained (at an interval's end at or before at_ps).
  bool completed(uint64_t at_ps, uint64_t bytes, uint64_t clat_ns);
  // Closes the intervals that end at or before now_ps; true once steady state is attained (at such an end).
  bool advance(uint64_t now_ps);
  // When the open interval ends (the next decision), or ~0 when there is none to come (attained, not started).
  uint64_t next_close_ps() const { return attained_ || !started_ ? ~uint64_t(0) : end_ps_; }
  bool attained() const { return attained_; }
  uint64_t attained_ps() const { return attained_ps_; }
  const SteadyStateParams& params() const { return p_; }
  double criterion() const { return criterion_; }
  double deviation() const { return deviation_; }
  double slope() const { return slope_; }
  // The last ss_dur / ss_interval intervals, oldest first: IOPS, bytes per second, mean completion latency (ns).
  std::vector<uint64_t> iops() const { return window(iops_); }
  std::vector<uint64_t> bw() const { return window(bw_); }
  std::vector<uint64_t> lat() const { return window(lat_); }

 private:
  void close_interval();
  bool check();
  std::vector<uint64_t> window(const std::vector<uint64_t>& all) const;

  SteadyStateParams p_;
  size_t intervals_ = 1;
  bool started_ = false, attained_ = false;
  uint64_t epoch_ps_ = 0, end_ps_ = 0, attained_ps_ = 0;
  uint64_t ios_ = 0, bytes_ = 0;
  double lat_sum_ = 0;
  double criterion_ = 0, deviation_ = 0, slope_ = 0;
  std::vector<uint64_t> iops_, bw_, lat_;  // every recorded interval (a steady-state run is short in intervals)
};

}  // namespace ssdtlm
