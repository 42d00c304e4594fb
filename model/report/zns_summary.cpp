// The "zns" object of summary.json (docs/reference/placement.md): the zoned namespace's layout, zones per state at the end,
// zone commands and the NVMe statuses of the ones that failed, over the measured run.
#include "controller/placement/zns.h"
#include "report/summary.h"

namespace ssdtlm {

nlohmann::json zns_summary(Platform& p) {
  PageFtl& ftl = p.ftl().page_ftl();
  const ZnsNamespace& z = *ftl.streams().zns();
  const ZoneManager& zm = z.zones();
  const ZoneConfig& c = zm.config();
  const ZoneCounters& k = zm.counters();
  nlohmann::json states = nlohmann::json::object();
  const std::vector<uint64_t> n = zm.states();
  for (uint32_t s = 0; s < n.size(); ++s) states[zone_state_name(ZoneState(s))] = n[s];
  nlohmann::json errors = nlohmann::json::object();
  for (uint16_t st = kZoneBoundaryError; st <= kInvalidZoneStateTransition; ++st)
    errors[zns_status_name(st)] = k.by_status[st - kZoneBoundaryError];
  errors[zns_status_name(kInvalidField)] = k.invalid_field;
  errors[zns_status_name(kLbaOutOfRange)] = k.out_of_range;

  return {{"enabled", true},
          {"zones", c.zones},
          {"zone_bytes", c.zone_units * kUnitBytes},
          {"zone_capacity_bytes", c.capacity_units * kUnitBytes},
          {"max_open", c.max_open},
          {"max_active", c.max_active},
          {"die_groups", z.layout().groups},
          {"open_zones", zm.open_zones()},
          {"active_zones", zm.active_zones()},
          {"peak_open_zones", k.peak_open},
          {"peak_active_zones", k.peak_active},
          {"states", states},
          {"commands",
           {{"writes", k.writes}, {"appends", k.appends}, {"resets", k.resets}, {"finishes", k.finishes},
            {"explicit_opens", k.explicit_opens}, {"closes", k.closes}, {"implicit_closes", k.implicit_closes},
            {"became_full", k.became_full}}},
          {"failed", k.errors},
          {"slot_waits", z.slot_waits()},
          {"slot_parks", z.parks()},
          {"host_failed_commands", p.host().measured_stats().failed},
          {"host_zone_commands", p.host().measured_stats().zone_commands},
          {"zasl_bytes", c.append_limit_units * kUnitBytes},
          {"reset_erase", z.layout().erase_at_reset ? "reset" : "lazy"},
          {"reset_erases", p.ftl().zone_erases()},
          {"reset_latency_us", latency_json(p.host().measured_stats().trim_latency)},  // resets by a trim of whole zones
          {"reset_blocks_kept", p.ftl().zone_erase_kept()},
          {"errors", errors},
          {"blocks_closed_early", z.blocks_closed_early()},
          {"gc_units_moved", ftl.counters().gc_units_moved}};
}

std::string zns_zones_csv(Platform& p) {
  const ZnsNamespace* z = p.ftl().page_ftl().streams().zns();
  if (!z) return "";
  const ZoneManager& zm = z->zones();
  const ZoneConfig& c = zm.config();
  std::string out = "zone,zslba_bytes,capacity_bytes,write_pointer_bytes,state,blocks\n";
  for (uint64_t i = 0; i < c.zones; ++i) {
    const std::vector<uint32_t>* b = z->zone_blocks(i);
    out += std::to_string(i) + "," + std::to_string(zm.start(i) * kUnitBytes) + "," +
           std::to_string(c.capacity_units * kUnitBytes) + "," + std::to_string(zm.write_pointer(i) * kUnitBytes) + "," +
           zone_state_name(zm.state(i)) + "," + std::to_string(b ? b->size() : 0) + "\n";
  }
  return out;
}

}  // namespace ssdtlm
