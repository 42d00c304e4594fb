#include "common/batch_means.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm {

namespace {
double ratio(double y, double x) { return x != 0 ? y / x : 0.0; }

// The batches of base[from, end) merged m at a time (the oldest remainder left out: it is nearest the warm-up).
std::vector<RatioBatch> merged(const std::vector<RatioBatch>& base, size_t from, size_t m) {
  const size_t k = (base.size() - from) / m;
  std::vector<RatioBatch> out(k);
  size_t i = base.size() - k * m;
  for (RatioBatch& b : out)
    for (size_t j = 0; j < m; ++j, ++i) b.y += base[i].y, b.x += base[i].x;
  return out;
}

}  // namespace

double lag1_autocorrelation(const std::vector<RatioBatch>& b) {
  double mean = 0;
  for (const RatioBatch& v : b) mean += ratio(v.y, v.x);
  mean /= double(b.size());
  double num = 0, den = 0;
  for (size_t j = 0; j < b.size(); ++j) {
    const double e = ratio(b[j].y, b[j].x) - mean;
    den += e * e;
    if (j + 1 < b.size()) num += e * (ratio(b[j + 1].y, b[j + 1].x) - mean);
  }
  // Batches all equal (to rounding): no correlation to speak of.
  return den > 1e-24 * double(b.size()) * mean * mean ? num / den : 0.0;
}

size_t mser5_truncation(const std::vector<RatioBatch>& base) {
  const size_t groups = base.size() / 5;
  if (groups < 2) return base.size();
  std::vector<double> r(groups);
  for (size_t g = 0; g < groups; ++g) {
    double y = 0, x = 0;
    for (size_t i = 5 * g; i < 5 * g + 5; ++i) y += base[i].y, x += base[i].x;
    r[g] = ratio(y, x);
  }
  // Suffix sums of r and r^2: the statistic of every d in one pass from the end.
  double s = 0, s2 = 0, best = INFINITY;
  size_t best_d = 0;
  const size_t bound = groups / 2;
  for (size_t d = groups; d-- > 0;) {
    s += r[d], s2 += r[d] * r[d];
    if (d > bound) continue;
    const double n = double(groups - d), var = s2 - s * s / n;
    const double stat = (var > 0 ? var : 0) / (n * n);
    if (stat <= best) best = stat, best_d = d;  // ties go to the smaller d
  }
  return best_d == bound ? base.size() : 5 * best_d;
}

BatchEstimate batch_means(const std::vector<RatioBatch>& base, size_t from, double confidence, uint32_t min_batches) {
  BatchEstimate e;
  if (from >= base.size() || base.size() - from < std::max<size_t>(min_batches, 2)) return e;
  // A fixed number of batches (Schmeiser 1982: 10 to 30): merged until fewer than 2 * min_batches remain, so
  // each batch spans at least 1/(2 min_batches) of the settled run; their remaining correlation widens the interval.
  const size_t m = merged_batch_width(base.size() - from, min_batches);
  const std::vector<RatioBatch> b = merged(base, from, m);
  const double r = lag1_autocorrelation(b);
  const double k = double(b.size());
  double sy = 0, sx = 0;
  for (const RatioBatch& v : b) sy += v.y, sx += v.x;
  if (sx == 0) return e;
  const double ratio_of_sums = sy / sx;
  double ss = 0;
  for (const RatioBatch& v : b) ss += (v.y - ratio_of_sums * v.x) * (v.y - ratio_of_sums * v.x);
  const double se = std::sqrt(ss / (k - 1) / k) / (sx / k);
  e.value = ratio_of_sums;
  e.batches = uint32_t(b.size());
  e.batch_size = uint32_t(m);
  if (!ar1_interval(e, r, k, se, confidence)) return BatchEstimate();
  return e;
}

size_t merged_batch_width(size_t count, uint32_t min_batches) {
  const size_t least = std::max<size_t>(min_batches, 2);
  size_t m = 1;
  while (count / m >= 2 * least) m *= 2;
  return m;
}

bool ar1_interval(BatchEstimate& e, double r, double k, double se, double confidence) {
  if (k < 2) return false;
  // Marriott & Pope's bias undone (needs k > 4), kept below 1 and at least 0 (negatively correlated batch means:
  // no narrowing).
  const double rho = k > 4 ? std::max(0.0, std::min((r + 1 / k) / (1 - 4 / k), 0.99)) : 0.0;
  const double factor = (1 + rho) / (1 - rho), effective = k / factor;
  if (effective < 2) return false;
  e.correlated = r >= 2.0 / std::sqrt(k);
  e.half_width = student_t_quantile(0.5 + confidence / 2, effective - 1) * se * std::sqrt(factor);
  e.ready = true;
  return true;
}

double normal_quantile(double p) {
  static const double a[] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                             1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
  static const double b[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                             6.680131188771972e+01,  -1.328068155288572e+01};
  static const double c[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                             -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
  static const double d[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                             3.754408661907416e+00};
  const double low = 0.02425;
  auto tail = [&](double q) {
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
           ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  };
  if (p < low) return tail(std::sqrt(-2 * std::log(p)));
  if (p > 1 - low) return -tail(std::sqrt(-2 * std::log(1 - p)));
  const double q = p - 0.5, r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

double student_t_quantile(double p, double df) {
  const double x = normal_quantile(p), x2 = x * x;
  const double g1 = (x2 + 1) * x / 4;
  const double g2 = ((5 * x2 + 16) * x2 + 3) * x / 96;
  const double g3 = (((3 * x2 + 19) * x2 + 17) * x2 - 15) * x / 384;
  const double g4 = ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945) * x / 92160;
  return x + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df;
}

}  // namespace ssdtlm
