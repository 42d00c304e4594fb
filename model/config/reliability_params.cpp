// reliability.*: the RBER model's parameters and the ECC ladder, read and checked once (docs/reference/nand.md).
#include <cstdlib>
#include <string>

#include "common/text.h"
#include "config/choices.h"
#include "config/params.h"

namespace ssdtlm {

namespace {

std::vector<double> numbers(const Config& c, const std::string& key, size_t want) {
  std::vector<double> out;
  const std::string text = c.s(key);
  for (const std::string& item : split(text, ',')) {
    const std::string t(trim(item));
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (t.empty() || *end != '\0' || !(v >= 0))
      throw ConfigError("key '" + key + "': expected non-negative numbers separated by commas, got '" + text + "'");
    out.push_back(v);
  }
  if (want && out.size() != want)
    throw ConfigError("key '" + key + "': expected " + std::to_string(want) + " numbers separated by commas, got " +
                      std::to_string(out.size()) + " in '" + text + "'");
  return out;
}

}  // namespace

ReliabilityParams read_reliability_params(const Config& c) {
  ReliabilityParams p;
  p.on = parse_choice(choices::kReliabilityModel, c, "reliability.model");
  p.initial_pe = c.d("reliability.initial_pe_cycles");
  p.retention_hours = c.d("reliability.retention_days") * 24;
  p.ea_ev = c.d("reliability.activation_energy_ev");
  p.fit_temp_c = c.d("reliability.rber_temp_c");
  p.retention_temp_c = c.d("reliability.retention_temp_c");
  p.run_temp_c = c.d("thermal.ambient_c");  // the thermal model, when on, updates it (Reliability::set_temp_c)
  const std::vector<double> r = numbers(c, "reliability.rber_params", 9);
  p.eps = r[0], p.alpha = r[1], p.k = r[2], p.beta = r[3], p.m = r[4], p.n = r[5], p.gamma = r[6], p.p = r[7], p.q = r[8];
  p.page_sigma = c.d("reliability.page_sigma");
  p.hard_rber = c.d("reliability.hard_rber");
  p.retry_steps = uint32_t(c.i("reliability.retry_steps"));
  p.retry_gain = c.d("reliability.retry_gain");
  p.soft_rber = numbers(c, "reliability.soft_rber", 0);
  const std::vector<double> reads = numbers(c, "reliability.soft_reads", p.soft_rber.size());
  const std::vector<double> decode = numbers(c, "reliability.soft_decode_us", p.soft_rber.size());
  p.soft_reads.clear();
  p.soft_decode_ps.clear();
  for (size_t t = 0; t < p.soft_rber.size(); ++t) {
    if (p.soft_rber[t] <= (t ? p.soft_rber[t - 1] : p.hard_rber))
      throw ConfigError("key 'reliability.soft_rber': expected limits above reliability.hard_rber (" +
                        std::to_string(p.hard_rber) + "), increasing, got '" + c.s("reliability.soft_rber") + "'");
    p.soft_reads.push_back(uint32_t(reads[t]));
    p.soft_decode_ps.push_back(uint64_t(decode[t] * 1e6 + 0.5));
  }
  if (p.retry_steps + (p.soft_reads.empty() ? 0 : p.soft_reads.back()) > 255)
    throw ConfigError("key 'reliability.retry_steps': retry steps plus the last tier's soft reads must be at most 255");
  p.reclaim_reads = uint32_t(c.i("reliability.reclaim_reads"));
  p.reclaim_steps = uint32_t(c.i("reliability.reclaim_retry_steps"));
  p.slc_endurance_gain = c.d("reliability.slc_endurance_gain");
  return p;
}

}  // namespace ssdtlm
