// AppWorkload's "app" object of summary.json (workload.pattern=app): what the app wrote in the measured run and,
// with workload.app.placement=zns, the host-side zone management: zone resets, host GC copies (apart from the app's
// writes) and per lifetime class the zones it opened, reset and had collected (since the namespace was empty: the
// zoned run writes its layout itself).
#include <nlohmann/json.hpp>

#include "config/choices.h"
#include "workload/apps/app_workload.h"

namespace ssdtlm {

namespace {
constexpr uint64_t kUnit = 4096;  // the app models' unit

nlohmann::json zones_json(const AppIo& io, const ZoneStore& z) {
  const double user = double(io.written_units * kUnit), gc = double(io.gc_written_units * kUnit);
  nlohmann::json a;
  a["host_gc"] = {{"read_bytes", io.gc_read_units * kUnit},
                  {"written_bytes", io.gc_written_units * kUnit},
                  {"runs", io.gc_runs},
                  {"share", user + gc > 0 ? gc / (user + gc) : 0.0},
                  {"host_waf", user > 0 ? (user + gc) / user : 0.0}};
  a["zone_resets"] = io.zone_resets;
  a["zone_finishes"] = io.zone_finishes;
  a["zone_closes"] = io.zone_closes;
  a["zones"] = {{"zones", z.geometry().zones},
                {"free", z.free_zones()},
                {"active", z.active_zones()},
                {"full", z.full_zones()},
                {"live_bytes", z.live_units() * kUnit}};
  nlohmann::json cls = nlohmann::json::array();
  for (auto& [c, st] : z.classes())
    cls.push_back({{"class", c == ZoneStore::kGcClass ? std::string("gc") : std::to_string(c)},
                   {"written_bytes", st.written_units * kUnit},
                   {"zones_opened", st.zones_opened},
                   {"zones_reset", st.zones_reset},
                   {"zones_collected", st.zones_collected},
                   {"gc_moved_bytes", st.gc_moved_units * kUnit}});
  a["zone_classes"] = cls;
  return a;
}
}  // namespace

void AppWorkload::report(nlohmann::json& into) const {
  const AppIo& io = *io_;
  nlohmann::json a = {{"app", p_.app},
                      {"placement", choice_name(choices::kAppPlacement, p_.placement)},
                      {"written_bytes", io.written_units * kUnit},
                      {"read_bytes", io.read_units * kUnit},
                      {"trimmed_bytes", io.trimmed_units * kUnit},
                      {"used_share", double(io.fs.used_units()) / double(io.fs.total_units())}};
  nlohmann::json hints = nlohmann::json::object();
  for (auto& [h, u] : io.written_by_hint) hints[std::to_string(h)] = u * kUnit;
  a["written_bytes_by_hint"] = hints;
  if (const ZoneStore* z = io.zones.get()) a.update(zones_json(io, *z));
  into["app"] = a;
}

}  // namespace ssdtlm
