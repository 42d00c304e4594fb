// Closed-form reference results the model is checked against (see docs/results/validation.md).
#pragma once
#include <cmath>

namespace ssdtlm {

// Principal branch W0 of the Lambert W function for x in [-1/e, 0] (Halley iteration).
inline double lambert_w0(double x) {
  if (x <= -std::exp(-1.0) + 1e-15) return -1.0;  // branch point
  double w = x < -0.25 ? -1.0 + std::sqrt(2.0 * (1.0 + std::exp(1.0) * x)) : x;
  for (int i = 0; i < 100; ++i) {
    double e = std::exp(w), f = w * e - x;
    double step = f / (e * (w + 1) - (w + 2) * f / (2 * w + 2));
    w -= step;
    if (std::fabs(step) < 1e-15) break;
  }
  return w;
}

// Greedy GC write amplification under uniform random single-unit writes (Desnoyers, SYSTOR'12, Eq. 12):
// A = alpha / (k alpha + W0(-k alpha e^{-k alpha})), k = 1 + 1/(2 Np).
inline double desnoyers_greedy_waf(double alpha, double units_per_block) {
  double k = 1.0 + 1.0 / (2.0 * units_per_block), ka = k * alpha;
  return alpha / (ka + lambert_w0(-ka * std::exp(-ka)));
}

}  // namespace ssdtlm
