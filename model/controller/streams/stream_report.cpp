// Streams' report: summary.json "streams": host and GC writes per stream, padding, the policy's own counters and
// per-stream data lifetimes (docs/reference/streams.md).
#include <nlohmann/json.hpp>

#include "controller/streams/streams.h"

namespace ssdtlm {

namespace {
nlohmann::json quartiles(const Histogram& h, double scale) {
  return {{"count", h.count()},
          {"p25", double(h.quantile(0.25)) * scale},
          {"p50", double(h.quantile(0.5)) * scale},
          {"p75", double(h.quantile(0.75)) * scale},
          {"mean", h.mean() * scale}};
}
const char* gc_name(GcStreams g) {
  return g == GcStreams::PerStream ? "per_stream" : g == GcStreams::HotCold ? "hotcold" : "shared";
}
nlohmann::json lifetime_report(const Lifetimes& l) {
  nlohmann::json per = nlohmann::json::array();
  for (uint32_t k = 0; k < l.streams(); ++k) {
    const Lifetimes::PerStream& ps = l.stream(k);
    per.push_back({{"versions", ps.births},
                   {"sampled_versions", ps.sampled_births},
                   {"alive", l.alive(k)},
                   {"time_us", quartiles(ps.time_ns, 1e-3)},
                   {"host_writes", quartiles(ps.writes, 1.0)}});
  }
  return per;
}
}  // namespace

nlohmann::json Streams::report() const {
  const StreamStats& s = stats_;
  uint64_t all = 0;
  for (uint64_t w : s.writes) all += w;
  nlohmann::json j = {{"count", p_.count},
                      {"assign", p_.assign},
                      {"gc_stream", gc_name(p_.gc)},
                      {"gc_frontier", p_.gc_in_user ? "user" : "own"},
                      {"writes", s.writes},
                      {"gc_writes", s.gc_writes},
                      {"default_fraction", all ? double(s.writes[0]) / double(all) : 0.0},
                      {"padding_units", {{"user", s.user_padding}, {"gc", s.gc_padding}}},
                      {"gc_spilled_units", s.gc_spilled}};
  const PolicyCounters pc = policy().counters();
  if (!pc.empty()) {  // the policy's own statistics, under its name
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [name, v] : pc) o[name] = v;
    j[p_.assign] = o;
  }
  if (const Lifetimes* l = lifetimes()) {
    j["lifetime"] = lifetime_report(*l);
    j["lifetime_sample"] = 1u << l->sample_shift();  // one logical unit in this many is recorded
  }
  return j;
}

}  // namespace ssdtlm
