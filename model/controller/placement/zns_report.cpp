// ZnsNamespace's report: summary.json "zns" (docs/reference/placement.md): the zoned namespace's layout, zones per
// state at the end, zone commands and the NVMe statuses of the ones that failed; and zones.csv.
#include <nlohmann/json.hpp>

#include "controller/placement/zns.h"
#include "flash/geometry.h"

namespace ssdtlm {

nlohmann::json ZnsNamespace::report() const {
  const ZoneConfig& c = zm_.config();
  const ZoneCounters& k = zm_.counters();
  nlohmann::json states = nlohmann::json::object();
  const std::vector<uint64_t> n = zm_.states();
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
          {"die_groups", l_.groups},
          {"open_zones", zm_.open_zones()},
          {"active_zones", zm_.active_zones()},
          {"peak_open_zones", k.peak_open},
          {"peak_active_zones", k.peak_active},
          {"states", states},
          {"commands",
           {{"writes", k.writes}, {"appends", k.appends}, {"resets", k.resets}, {"finishes", k.finishes},
            {"explicit_opens", k.explicit_opens}, {"closes", k.closes}, {"implicit_closes", k.implicit_closes},
            {"became_full", k.became_full}}},
          {"failed", k.errors},
          {"slot_waits", slot_waits_},
          {"slot_parks", parks_},
          {"zasl_bytes", c.append_limit_units * kUnitBytes},
          {"reset_erase", l_.erase_at_reset ? "reset" : "lazy"},
          {"errors", errors},
          {"blocks_closed_early", closed_early_}};
}

std::string ZnsNamespace::zones_csv() const {
  const ZoneConfig& c = zm_.config();
  std::string out = "zone,zslba_bytes,capacity_bytes,write_pointer_bytes,state,blocks\n";
  for (uint64_t i = 0; i < c.zones; ++i) {
    const std::vector<uint32_t>* b = zone_blocks(i);
    out += std::to_string(i) + "," + std::to_string(zm_.start(i) * kUnitBytes) + "," +
           std::to_string(c.capacity_units * kUnitBytes) + "," + std::to_string(zm_.write_pointer(i) * kUnitBytes) + "," +
           zone_state_name(zm_.state(i)) + "," + std::to_string(b ? b->size() : 0) + "\n";
  }
  return out;
}

}  // namespace ssdtlm
