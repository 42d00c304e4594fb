#include "flash/reliability/rber_model.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/batch_means.h"  // normal_quantile

namespace ssdtlm {

namespace {
// Boltzmann's constant in eV/K (CODATA 2018, exact in the SI).
constexpr double kBoltzmannEv = 8.617333262e-5;
constexpr double kKelvin = 273.15;
}  // namespace

double RberModel::acceleration(double temp_c) const {
  // Arrhenius, as JEDEC JESD218 accelerates retention, Ea = 1.1 eV: JESD218's client requirement (1 year at
  // 30 C) is met by 500 h at 52 C or 96 h at 66 C (Curtiss-Wright's summary of JESD218, "The effects of extended
  // temperatures on flash endurance and data retention"); this factor gives 507 h and 100 h.
  if (temp_c == p_.fit_temp_c) return 1.0;
  return std::exp(p_.ea_ev / kBoltzmannEv * (1.0 / (p_.fit_temp_c + kKelvin) - 1.0 / (temp_c + kKelvin)));
}

double RberModel::mean_rber(double pe, double hours, double reads) const {
  return p_.eps + wear_terms(pe).wear + shift_rber(pe, hours, reads);
}

double RberModel::shift_rber(double pe, double hours, double reads) const {
  return shift_rber(wear_terms(pe), hours, reads);
}

RberModel::WearTerms RberModel::wear_terms(double pe) const {
  // The power laws in c describe cycled cells, c >= 1 (rber_model.h): a fresh block reads as a once-cycled one.
  const double c = std::max(pe, 1.0);
  return {p_.alpha * std::pow(c, p_.k), p_.beta * std::pow(c, p_.m), p_.gamma * std::pow(c, p_.p)};
}

double RberModel::shift_rber(const WearTerms& w, double hours, double reads) const {
  return w.retention * std::pow(std::max(hours, 0.0), p_.n) + w.disturb * std::pow(std::max(reads, 0.0), p_.q);
}

namespace {
uint64_t mix(uint64_t z) {  // splitmix64
  z += 0x9e3779b97f4a7c15ull;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
// The lognormal factors (mean 1) of one page_sigma: kFactors quantiles at (i + 0.5) / kFactors. One model per
// run, so one table, built on first use.
constexpr uint32_t kFactors = 4096;
const std::vector<double>& factor_table(double sigma) {
  static double built_for = -1;
  static std::vector<double> table;
  if (sigma != built_for) {
    table.assign(kFactors, 1.0);
    double sum = 0;
    for (uint32_t i = 0; i < kFactors; ++i) sum += table[i] = std::exp(sigma * normal_quantile((i + 0.5) / kFactors));
    for (double& f : table) f *= kFactors / sum;  // mean exactly 1
    built_for = sigma;
  }
  return table;
}

}  // namespace

double RberModel::page_factor(uint64_t key) const {
  if (p_.page_sigma <= 0) return 1.0;
  return factor_table(p_.page_sigma)[mix(key) & (kFactors - 1)];
}

ReadOutcome RberModel::decode(double mean, double shift, double factor) const {
  ReadOutcome o;
  const double fixed = (mean - shift) * factor;
  double moving = shift * factor;
  o.rber = fixed + moving;
  if (o.rber <= p_.hard_rber) return o;
  for (uint32_t s = 1; s <= p_.retry_steps; ++s) {  // read-retry: shifted references
    moving *= p_.retry_gain;
    o.retries = uint8_t(s);
    if (fixed + moving <= p_.hard_rber) {
      o.extra_reads = o.retries;
      return o;
    }
  }
  const double left = fixed + moving;  // soft decoding at the best references found
  for (size_t t = 0; t < p_.soft_rber.size(); ++t) {
    if (left <= p_.soft_rber[t]) {
      o.soft_tier = uint8_t(t + 1);
      o.extra_reads = uint8_t(o.retries + p_.soft_reads[t]);
      o.decode_ps = p_.soft_decode_ps[t];
      return o;
    }
  }
  o.uncorrectable = true;  // every tier tried
  o.soft_tier = uint8_t(p_.soft_rber.size());
  o.extra_reads = uint8_t(o.retries + (p_.soft_reads.empty() ? 0 : p_.soft_reads.back()));
  o.decode_ps = p_.soft_decode_ps.empty() ? 0 : p_.soft_decode_ps.back();
  return o;
}

}  // namespace ssdtlm
