// Simulation time as integer picoseconds (SystemC's default resolution), with conversions.
#pragma once
#include <systemc>

#include <cmath>
#include <cstdint>

namespace ssdtlm {

constexpr uint64_t kNever = ~uint64_t(0);

// sc_time_stamp() is out of line in libsystemc; the simulation context's time_stamp() is the same value, inline.
inline uint64_t now_ps() { return sc_core::sc_get_curr_simcontext()->time_stamp().value(); }
inline sc_core::sc_time ps_time(uint64_t ps) { return sc_core::sc_time::from_value(ps); }
inline uint64_t ns_to_ps(double ns) { return uint64_t(std::llround(ns * 1e3)); }
inline uint64_t us_to_ps(double us) { return uint64_t(std::llround(us * 1e6)); }
// Integer nanoseconds to picoseconds and a sum, both saturating at kNever (an unbounded setting stays unbounded).
inline uint64_t ns_ps(uint64_t ns) { return ns > kNever / 1000 ? kNever : ns * 1000; }
inline uint64_t sat_add(uint64_t a, uint64_t b) { return a > kNever - b ? kNever : a + b; }
// Seconds to picoseconds, rounded, saturating at kNever (std::llround is undefined beyond 2^63).
inline uint64_t s_to_ps_sat(double s) {
  const double ps = s * 1e12;
  if (ps < 9.2e18) return uint64_t(std::llround(ps));
  return ps < 18446744073709551615.0 ? uint64_t(ps) : kNever;
}

// Process activations of the model's own SC_METHODs (the kernel cost that scales with I/O count).
inline uint64_t& kernel_activations() {
  static uint64_t n = 0;
  return n;
}

}  // namespace ssdtlm
