#include "host/convergence.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ssdtlm {

namespace {
constexpr uint64_t kNoCut = ~uint64_t(0);  // the series has not settled: no warm-up cut yet

// The first of the batches (by their ends) that ended after the cut.
size_t first_after(const std::vector<uint64_t>& end_ps, uint64_t cut_ps) {
  return size_t(std::upper_bound(end_ps.begin(), end_ps.end(), cut_ps) - end_ps.begin());
}
}  // namespace

ConvergenceMonitor::ConvergenceMonitor(const ConvergeParams& p, std::function<uint64_t()> programmed_bytes,
                                       std::function<uint64_t()> erases, uint64_t drive_blocks)
    : p_(p), programmed_bytes_(std::move(programmed_bytes)), erases_(std::move(erases)) {
  if (erases_ && p.batch_erase_share > 0)
    batch_erases_ = std::max<uint64_t>(1, uint64_t(std::llround(p.batch_erase_share * double(drive_blocks))));
  if (erases_ && p.min_gc_cycles > 0) min_erases_ = uint64_t(std::llround(p.min_gc_cycles * double(drive_blocks)));
  static const char* const kNames[kSeries] = {"host.iops", "host.latency_us.read.mean", "host.latency_us.write.mean",
                                              "waf.total", "host.latency_us.read.p99", "host.latency_us.write.p99"};
  const bool required[kSeries] = {p.on_iops, p.on_latency_mean, p.on_latency_mean, p.on_waf, p.on_latency_p99,
                                  p.on_latency_p99};
  for (int s = 0; s < kSeries; ++s) series_[s].name = kNames[s], series_[s].required = required[s];
  series_[kReadP99].quantile = &p99_[0];
  series_[kWriteP99].quantile = &p99_[1];
  next_check_ = p.min_batches;
}

bool ConvergenceMonitor::completed(int dir, uint64_t bytes, uint64_t lat_ns, uint64_t now_ps) {
  if (!started_) {  // the first batch begins when the first measured I/O was submitted
    started_ = true;
    start_ps_ = now_ps - std::min(now_ps, lat_ns * 1000);
    programmed_at_start_ = programmed_bytes_();
    if (batch_erases_ || min_erases_) erases_at_start_ = erases_at_first_ = erases_();
  }
  ++total_ios_;
  ++ios_;
  lat_ns_[dir] += lat_ns;
  ++count_[dir];
  if (dir == 1) written_ += bytes;
  p99_[dir].add(lat_ns);
  if (p99_[dir].pending() >= p_.batch_ios) p99_[dir].close_batch(now_ps);
  if (!batch_full()) return false;
  close_batch(now_ps);
  if (converged_ || p_.mode != ConvergeParams::Mode::Stop || series_[kIops].batches.size() < next_check_) return false;
  next_check_ = std::max(next_check_ + 1, series_[kIops].batches.size() * 21 / 20);
  if (!check()) return false;
  converged_ = true;
  converged_ios_ = total_ios_;
  return true;
}

bool ConvergenceMonitor::batch_full() const {
  if (ios_ < p_.batch_ios) return false;
  if (!batch_erases_ || ios_ >= uint64_t(kMaxStretch) * p_.batch_ios) return true;
  return erases_() - erases_at_start_ >= batch_erases_;
}

void ConvergenceMonitor::close_batch(uint64_t now_ps) {
  const uint64_t programmed = programmed_bytes_();
  const RatioBatch b[4] = {{double(ios_), double(now_ps - start_ps_) / 1e12},
                           {double(lat_ns_[0]) / 1e3, double(count_[0])},
                           {double(lat_ns_[1]) / 1e3, double(count_[1])},
                           {double(programmed - programmed_at_start_), double(written_)}};
  for (int s = kIops; s <= kWaf; ++s) {
    series_[s].batches.push_back(b[s]);
    series_[s].end_ps.push_back(now_ps);
  }
  start_ps_ = now_ps;
  programmed_at_start_ = programmed;
  if (batch_erases_) erases_at_start_ = erases_();
  ios_ = written_ = 0;
  lat_ns_[0] = lat_ns_[1] = count_[0] = count_[1] = 0;
}

uint64_t ConvergenceMonitor::warmup_end_ps() const {
  const Series& iops = series_[kIops];
  const size_t cut = mser5_truncation(iops.batches);
  if (cut >= iops.batches.size()) return kNoCut;
  return cut == 0 ? 0 : iops.end_ps[cut - 1];
}

std::vector<RatioBatch> ConvergenceMonitor::settled(const Series& s, uint64_t cut_ps) {
  // The batches that ended after the cut; a batch with nothing of the metric (no reads in it) carries no
  // information and is left out.
  const size_t from = first_after(s.end_ps, cut_ps);
  std::vector<RatioBatch> kept;
  kept.reserve(s.batches.size() - std::min(from, s.batches.size()));
  for (size_t i = from; i < s.batches.size(); ++i)
    if (s.batches[i].x > 0) kept.push_back(s.batches[i]);
  return kept;
}

bool ConvergenceMonitor::has_data(const Series& s) {
  if (s.quantile) return s.quantile->batches() > 0;
  return std::any_of(s.batches.begin(), s.batches.end(), [](const RatioBatch& b) { return b.x > 0; });
}

