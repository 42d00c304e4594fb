#include "report/group_summary.h"

#include <algorithm>

#include "common/sim_time.h"
#include "report/summary.h"

namespace ssdtlm {

GroupRecorder::GroupRecorder(Platform& p) : p_(p), start_(now()), groups_(p.host().groups()) {
  p.host().set_group_observer([this](size_t g, bool begins, uint64_t at) {
    Group& r = groups_[g];
    if (begins) {
      r.begun = true;
      r.begin_ps = at;
    } else {
      r.ended = true;
      r.end = now();
      r.end.at_ps = at;
    }
  });
}

DeviceSnapshot GroupRecorder::now() const {
  DeviceSnapshot s;
  s.at_ps = now_ps();
  const HostStats& h = p_.host().stats();
  s.host_written = h.bytes[1];
  s.host_read = h.bytes[0];
  s.flash = p_.ftl().flash_counters();
  return s;
}

nlohmann::json group_summary(Platform& p, const GroupRecorder& r) {
  const NvmeHost& host = p.host();
  const Geometry& g = p.geometry();
  const double page_bytes = double(g.units_per_page) * kUnitBytes;
  const bool slc = p.ftl().slc_cache();
  nlohmann::json out = nlohmann::json::array();
  DeviceSnapshot from = r.start();
  const DeviceSnapshot at_end = r.now();
  for (size_t gi = 0; gi < r.groups().size(); ++gi) {
    const GroupRecorder::Group& grp = r.groups()[gi];
    // The device's span: from the previous group's end to this one's; the last group's (or one still open) to
    // the run's end, so that the groups add up to the run.
    const DeviceSnapshot to = grp.ended && gi + 1 < r.groups().size() ? grp.end : at_end;
    // The host's figures: the group's jobs after their ramps, merged.
    HostStats s;
    bool any = false;
    nlohmann::json names = nlohmann::json::array();
    for (size_t j = 0; j < host.jobs(); ++j) {
      if (host.job_group(j) != gi) continue;
      names.push_back(host.job(j).name);
      const HostStats& js = host.job_stats(j);
      if (js.ios[0] + js.ios[1] + js.trims == 0) continue;
      for (int k = 0; k < 2; ++k) {
        s.latency[k].merge(js.latency[k]);
        s.ios[k] += js.ios[k];
        s.bytes[k] += js.bytes[k];
      }
      s.trims += js.trims;
      s.first_submit_ps = any ? std::min(s.first_submit_ps, js.first_submit_ps) : js.first_submit_ps;
      s.last_complete_ps = std::max(s.last_complete_ps, js.last_complete_ps);
      any = true;
    }
    const double span = any ? double(s.last_complete_ps - s.first_submit_ps) / 1e12 : 0.0;
    const auto rate = [&](double x) { return span > 0 ? x / span : 0.0; };
    const double written = double(to.host_written - from.host_written);
    const FlashCounters flash = to.flash.since(from.flash);
    out.push_back({{"group", gi},
                   {"jobs", names},
                   {"started", grp.begun},  // false: stopped before it began (exit_what=all, steady state)
                   {"start_s", double(grp.begun ? grp.begin_ps : from.at_ps) / 1e12},
                   {"end_s", double(to.at_ps) / 1e12},
                   {"ios", s.ios[0] + s.ios[1]},
                   {"read_ios", s.ios[0]},
                   {"write_ios", s.ios[1]},
                   {"trims", s.trims},
                   {"span_s", span},
                   {"iops", rate(double(s.ios[0] + s.ios[1]))},
                   {"mbps", rate(double(s.bytes[0] + s.bytes[1])) / 1e6},
                   {"latency_us", {{"read", latency_json(s.latency[0])}, {"write", latency_json(s.latency[1])}}},
                   {"device",
                    {{"from_s", double(from.at_ps) / 1e12},
                     {"to_s", double(to.at_ps) / 1e12},
                     {"host_bytes_written", to.host_written - from.host_written},
                     {"host_bytes_read", to.host_read - from.host_read},
                     {"nand_programs", flash.programs_report(slc)},
                     {"erases", flash.erases},
                     {"gc_victims", flash.gc_victims},
                     {"gc_units_moved", flash.gc_units_moved}}},
                   {"waf", flash.waf_report(page_bytes, written, slc)}});
    from = to;
  }
  return out;
}

}  // namespace ssdtlm
