// Batch means: a confidence interval for a steady-state ratio (IOPS = I/Os per second, mean latency = latency per
// I/O, WAF = bytes programmed per byte written) from one long run, and the warm-up to leave out.
//
// The run is cut into consecutive base batches; batch i contributes y_i and x_i and the estimate is the ratio of sums
// R = sum(y) / sum(x). Four textbook steps:
// - warm-up (mser5_truncation): MSER-5 (White, Cobb & Spratt, "A comparison of five steady-state truncation
//   heuristics", WSC 2000): the base batches are grouped by five and the first d groups are dropped where
//   sum_{i>d} (r_i - mean_d)^2 / (n - d)^2 is smallest, d at most half the groups; d at the bound means the series
//   has not settled (no estimate yet).
// - batch size: the base batches after the warm-up are merged two by two (sums) until fewer than 2 * min_batches
//   remain (a fixed number of batches, Schmeiser, "Batch size effects in the analysis of simulation output",
//   Operations Research 30(3), 1982: 10 to 30 batches; each batch then spans a fixed share of the settled run, so
//   correlations as long as that share are inside the batches);
// - interval: the delta-method (ratio) estimator's standard error, s / (sqrt(k) * mean(x)) with
//   s^2 = sum (y_j - R x_j)^2 / (k - 1), adjusted for the batch means' remaining autocorrelation (ar1_interval):
//   k batches of a twentieth of a run each are still correlated when the run's swings last that long (GC's at low
//   over-provisioning), and the plain interval then covers less than it says (0.89 to 0.93 at 95 % on AR(1)
//   series of coefficient 0.9 to 0.99 in 2,000 base batches). As Skart (Tafazzoli & Wilson,
//   IIE Transactions 43(2), 2011) and ASAP3 (Steiger et al., ACM TOMACS 15(1), 2005) do, the batch means are taken
//   as a first-order autoregressive series: the variance of their mean is s^2 / k times (1 + rho) / (1 - rho),
//   on k (1 - rho) / (1 + rho) effective batches for Student's t; rho is the lag-1 estimate with its small-sample
//   bias E[r] = rho - (1 + 4 rho) / k undone (Marriott & Pope, Biometrika 41, 1954), and at least 0.
// - batches still significantly correlated (lag-1 at least 2 / sqrt(k), about 95 %) are marked `correlated` (sim.converge=stop does
//   not stop on them) and keep their adjusted interval: as Fishman & Yarberry's LBATCH (INFORMS J. Computing 9(3),
//   1997), a fixed-length run always ends with an interval, unless the adjustment leaves fewer than two effective
//   batches (the series has not settled).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdtlm {

struct RatioBatch {
  double y = 0, x = 0;
};

struct BatchEstimate {
  bool ready = false;      // enough settled batches for an interval (else value and half_width are 0)
  bool correlated = false; // the fewest batches were still significantly lag-1 correlated
  double value = 0;        // ratio of sums over the batches after the warm-up
  double half_width = 0;   // of the confidence interval
  uint32_t batches = 0;    // k: batches of the interval
  uint32_t batch_size = 0; // base batches merged into each
  // Relative to the value; a value of 0 has none (a WAF of 0: nothing programmed yet, the buffer still filling, is a
  // transient, never an answer).
  double rel_half_width() const { return value != 0 ? half_width / (value < 0 ? -value : value) : 1e300; }
};

// Base batches to leave out as warm-up (a multiple of 5), or `base.size()` when the series has not settled (MSER-5's
// minimum at its bound of half the groups) or has fewer than two groups of five.
size_t mser5_truncation(const std::vector<RatioBatch>& base);

// The estimate over base[from, end): merged batches, ratio, interval at `confidence` (two-sided, e.g. 0.95).
BatchEstimate batch_means(const std::vector<RatioBatch>& base, size_t from, double confidence, uint32_t min_batches);

// Base batches per merged batch for `count` base batches: doubled while at least 2 * max(min_batches, 2) merged
// batches would remain (the header comment's batch size), so between least and 2 * least remain.
size_t merged_batch_width(size_t count, uint32_t min_batches);

// e's interval (half_width, correlated, ready) from k batches with lag-1 autocorrelation r and, were they
// independent, standard error `se` (header comment). false when fewer than two effective batches remain.
bool ar1_interval(BatchEstimate& e, double r, double k, double se, double confidence);

// The lag-1 autocorrelation of the batches' ratios y/x (0 when they are all equal).
double lag1_autocorrelation(const std::vector<RatioBatch>& batches);

// Student's t quantile: t with P(T <= t) = p for `df` degrees of freedom (df >= 1): the normal quantile (Acklam's
// rational approximation, relative error < 1.2e-9) corrected by the Cornish-Fisher expansion in 1/df to the third
// order (Abramowitz & Stegun 26.7.5): within 1e-3 of the tables for df >= 5 at p <= 0.995.
double student_t_quantile(double p, double df);
double normal_quantile(double p);

}  // namespace ssdtlm
