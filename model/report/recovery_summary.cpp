// summary.json's "recovery" section: one entry per power loss, and the totals.
#include "report/summary.h"

namespace ssdtlm {

nlohmann::json recovery_summary(const std::vector<RecoveryReport>& rs, size_t scheduled) {
  auto ms = [](uint64_t ps) { return double(ps) / 1e9; };
  nlohmann::json events = nlohmann::json::array();
  RecoveryReport t;
  uint64_t max_ps = 0;
  for (const RecoveryReport& r : rs) {
    events.push_back({{"at_ms", ms(r.at_ps)},
                      {"time_ms", ms(r.time_ps)},
                      {"dump_ms", ms(r.dump_ps)},
                      {"dump_bytes", r.dump_bytes},
                      {"dump_programs", r.dump_programs},
                      {"buffer_units", r.buffer_units},
                      {"buffer_dirty_units", r.buffer_dirty_units},
                      {"buffer_saved", r.buffer_saved},
                      {"segments_dirty", r.segments_dirty},
                      {"segments_saved", r.segments_saved},
                      {"segments_read", r.segments_read},
                      {"blocks_scanned", r.blocks_scanned},
                      {"pages_scanned", r.pages_scanned},
                      {"units_replayed", r.units_replayed},
                      {"torn_units", r.torn_units},
                      {"torn_gc_programs", r.torn_gc_programs},
                      {"torn_erases", r.torn_erases},
                      {"map_programs", r.map_programs},
                      {"reads", r.reads},
                      {"lost_acknowledged_writes", r.lost_acknowledged},
                      {"lost_unacknowledged_writes", r.lost_unacknowledged},
                      {"trim_records", r.trim_records},
                      {"trim_records_saved", r.trim_records_saved},
                      {"lost_trims", r.lost_trims},
                      {"mismatches", r.mismatches}});
    t.time_ps += r.time_ps;
    t.dump_ps += r.dump_ps;
    t.dump_programs += r.dump_programs;
    t.pages_scanned += r.pages_scanned;
    t.segments_read += r.segments_read;
    t.units_replayed += r.units_replayed;
    t.lost_acknowledged += r.lost_acknowledged;
    t.lost_unacknowledged += r.lost_unacknowledged;
    t.lost_trims += r.lost_trims;
    t.buffer_units += r.buffer_units;
    t.buffer_dirty_units += r.buffer_dirty_units;
    t.reads += r.reads;
    t.map_programs += r.map_programs;
    t.mismatches += r.mismatches;
    t.torn_units += r.torn_units;
    t.torn_gc_programs += r.torn_gc_programs;
    t.torn_erases += r.torn_erases;
    max_ps = std::max(max_ps, r.time_ps);
  }
  return {{"power_losses", rs.size()},
          {"scheduled", scheduled},
          {"time_ms", ms(t.time_ps)},
          {"max_time_ms", ms(max_ps)},
          {"dump_ms", ms(t.dump_ps)},
          {"dump_programs", t.dump_programs},
          {"reads", t.reads},
          {"map_programs", t.map_programs},
          {"pages_scanned", t.pages_scanned},
          {"segments_read", t.segments_read},
          {"units_replayed", t.units_replayed},
          {"buffer_units", t.buffer_units},
          {"buffer_dirty_units", t.buffer_dirty_units},
          {"lost_acknowledged_writes", t.lost_acknowledged},
          {"lost_unacknowledged_writes", t.lost_unacknowledged},
          {"lost_trims", t.lost_trims},
          {"mismatches", t.mismatches},
          {"torn_units", t.torn_units},
          {"torn_gc_programs", t.torn_gc_programs},
          {"torn_erases", t.torn_erases},
          {"events", events}};
}

}  // namespace ssdtlm
