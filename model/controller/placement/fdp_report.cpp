// The FDP report: summary.json "fdp" (docs/reference/placement.md): the FDP statistics log (host and media bytes written,
// media bytes erased), per-RUH counters, WAF and Reclaim Unit Handle Status (the RU's available media writes),
// reclaim units reclaimed, and the FDP events, over the measured run.
#include <nlohmann/json.hpp>

#include "controller/drive_state.h"
#include "controller/gc/line_pool.h"
#include "controller/streams/streams.h"
#include "controller/placement/fdp.h"

namespace ssdtlm {

namespace {

// Per RUH: the FDP statistics of its data, RUs opened, and per reclaim group its RU's Reclaim Unit Available Media
// Writes (RUAMW, the I/O Management Receive command's Reclaim Unit Handle Status: bytes the host can still write to
// the RU the handle references before it is full; a handle whose RU is full or not open yet references a whole
// empty one, which the model takes from the free RUs at the handle's next write).
nlohmann::json ruh_summary(const DriveState& state, const Streams& st, uint32_t h, uint64_t ru_bytes,
                           uint64_t* host_units) {
  const StreamParams& sp = st.params();
  const StreamStats& s = st.stats();
  const BlockManager& blocks = state.blocks();
  const LinePool& lines = line_pool(blocks);
  const FrontierLayout& l = blocks.layout();
  const bool persistent = sp.gc == GcStreams::PerStream;
  uint64_t host = 0, gc = 0, rus_host = 0, rus_gc = 0;
  nlohmann::json per_rg = nlohmann::json::array();
  for (uint32_t rg = 0; rg < sp.fdp_rgs; ++rg) {
    const uint32_t k = rg * sp.fdp_ruhs + h;
    host += s.writes[k];
    gc += s.gc_writes[k];
    rus_host += lines.lines_opened(rg, l.user_frontier(k));
    if (persistent) rus_gc += lines.lines_opened(rg, l.gc_frontier(k));
    const uint64_t left = lines.open_line_units_left(rg, l.user_frontier(k));
    per_rg.push_back({{"host_bytes_written", s.writes[k] * kUnitBytes},
                      {"gc_bytes_written", s.gc_writes[k] * kUnitBytes},
                      {"ru_available_media_writes", left == kInvalid || left == 0 ? ru_bytes : left * kUnitBytes}});
  }
  *host_units += host;
  return {{"ruh", h},
          {"host_bytes_written", host * kUnitBytes},
          {"media_reallocated_bytes", gc * kUnitBytes},
          {"media_bytes_written", (host + gc) * kUnitBytes},
          {"waf", host ? double(host + gc) / double(host) : 0.0},
          {"rus_opened_by_host", rus_host},
          {"rus_opened_by_gc", rus_gc},
          {"by_reclaim_group", per_rg}};
}

// Reclaim invariant: the blocks of an RU are erased together, so they share an erase count, but for the RUs being
// reclaimed at the end (a scan of the dies' erase counts, at the end only). The RUs where they differ.
uint64_t unevenly_erased_rus(const DriveState& state) {
  const Geometry& g = state.geometry();
  const LinePool& lines = line_pool(state.blocks());
  const uint32_t per = g.dies / lines.line_groups();
  uint64_t uneven = 0;
  for (uint32_t line = 0; line < lines.line_groups() * lines.lines_per_group(); ++line) {
    const uint32_t first = line / lines.lines_per_group() * per;
    const uint32_t n = state.die(first).erase_count(g.block_in_die(lines.line_block(line, first, 0)));
    bool same = true;
    for (uint32_t d = first; d < first + per && same; ++d)
      for (uint32_t i = 0; i < lines.line_depth() && same; ++i)
        same = state.die(d).erase_count(g.block_in_die(lines.line_block(line, d, i))) == n;
    uneven += !same;
  }
  return uneven;
}

}  // namespace

nlohmann::json fdp_report(const DriveState& state, const Streams& st, uint64_t relocated_lines) {
  const Geometry& g = state.geometry();
  const StreamParams& sp = st.params();
  const BlockManager& blocks = state.blocks();
  const LinePool& lines = line_pool(blocks);
  const FrontierLayout& l = blocks.layout();
  const FlashCounters& f = state.counters();
  const uint64_t block_bytes = uint64_t(g.units_per_block) * kUnitBytes;
  const uint64_t page_bytes = uint64_t(g.units_per_page) * kUnitBytes;
  const uint64_t media = f.total_programs() * page_bytes;
  const uint32_t ruhs = sp.fdp_ruhs, rgs = sp.fdp_rgs;
  const bool persistent = sp.gc == GcStreams::PerStream;

  uint64_t host_units = 0;
  nlohmann::json per = nlohmann::json::array();
  for (uint32_t h = 0; h < ruhs; ++h) per.push_back(ruh_summary(state, st, h, sp.fdp_ru_bytes, &host_units));
  // RUs opened by the shared GC stream (initially isolated), and RUs closed before they were full (the controller
  // moved a handle on: a "Reclaim Unit Not Fully Written" event for the RU).
  uint64_t shared_gc_rus = 0, not_full = 0;
  for (uint32_t rg = 0; rg < rgs; ++rg) {
    if (!persistent) shared_gc_rus += lines.lines_opened(rg, l.gc_frontier(0));
    for (uint32_t fr = 0; fr < l.frontiers(); ++fr) not_full += lines.lines_cut(rg, fr);
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
        if (state.valid(base + u) && !sp.allowed_on(state.die(d).stream(u), d, g.dies)) ++outside;
    }
  uint32_t in_reclaim = 0, free_rus = 0;
  for (uint32_t rg = 0; rg < rgs; ++rg) {
    in_reclaim += lines.lines_in_gc(rg);
    free_rus += lines.free_lines(rg);
  }

  const uint64_t host_bytes = host_units * kUnitBytes;
  return {{"enabled", true},
          {"reclaim_groups", rgs},
          {"ruhs", ruhs},
          {"ru_bytes", sp.fdp_ru_bytes},
          {"ru_blocks", lines.line_blocks()},
          {"ruh_type", ruh_type_name(persistent)},
          {"host_bytes_written", host_bytes},
          {"media_bytes_written", media},
          {"media_bytes_erased", f.erases * block_bytes},
          {"waf", host_bytes ? double(media) / double(host_bytes) : 0.0},
          {"ruh", per},
          {"reclaim",
           {{"rus_reclaimed", lines.lines_erased()},
            {"rus_in_reclaim", in_reclaim},
            {"free_rus", free_rus},
            {"rus_opened_by_shared_gc", shared_gc_rus},
            {"rus_unevenly_erased", unevenly_erased_rus(state)}}},
          {"units_outside_reclaim_group", outside},
          {"events",
           {{"ru_not_fully_written", not_full},
            {"media_reallocated", relocated_lines},
            {"media_reallocated_units", f.gc_units_moved},
            {"invalid_placement_identifier", invalid}}}};
}

}  // namespace ssdtlm
