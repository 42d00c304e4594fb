// The FTL module's report: the drive state's objects (PageFtl::report, given) completed with what the module itself
// counted (buffer, commands, zone resets); and its gauges for the time series.
#include <nlohmann/json.hpp>

#include "controller/ftl.h"

namespace ssdtlm {

std::string Ftl::zones_csv() const {
  const ZnsNamespace* z = streams_.zns();
  return z ? z->zones_csv() : "";
}

Ftl::Gauges Ftl::gauges() const {
  Gauges g;
  g.free_blocks = e_.state.blocks().total_free_blocks();
  g.buffer_units = buffer_->occupied();
  g.gc_active_dies = e_.gc.active_dies();
  g.map_lookups = cache_.stats().lookups();
  g.map_hits = cache_.stats().hits();
  g.map_dirty_segments = cache_.dirty_segments();
  return g;
}

void Ftl::report(nlohmann::json& r) const {
  const FtlStats& fs = stats_;
  r["ftl"].update({{"buffer_read_hits", fs.buffer_read_hits},
                   {"buffer_absorbed_writes", fs.buffer_absorbed},
                   {"unmapped_reads", fs.unmapped_reads},
                   {"write_stalls", fs.write_stalls},
                   {"flushed_units", fs.flushed_units},
                   {"buffer_steps", fs.buffer_steps},
                   {"buffer_busy_s", double(fs.buffer_busy_ps) / 1e12},
                   {"subpage_merged", fs.subpage_merged},
                   {"subpage_rmw", fs.subpage_rmw},
                   {"trimmed_units", fs.trimmed_units},
                   {"write_stops", fs.write_stops}});
  r["map"] = cache_.report(ts_, e_.state.counters().reads[uint32_t(ReadKind::Map)]);
  if (read_ahead_) read_ahead_->report(r["read_ahead"]);  // cache.read_ahead (read_ahead/README.md)
  r["map"]["buffer_aged_picks"] = buffer_->policy().aged_picks();
  r["streams"] = streams_.report();
  r["streams"]["requeued_units"] = buffer_->requeued();
  r["streams"]["aged_pages"] = buffer_->aged_pages();
  if (r.contains("zns")) {
    r["zns"]["reset_erases"] = zone_erase_.erases();
    r["zns"]["reset_blocks_kept"] = zone_erase_.kept();
  }
}

}  // namespace ssdtlm
