// The "streams" object of summary.json: host and GC writes per stream, padding, and per-stream data
// lifetimes (docs/reference/streams.md).
#include "report/summary.h"

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
}  // namespace

nlohmann::json stream_summary(Platform& p) {
  const Streams& st = p.ftl().page_ftl().streams();
  const StreamStats& s = st.stats();
  const WriteBuffer& b = p.ftl().buffer();
  uint64_t all = 0;
  for (uint64_t w : s.writes) all += w;
  nlohmann::json j = {{"count", st.params().count},
                      {"assign", st.params().assign},
                      {"gc_stream", gc_name(st.params().gc)},
                      {"gc_frontier", st.params().gc_in_user ? "user" : "own"},
                      {"writes", s.writes},
                      {"gc_writes", s.gc_writes},
                      {"default_fraction", all ? double(s.writes[0]) / double(all) : 0.0},
                      {"padding_units", {{"user", s.user_padding}, {"gc", s.gc_padding}}},
                      {"gc_spilled_units", s.gc_spilled},
                      {"requeued_units", b.requeued()},
                      {"aged_pages", b.aged_pages()}};
  const PolicyCounters pc = st.policy().counters();
  if (!pc.empty()) {  // the policy's own statistics, under its name
    nlohmann::json o = nlohmann::json::object();
    for (const auto& [name, v] : pc) o[name] = v;
    j[st.params().assign] = o;
  }
  if (const Lifetimes* l = st.lifetimes()) {
    nlohmann::json per = nlohmann::json::array();
    for (uint32_t k = 0; k < l->streams(); ++k) {
      const Lifetimes::PerStream& ps = l->stream(k);
      per.push_back({{"versions", ps.births},
                     {"sampled_versions", ps.sampled_births},
                     {"alive", l->alive(k)},
                     {"time_us", quartiles(ps.time_ns, 1e-3)},
                     {"host_writes", quartiles(ps.writes, 1.0)}});
    }
    j["lifetime"] = per;
    j["lifetime_sample"] = 1u << l->sample_shift();  // one logical unit in this many is recorded
  }
  return j;
}

}  // namespace ssdtlm
