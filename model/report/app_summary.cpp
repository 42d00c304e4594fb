// The "app" object of summary.json (workload.pattern=app, workload/apps/): what the app wrote in the measured run
// and, with workload.app.placement=zns, the host-side zone management: zone resets, host GC copies (apart from
// the app's writes) and per lifetime class the zones it opened, reset and had collected (since the namespace
// was empty: the zoned run writes its layout itself).
#include "report/summary.h"
#include "workload/apps/app_workload.h"

namespace ssdtlm {

nlohmann::json app_summary(Platform& p) {
  for (size_t j = 0; j < p.host().jobs(); ++j) {
    auto* w = dynamic_cast<AppWorkload*>(p.host().job(j).workload);
    if (!w) continue;
    AppIo& io = w->io();
    constexpr double unit = 4096.0;
    const double user = double(io.written_units) * unit, gc = double(io.gc_written_units) * unit;
    nlohmann::json a = {{"app", w->params().app},
                        {"placement", w->params().placement},
                        {"written_bytes", io.written_units * 4096ull},
                        {"read_bytes", io.read_units * 4096ull},
                        {"trimmed_bytes", io.trimmed_units * 4096ull},
                        {"used_share", double(io.fs.used_units()) / double(io.fs.total_units())}};
    nlohmann::json hints = nlohmann::json::object();
    for (auto& [h, u] : io.written_by_hint) hints[std::to_string(h)] = u * 4096ull;
    a["written_bytes_by_hint"] = hints;
    if (const ZoneStore* z = io.zones.get()) {
      a["host_gc"] = {{"read_bytes", io.gc_read_units * 4096ull},
                      {"written_bytes", io.gc_written_units * 4096ull},
                      {"runs", io.gc_runs},
                      {"share", user + gc > 0 ? gc / (user + gc) : 0.0},
                      {"host_waf", user > 0 ? (user + gc) / user : 0.0}};
      a["zone_resets"] = io.zone_resets;
      a["zone_finishes"] = io.zone_finishes;
      a["zone_closes"] = io.zone_closes;
      a["zones"] = {{"zones", z->geometry().zones},
                    {"free", z->free_zones()},
                    {"active", z->active_zones()},
                    {"full", z->full_zones()},
                    {"live_bytes", z->live_units() * 4096ull}};
      nlohmann::json cls = nlohmann::json::array();
      for (auto& [c, st] : z->classes())
        cls.push_back({{"class", c == ZoneStore::kGcClass ? std::string("gc") : std::to_string(c)},
                       {"written_bytes", st.written_units * 4096ull},
                       {"zones_opened", st.zones_opened},
                       {"zones_reset", st.zones_reset},
                       {"zones_collected", st.zones_collected},
                       {"gc_moved_bytes", st.gc_moved_units * 4096ull}});
      a["zone_classes"] = cls;
    }
    return a;
  }
  return nullptr;
}

}  // namespace ssdtlm
