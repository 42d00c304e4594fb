#include "host/steady_state.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace ssdtlm {

std::string SteadyStateParams::text() const {
  const char* name = metric == Metric::Iops ? "iops" : metric == Metric::Lat ? "lat" : "bw";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%s%s:%f%s", name, slope ? "_slope" : "", limit, percent ? "%" : "");
  return buf;
}

SteadyStateParams parse_steady_state(const std::string& value) {
  SteadyStateParams p;
  if (value.empty()) return p;
  const auto colon = value.find(':');
  const auto bad = [&] {
    return std::invalid_argument("expected iops, iops_slope, bw, bw_slope, lat or lat_slope, a colon and a limit " +
                                 std::string("(a % for a share of the mean), e.g. iops_slope:0.1%; got ") + value);
  };
  if (colon == std::string::npos) throw bad();
  std::string name = value.substr(0, colon), limit = value.substr(colon + 1);
  if (name.size() > 6 && name.compare(name.size() - 6, 6, "_slope") == 0) {
    p.slope = true;
    name.resize(name.size() - 6);
  }
  p.metric = name == "iops" ? SteadyStateParams::Metric::Iops
             : name == "bw" ? SteadyStateParams::Metric::Bw
             : name == "lat" ? SteadyStateParams::Metric::Lat
                             : SteadyStateParams::Metric::None;
  if (p.metric == SteadyStateParams::Metric::None || limit.empty()) throw bad();
  if (limit.back() == '%') {
    p.percent = true;
    limit.pop_back();
  }
  size_t used = 0;
  try {
    p.limit = std::stod(limit, &used);
  } catch (const std::exception&) {
    throw bad();
  }
  if (used != limit.size() || !(p.limit >= 0) || !std::isfinite(p.limit)) throw bad();
  return p;
}

SteadyState::SteadyState(const SteadyStateParams& p) : p_(p) {
  intervals_ = size_t(std::max<uint64_t>(1, p.dur_ms / std::max<uint64_t>(1, p.interval_ms)));
}

void SteadyState::start(uint64_t epoch_ps) {
  if (started_) return;
  started_ = true;
  epoch_ps_ = epoch_ps;
  end_ps_ = epoch_ps + p_.interval_ms * 1000000000ull;
}

bool SteadyState::advance(uint64_t now_ps) {
  if (attained_ || !started_) return attained_;
  while (now_ps >= end_ps_) {
    close_interval();
    if (attained_) return true;
  }
  return false;
}

bool SteadyState::completed(uint64_t at_ps, uint64_t bytes, uint64_t clat_ns) {
  if (advance(at_ps) || !started_) return attained_;
  ++ios_;
  bytes_ += bytes;
  lat_sum_ += double(clat_ns);
  return false;
}

void SteadyState::close_interval() {
  const uint64_t interval_ps = p_.interval_ms * 1000000000ull;
  // fio records from one interval after ss_ramp: the intervals that end at or after ramp + interval
  if (end_ps_ - epoch_ps_ >= p_.ramp_ms * 1000000000ull + interval_ps) {
    iops_.push_back(uint64_t(double(ios_) * 1000.0 / double(p_.interval_ms)));
    bw_.push_back(uint64_t(double(bytes_) * 1000.0 / double(p_.interval_ms)));
    lat_.push_back(ios_ ? uint64_t(lat_sum_ / double(ios_)) : 0);
    if (check()) {
      attained_ = true;
      attained_ps_ = end_ps_;
    }
  }
  ios_ = bytes_ = 0;
  lat_sum_ = 0;
  end_ps_ += interval_ps;
}

bool SteadyState::check() {
  if (iops_.size() < intervals_) return false;
  const std::vector<uint64_t>& all =
      p_.metric == SteadyStateParams::Metric::Iops ? iops_ : p_.metric == SteadyStateParams::Metric::Bw ? bw_ : lat_;
  const size_t first = all.size() - intervals_;
  const double n = double(intervals_);
  double sum_y = 0, sum_xy = 0;
  for (size_t i = 0; i < intervals_; ++i) {
    sum_y += double(all[first + i]);
    sum_xy += double(i) * double(all[first + i]);
  }
  const double mean = sum_y / n;
  if (p_.slope) {
    const double sum_x = n * (n - 1) / 2, sum_x2 = (n - 1) * n * (2 * n - 1) / 6;
    const double denom = sum_x2 - sum_x * sum_x / n;
    slope_ = denom > 0 ? (sum_xy - sum_x * sum_y / n) / denom : 0.0;
    criterion_ = p_.percent ? (mean > 0 ? 100.0 * slope_ / mean : HUGE_VAL) : slope_;  // fio: 0 / 0, never met
    return std::fabs(criterion_) < p_.limit;
  }
  deviation_ = 0;
  for (size_t i = 0; i < intervals_; ++i) deviation_ = std::max(deviation_, std::fabs(double(all[first + i]) - mean));
  criterion_ = p_.percent ? (mean > 0 ? 100.0 * deviation_ / mean : HUGE_VAL) : deviation_;
  return criterion_ < p_.limit;
}

std::vector<uint64_t> SteadyState::window(const std::vector<uint64_t>& all) const {
  const size_t n = std::min(all.size(), intervals_);
  return std::vector<uint64_t>(all.end() - long(n), all.end());
}

}  // namespace ssdtlm
