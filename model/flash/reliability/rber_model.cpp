#include "flash/reliability/rber_model.h"

#include <algorithm>
#include <cmath>

namespace ssdtlm {

double RberModel::mean_rber(double pe, double hours, double reads) const {
  const double c = std::max(pe, 0.0);
  return p_.eps + p_.alpha * std::pow(c, p_.k) + shift_rber(pe, hours, reads);
}

double RberModel::shift_rber(double pe, double hours, double reads) const {
  const double c = std::max(pe, 0.0);
  return p_.beta * std::pow(c, p_.m) * std::pow(std::max(hours, 0.0), p_.n) +
         p_.gamma * std::pow(c, p_.p) * std::pow(std::max(reads, 0.0), p_.q);
}

double RberModel::page_factor(uint64_t key) const {
  if (p_.page_sigma <= 0) return 1.0;
  // splitmix64 -> two uniforms -> a standard normal (Box-Muller) -> lognormal with mean 1
  auto mix = [](uint64_t z) {
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  };
  const uint64_t a = mix(key), b = mix(a);
  const double u1 = (double(a >> 11) + 0.5) / 9007199254740992.0, u2 = double(b >> 11) / 9007199254740992.0;
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  const double s = p_.page_sigma;
  return std::exp(s * z - 0.5 * s * s);
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
