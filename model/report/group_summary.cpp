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
  const FlashCounters& f = p_.ftl().page_ftl().counters();
  for (int k = 0; k < 4; ++k) s.programs[k] = f.programs[k];
  s.programs[4] = f.fold_programs;
  s.erases = f.erases;
  s.gc_victims = f.gc_victims;
  s.gc_units_moved = f.gc_units_moved;
  return s;
}

nlohmann::json group_summary(Platform& p, const GroupRecorder& r) {
  const NvmeHost& host = p.host();
  const Geometry& g = p.geometry();
  const double page_bytes = double(g.units_per_page) * kUnitBytes;
  const bool slc = p.ftl().page_ftl().slc() != nullptr;
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
    uint64_t programs[5];
    for (int k = 0; k < 5; ++k) programs[k] = to.programs[k] - from.programs[k];
    const auto waf = [&](uint64_t n) { return written > 0 ? double(n) * page_bytes / written : 0.0; };
    nlohmann::json progs = {{"ud", programs[0]}, {"md", programs[1]}, {"gud", programs[2]}, {"gmd", programs[3]}};
    nlohmann::json w = {{"total", waf(programs[0] + programs[1] + programs[2] + programs[3] + programs[4])},
                        {"ud", waf(programs[0])},
                        {"md", waf(programs[1])},
                        {"gud", waf(programs[2])},
                        {"gmd", waf(programs[3])}};
    if (slc) {
      progs["fold"] = programs[4];
      w["fold"] = waf(programs[4]);
    }
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
                     {"nand_programs", progs},
                     {"erases", to.erases - from.erases},
                     {"gc_victims", to.gc_victims - from.gc_victims},
                     {"gc_units_moved", to.gc_units_moved - from.gc_units_moved}}},
                   {"waf", w}});
    from = to;
  }
  return out;
}

}  // namespace ssdtlm
