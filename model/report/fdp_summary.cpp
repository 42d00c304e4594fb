// The "fdp" object of summary.json (docs/placement.md): the FDP statistics log (host and media bytes written,
// media bytes erased), per-RUH counters and WAF, and the FDP events, over the measured run.
#include "controller/placement/fdp.h"
#include "report/summary.h"

namespace ssdtlm {

nlohmann::json fdp_summary(Platform& p) {
  PageFtl& ftl = p.ftl().page_ftl();
  const Geometry& g = ftl.geometry();
  const Streams& st = ftl.streams();
  const StreamParams& sp = st.params();
  const StreamStats& s = st.stats();
  const BlockManager& blocks = ftl.blocks();
  const FrontierLayout& l = blocks.layout();
  const FlashCounters& f = ftl.counters();
  const uint64_t block_bytes = uint64_t(g.units_per_block) * kUnitBytes;
  const double ru_blocks = double(sp.fdp_ru_bytes / block_bytes);
  const uint64_t page_bytes = uint64_t(g.units_per_page) * kUnitBytes;
  const uint64_t media = (f.programs[0] + f.programs[1] + f.programs[2] + f.programs[3]) * page_bytes;
  const uint32_t ruhs = sp.fdp_ruhs, rgs = sp.fdp_rgs;
  const bool persistent = sp.gc == GcStreams::PerStream;

  uint64_t host_units = 0;
  double ru_host = 0, ru_gc = 0, cut = 0;
  nlohmann::json per = nlohmann::json::array();
  for (uint32_t h = 0; h < ruhs; ++h) {
    uint64_t host = 0, gc = 0, opened = 0, gc_opened = 0, cut_h = 0;
    nlohmann::json per_rg = nlohmann::json::array();
    for (uint32_t rg = 0; rg < rgs; ++rg) {
      const uint32_t k = rg * ruhs + h;
      host += s.writes[k];
      gc += s.gc_writes[k];
      opened += blocks.blocks_opened(l.user_frontier(k));
      cut_h += blocks.blocks_cut(l.user_frontier(k));
      if (persistent && !l.gc_in_user) gc_opened += blocks.blocks_opened(l.gc_frontier(k));
      per_rg.push_back({{"host_bytes_written", s.writes[k] * kUnitBytes}, {"gc_bytes_written", s.gc_writes[k] * kUnitBytes}});
    }
    host_units += host;
    ru_host += double(opened) / ru_blocks;
    ru_gc += double(gc_opened) / ru_blocks;
    cut += double(cut_h);
    per.push_back({{"ruh", h},
                   {"host_bytes_written", host * kUnitBytes},
                   {"media_reallocated_bytes", gc * kUnitBytes},
                   {"media_bytes_written", (host + gc) * kUnitBytes},
                   {"waf", host ? double(host + gc) / double(host) : 0.0},
                   {"ru_filled_by_host", double(opened) / ru_blocks},
                   {"ru_filled_by_gc", double(gc_opened) / ru_blocks},
                   {"by_reclaim_group", per_rg}});
  }
  if (!persistent || l.gc_in_user) {  // GC blocks not per RUH: shared GC frontier (or the RUH's own, counted above)
    if (!l.gc_in_user) ru_gc = double(blocks.blocks_opened(l.gc_frontier(0))) / ru_blocks;
  }
  uint64_t invalid = 0;
  for (const auto& [name, v] : st.policy().counters())
    if (name == "invalid_placement_identifier") invalid = v;
  // Placement invariant: no valid unit of an (RG, RUH) stream on a die outside its RG (one pass over the
  // out-of-band data, at the end only).
  uint64_t outside = 0;
  if (rgs > 1)
    for (uint32_t d = 0; d < g.dies; ++d) {
      const uint32_t base = g.ppa(d, 0, 0), units = g.blocks_per_die * g.units_per_block;
      for (uint32_t u = 0; u < units; ++u)
        if (ftl.valid(base + u) && !sp.allowed_on(ftl.die(d).stream(u), d, g.dies)) ++outside;
    }
  const uint64_t host_bytes = host_units * kUnitBytes;
  return {{"enabled", true},
          {"reclaim_groups", rgs},
          {"ruhs", ruhs},
          {"ru_bytes", sp.fdp_ru_bytes},
          {"ruh_type", ruh_type_name(persistent)},
          {"host_bytes_written", host_bytes},
          {"media_bytes_written", media},
          {"media_bytes_erased", f.erases * block_bytes},
          {"waf", host_bytes ? double(media) / double(host_bytes) : 0.0},
          {"ruh", per},
          {"units_outside_reclaim_group", outside},
          {"events",
           {{"ru_ended_by_host", ru_host},
            {"ru_ended_by_controller", cut},
            {"ru_ended_by_gc", ru_gc},
            {"media_reallocated_units", f.gc_units_moved},
            {"media_reallocated_victims", f.gc_victims},
            {"invalid_placement_identifier", invalid}}}};
}

}  // namespace ssdtlm