BatchEstimate ConvergenceMonitor::estimate(const Series& s, uint64_t cut_ps) const {
  if (cut_ps == kNoCut) return BatchEstimate();
  if (s.quantile) {
    const QuantileSections& q = *s.quantile;
    BatchEstimate e = q.estimate(first_after(q.end_ps(), cut_ps), q.batches(), p_.confidence, p_.min_batches);
    e.value /= 1e3, e.half_width /= 1e3;  // ns -> us, as summary.json's latencies
    return e;
  }
  return batch_means(settled(s, cut_ps), 0, p_.confidence, p_.min_batches);
}

void ConvergenceMonitor::halves(const Series& s, uint64_t cut_ps, BatchEstimate& first, BatchEstimate& second) const {
  const uint32_t least = p_.min_batches / 2;
  if (s.quantile) {
    const QuantileSections& q = *s.quantile;
    const size_t from = first_after(q.end_ps(), cut_ps), mid = from + (q.batches() - from) / 2;
    first = q.estimate(from, mid, p_.confidence, least);
    second = q.estimate(mid, q.batches(), p_.confidence, least);
    return;
  }
  const std::vector<RatioBatch> kept = settled(s, cut_ps);
  const std::vector<RatioBatch> a(kept.begin(), kept.begin() + ptrdiff_t(kept.size() / 2));
  const std::vector<RatioBatch> b(kept.begin() + ptrdiff_t(kept.size() / 2), kept.end());
  first = batch_means(a, 0, p_.confidence, least);
  second = batch_means(b, 0, p_.confidence, least);
}

bool ConvergenceMonitor::check() const {
  if (min_erases_) {  // fewer GC cycles than asked (a run that has erased nothing, read-only, is not held)
    const uint64_t erased = erases_() - erases_at_first_;
    if (erased > 0 && erased < min_erases_) return false;
  }
  const uint64_t cut = warmup_end_ps();
  if (cut == kNoCut) return false;
  for (const Series& s : series_) {
    if (!s.required) continue;
    if (!has_data(s)) continue;  // no reads (writes) in the run: nothing to wait for
    const BatchEstimate e = estimate(s, cut);
    // A correlated estimate's interval is the AR(1) model's, not the batches' own: its batches have not yet
    // separated the swings, so the run goes on.
    if (!e.ready || e.correlated || e.rel_half_width() > p_.rel_half_width || drifts(s, cut)) return false;
  }
  return true;
}

bool ConvergenceMonitor::drifts(const Series& s, uint64_t cut_ps) const {
  // The settled batches halved in time order: their estimates must agree within their joint interval (a two-sample
  // comparison in the spirit of Geweke's diagnostic), or the series still moves.
  BatchEstimate a, b;
  halves(s, cut_ps, a, b);
  if (!a.ready || !b.ready || a.correlated || b.correlated) return true;
  return std::abs(a.value - b.value) > std::hypot(a.half_width, b.half_width);
}

void ConvergenceMonitor::report(nlohmann::json& into) const {
  static const char* const kModes[] = {"off", "report", "stop"};
  const uint64_t cut = warmup_end_ps();
  const Series& iops = series_[kIops];
  const size_t warm = cut == kNoCut ? iops.batches.size()
                                      : size_t(std::upper_bound(iops.end_ps.begin(), iops.end_ps.end(), cut) - iops.end_ps.begin());
  // A ratio's base batch holds batch_ios completions, or on average more when erase-bound; a quantile's, batch_ios
  // of its direction.
  double ios_closed = 0;
  for (const RatioBatch& b : iops.batches) ios_closed += b.y;
  const double ratio_base_ios = iops.batches.empty() ? p_.batch_ios : ios_closed / double(iops.batches.size());
  nlohmann::json metrics = nlohmann::json::object();
  for (const Series& s : series_) {
    if (!has_data(s)) continue;
    const BatchEstimate e = estimate(s, cut);
    const double base_ios = s.quantile ? double(p_.batch_ios) : ratio_base_ios;
    metrics[s.name] = {{"ready", e.ready},
                       {"value", e.value},
                       {"half_width", e.half_width},
                       {"rel_half_width", e.ready && e.value != 0 ? e.rel_half_width() : 0.0},
                       {"batches", e.batches},
                       {"batch_ios", uint64_t(std::llround(e.batch_size * base_ios))},
                       {"correlated", e.correlated},
                       {"required", s.required}};
  }
  into = {{"mode", kModes[int(p_.mode)]},
          {"converged", p_.mode == ConvergeParams::Mode::Stop ? converged_ : check()},
          {"confidence", p_.confidence},
          {"target_rel_half_width", p_.rel_half_width},
          {"base_batch_ios", p_.batch_ios},
          {"base_batch_erases", batch_erases_},
          {"min_erases", min_erases_},
          {"base_batches", iops.batches.size()},
          {"warmup_batches", warm},
          {"measured_ios", total_ios_},
          {"converged_at_ios", converged_ios_},
          {"metrics", metrics}};
}

}  // namespace ssdtlm
