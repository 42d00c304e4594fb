// fio's normal (human-readable) report, laid out as fio 3.42's stat.c lays it out: show_thread_status_normal,
// show_ddir_status, display_lat, show_clat_percentiles, show_lat_*, show_ss_normal, show_group_stats and
// print_disk_util; and the lines fio prints before the run (init.c add_job, backend.c run_threads).
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "frontend/fio/fio_text.h"

namespace ssdtlm {

namespace {

using Json = nlohmann::ordered_json;
using ull = unsigned long long;
constexpr auto& u = fio_json_u;
constexpr auto& d = fio_json_d;

// fio's display_lat: min/max/avg/stdev in nsec, or usec / msec when the values are large enough.
void display_lat(std::string& out, const char* name, const Json& lat) {
  if (u(lat, "N") == 0) return;
  ull min = u(lat, "min"), max = u(lat, "max");
  double mean = d(lat, "mean"), dev = d(lat, "stddev");
  const char* base = "(nsec)";
  if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
    min /= 1000000, max /= 1000000, mean /= 1e6, dev /= 1e6;
    base = "(msec)";
  } else if (min > 2000 && max > 99999 && dev > 1000.0) {
    min /= 1000, max /= 1000, mean /= 1e3, dev /= 1e3;
    base = "(usec)";
  }
  appendf(out, "    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, base,
             fio_num2str(min, 6, 1, false, FioUnit::None).c_str(), fio_num2str(max, 6, 1, false, FioUnit::None).c_str(),
             mean, dev);
}

// Decimal places of a percentile list as fio counts them (the most digits after the point; 2 for its default).
unsigned precision(const std::vector<double>& list) {
  unsigned p = 0;
  for (double q : list)
    for (unsigned k = p; k <= 6; ++k) {
      const double scaled = q * std::pow(10.0, k);
      if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) {
        p = std::max(p, k);
        break;
      }
    }
  return p;
}

// fio's show_clat_percentiles: the table in nsec, usec or msec, as many per row as 80 columns hold.
void show_percentiles(std::string& out, const char* pre, const Json& percentile) {
  std::vector<std::pair<double, ull>> v;
  for (auto& [k, val] : percentile.items()) v.emplace_back(std::atof(k.c_str()), val.get<ull>());
  if (v.empty()) return;
  std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first < b.first; });
  ull minv = ~0ull, maxv = 0;
  std::vector<double> list;
  for (auto& [q, x] : v) {
    minv = std::min(minv, x), maxv = std::max(maxv, x);
    list.push_back(q);
  }
  int scale_down = 0;
  ull divisor = 1;
  const char* unit = "nsec";
  if (minv > 2000000 && maxv > 99999999ull) {
    scale_down = 2, divisor = 1000000, unit = "msec";
  } else if (minv > 2000 && maxv > 99999) {
    scale_down = 1, divisor = 1000, unit = "usec";
  }
  appendf(out, "    %s percentiles (%s):\n     |", pre, unit);
  const unsigned prec = precision(list);
  const int width = std::max(5, int(std::log10(double(std::max<ull>(1, maxv / divisor))) + 1));
  const int per_line = (80 - 7) / int(prec + 10 + unsigned(width));
  for (size_t j = 0; j < v.size(); ++j) {
    if (j != 0 && j % size_t(per_line) == 0) appendf(out, "     |");
    const bool last = j + 1 == v.size();
    ull x = v[j].second;
    for (int i = 0; i < scale_down; ++i) x = (x + 999) / 1000;
    appendf(out, " %*.*fth=[%*llu]%c", int(prec + 3), int(prec), v[j].first, width, x, last ? '\n' : ',');
    if (last) break;
    if (j % size_t(per_line) == size_t(per_line) - 1) appendf(out, "\n");
  }
}

// fio's show_ddir_status for one direction of an entry.
void show_ddir(std::string& out, const Json& dir, const char* name, const FioTextEntry& e, const FioGroupStats& rs,
               const std::string& zone_resets) {
  const ull runt = u(dir, "runtime");
  if (!runt) return;
  const ull bytes = u(dir, "io_bytes"), bw = 1000 * bytes / runt, iops = 1000 * u(dir, "total_ios") / runt;
  appendf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", name, fio_num2str(iops, e.sig_figs, 1, false, FioUnit::None).c_str(),
             fio_num2str(bw, e.sig_figs, 1, rs.pow2, FioUnit::BytePerSec).c_str(),
             fio_num2str(bw, e.sig_figs, 1, !rs.pow2, FioUnit::BytePerSec).c_str(),
             fio_num2str(bytes, e.sig_figs, 1, rs.pow2, FioUnit::Byte).c_str(), runt, zone_resets.c_str());
  display_lat(out, "slat", dir.at("slat_ns"));
  display_lat(out, "clat", dir.at("clat_ns"));
  display_lat(out, " lat", dir.at("lat_ns"));
  for (const char* kind : {"slat", "clat", "lat"}) {
    const Json& lat = dir.at(std::string(kind) + "_ns");
    if (u(lat, "N") && lat.contains("percentile")) show_percentiles(out, kind, lat.at("percentile"));
  }
  if (u(dir, "bw_samples")) {
    const double kb = rs.pow2 ? 1024.0 : 1000.0;
    ull min = u(dir, "bw_min"), max = u(dir, "bw_max");
    double mean = d(dir, "bw_mean"), dev = d(dir, "bw_dev");
    const char* unit = rs.pow2 ? "KiB" : "kB";
    if (mean > kb * kb) {
      min = ull(double(min) / kb), max = ull(double(max) / kb), mean /= kb, dev /= kb;
      unit = "MiB";
    }
    appendf(out, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%llu\n", unit, min,
               max, d(dir, "bw_agg"), mean, dev, u(dir, "bw_samples"));
  }
  if (u(dir, "iops_samples"))
    appendf(out, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, stdev=%5.02f, samples=%llu\n", u(dir, "iops_min"),
               u(dir, "iops_max"), d(dir, "iops_mean"), d(dir, "iops_stddev"), u(dir, "iops_samples"));
}

// fio's show_lat: the non-empty bins of a latency distribution, five per line (a share below 0.01 % shows 0.01).
void show_lat(std::string& out, const Json& bins, const char* unit) {
  int on_line = 0;
  bool shown = false;
  for (auto& [k, val] : bins.items()) {
    double share = val.get<double>();
    if (share <= 0.0) continue;
    if (share < 0.01) share = 0.01;
    if (on_line == 0) appendf(out, "%s  lat (%s)   : ", shown ? "\n" : "", unit);
    shown = true;
    appendf(out, "%s%s=%3.2f%%", on_line ? ", " : "", k.c_str(), share);
    if (++on_line == 5) on_line = 0;
  }
  if (shown) appendf(out, "\n");
}

// fio's stat_calc_dist shares of a depth distribution (a share below 0.1 % shows 0.1).
std::vector<double> dist(const Json& level) {
  std::vector<double> v;
  for (auto& [k, val] : level.items()) {
    const double x = val.get<double>();
    v.push_back(x > 0 && x < 0.1 ? 0.1 : x);
  }
  v.resize(7, 0.0);
  return v;
}

// fio's scale_down_ns, for the latency-target line.
double scale_ns(double ns, const char** unit) {
  if (ns >= 2e9) return *unit = "s", ns / 1e9;
  if (ns >= 2e6) return *unit = "ms", ns / 1e6;
  if (ns >= 2e3) return *unit = "us", ns / 1e3;
  return *unit = "ns", ns;
}

// fio's show_ss_normal.
void show_ss(std::string& out, const Json& ss, const FioTextEntry& e) {
  const std::string text = ss.at("ss").get<std::string>();
  const std::string metric = text.substr(0, text.find_first_of("_:"));
  const bool slope = text.find("_slope") != std::string::npos, pct = !text.empty() && text.back() == '%';
  const Json& data = ss.at("data");
  const double kb = e.pow2 ? 1024.0 : 1000.0;
  const ull bw = u(data, "bw_mean");
  std::string lat;
  if (metric == "lat")  // fio scales with a deviation of 0, which never scales: always nsec
    lat = ", lat=" + fio_num2str(u(data, "lat_mean"), e.sig_figs, 1, false, FioUnit::None) + "nsec";
  appendf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s, %s%s=%.3f%s\n", u(ss, "attained") ? "yes" : "no",
             fio_num2str(ull(double(bw) / kb), e.sig_figs, int(kb), e.pow2, FioUnit::BytePerSec).c_str(),
             fio_num2str(ull(double(bw) / kb), e.sig_figs, int(kb), !e.pow2, FioUnit::BytePerSec).c_str(),
             fio_num2str(u(data, "iops_mean"), e.sig_figs, 1, false, FioUnit::None).c_str(), lat.c_str(),
             metric.c_str(), slope ? " slope" : " mean dev", std::atof(ss.at("criterion").get<std::string>().c_str()),
             pct ? "%" : "");
}

void show_job(std::string& out, const Json& job, const FioTextEntry& e, const FioGroupStats& rs, const std::string& when) {
  ull bytes = 0, ios = 0;
  for (int k = 0; k < 3; ++k)
    if (const Json* dir = fio_direction(job, k)) bytes += u(*dir, "io_bytes"), ios += u(*dir, "total_ios");
  if (!bytes && !ios) return;
  const int error = job.at("error").get<int>();
  if (!error)
    appendf(out, "%s: (groupid=%d, jobs=%d): err=%2d: pid=%d: %s", job.at("jobname").get<std::string>().c_str(),
               job.at("groupid").get<int>(), e.members, error, int(getpid()), when.c_str());
  else  // 110: the latency target missed at depth 1 (fio's lat_fatal)
    appendf(out, "%s: (groupid=%d, jobs=%d): err=%2d (file:io_u.c, func=latency_target, error=max latency exceeded): "
               "pid=%d: %s", job.at("jobname").get<std::string>().c_str(), job.at("groupid").get<int>(), e.members,
               error, int(getpid()), when.c_str());
  if (!e.description.empty()) appendf(out, "  Description  : [%s]\n", e.description.c_str());
  const bool mixed = rs.unified == "mixed";
  // fio's zbd_write_status: a zonemode=zbd job that writes reports its zone resets on each direction's line
  const std::string resets = job.contains("zone_resets") ? "; " + std::to_string(u(job, "zone_resets")) + " zone resets" : "";
  static const char* const kName[3] = {"read", "write", "trim"};
  for (int k = 0; k < 3; ++k)
    if (const Json* dir = fio_direction(job, k); dir && u(*dir, "io_bytes"))
      show_ddir(out, *dir, mixed ? "mixed" : kName[k], e, rs, resets);
  if (rs.unified == "both" && job.contains("mixed")) show_ddir(out, job.at("mixed"), "mixed", e, rs, resets);
  show_lat(out, job.at("latency_ns"), "nsec");
  show_lat(out, job.at("latency_us"), "usec");
  show_lat(out, job.at("latency_ms"), "msec");
  appendf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, majf=%llu, minf=%llu\n", d(job, "usr_cpu"),
             d(job, "sys_cpu"), u(job, "ctx"), u(job, "majf"), u(job, "minf"));
  const auto level = dist(job.at("iodepth_level")), submit = dist(job.at("iodepth_submit")),
             complete = dist(job.at("iodepth_complete"));
  appendf(out, "  IO depths    : 1=%3.1f%%, 2=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, >=64=%3.1f%%\n",
             level[0], level[1], level[2], level[3], level[4], level[5], level[6]);
  for (const auto* row : {&submit, &complete})
    appendf(out, "     %s: 0=%3.1f%%, 4=%3.1f%%, 8=%3.1f%%, 16=%3.1f%%, 32=%3.1f%%, 64=%3.1f%%, >=64=%3.1f%%\n",
               row == &submit ? "submit    " : "complete  ", (*row)[0], (*row)[1], (*row)[2], (*row)[3], (*row)[4],
               (*row)[5], (*row)[6]);
  ull total[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k)
    if (const Json* dir = fio_direction(job, k)) total[k] = u(*dir, "total_ios");
  appendf(out, "     issued rwts: total=%llu,%llu,%llu,0 short=0,0,0,0 dropped=0,0,0,0\n", total[0], total[1], total[2]);
  if (job.contains("latency_depth")) {
    const char *tu, *wu;
    const double target = scale_ns(d(job, "latency_target"), &tu), window = scale_ns(d(job, "latency_window") * 1e3, &wu);
    appendf(out, "     latency   : target=%.2f%s, window=%.2f%s, percentile=%.2f%%, depth=%llu\n", target, tu, window, wu,
               d(job, "latency_percentile"), u(job, "latency_depth"));
  }
  if (job.contains("steadystate")) show_ss(out, job.at("steadystate"), e);
}

// fio's show_group_stats (and show_mixed_group_stats with unified_rw_reporting=both).
void show_group(std::string& out, int groupid, const FioGroupStats& rs) {
  appendf(out, "\nRun status group %d (all jobs):\n", groupid);
  static const char* const kLabel[3] = {"   READ", "  WRITE", "   TRIM"};
  const auto line = [&](const char* label, ull agg, ull min_bw, ull max_bw, ull io, ull min_run, ull max_run) {
    const auto n = [&](ull v, bool p2, FioUnit unit) { return fio_num2str(v, rs.sig_figs, 1, p2, unit); };
    appendf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%llu-%llumsec\n", label,
               n(agg, rs.pow2, FioUnit::BytePerSec).c_str(), n(agg, !rs.pow2, FioUnit::BytePerSec).c_str(),
               n(min_bw, rs.pow2, FioUnit::BytePerSec).c_str(), n(max_bw, rs.pow2, FioUnit::BytePerSec).c_str(),
               n(min_bw, !rs.pow2, FioUnit::BytePerSec).c_str(), n(max_bw, !rs.pow2, FioUnit::BytePerSec).c_str(),
               n(io, rs.pow2, FioUnit::Byte).c_str(), n(io, !rs.pow2, FioUnit::Byte).c_str(), min_run, max_run);
  };
  ull io = 0, agg = 0, min_bw = ~0ull, max_bw = 0, min_run = ~0ull, max_run = 0;
  for (int k = 0; k < 3; ++k) {
    if (!rs.max_run[k]) continue;
    line(rs.unified == "mixed" ? "  MIXED" : kLabel[k], rs.agg[k], rs.min_bw[k], rs.max_bw[k], rs.iobytes[k],
         rs.min_run[k], rs.max_run[k]);
    io += rs.iobytes[k], agg += rs.agg[k];
    min_bw = std::min<ull>(min_bw, rs.min_bw[k]), max_bw = std::max<ull>(max_bw, rs.max_bw[k]);
    min_run = std::min<ull>(min_run, rs.min_run[k]), max_run = std::max<ull>(max_run, rs.max_run[k]);
  }
  if (rs.unified == "both") line("  MIXED", agg, min_bw, max_bw, io, min_run, max_run);
}

}  // namespace

std::string fio_normal_header(const FioJobFile& fio, const std::string& version) {
  std::string out;
  bool threads = false;
  for (size_t j = 0; j < fio.jobs.size(); ++j) {
    const FioJob& job = fio.jobs[j];
    const auto opt = [&](const char* name, const char* def) {
      for (auto it = job.options.rbegin(); it != job.options.rend(); ++it)
        if (it->first == name) return it->second;
      for (auto it = fio.global_options.rbegin(); it != fio.global_options.rend(); ++it)
        if (it->first == name) return it->second;
      return std::string(def);
    };
    std::string thread = opt("thread", "-");
    threads |= thread != "-" && thread != "0";
    if (job.clone == 1) appendf(out, "...\n");
    if (job.clone != 0) continue;
    std::string rw = opt("rw", "");
    if (rw.empty()) rw = opt("readwrite", "read");
    rw = rw.substr(0, rw.find(':'));  // fio's ddir_str: without the sequence modifier
    const bool pow2 = std::atoi(opt("kb_base", "1024").c_str()) != 1000;
    const int sig = std::clamp(std::atoi(opt("significant_figures", "4").c_str()), 1, 10);
    // The job's block sizes: the smallest and largest of its bssplit, or its one size, for every direction.
    uint64_t lo = job.config.value("block_bytes", uint64_t(4096)), hi = lo;
    if (job.config.contains("bssplit"))
      for (const std::string& part : [&] {
             std::vector<std::string> v;
             std::string s = job.config["bssplit"].get<std::string>();
             for (size_t at = 0; at <= s.size();) {
               const size_t next = std::min(s.find(':', at), s.size());
               v.push_back(s.substr(at, next - at));
               at = next + 1;
             }
             return v;
           }()) {
        const uint64_t b = std::strtoull(part.c_str(), nullptr, 10);
        if (b) lo = std::min(lo, b), hi = std::max(hi, b);
      }
    const std::string a = fio_num2str(lo, sig, 1, pow2, FioUnit::Byte), b = fio_num2str(hi, sig, 1, pow2, FioUnit::Byte);
    appendf(out, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, (T) %s-%s, ioengine=%s, iodepth=%s\n", job.name.c_str(),
               job.group, rw.c_str(), a.c_str(), b.c_str(), a.c_str(), b.c_str(), a.c_str(), b.c_str(),
               opt("ioengine", "psync").c_str(), std::to_string(job.config.value("queue_depth", 1u)).c_str());
  }
  appendf(out, "%s\n", version.c_str());
  const size_t n = fio.jobs.size();
  appendf(out, "Starting %zu %s%s\n", n, threads ? "thread" : "process", n > 1 ? (threads ? "s" : "es") : "");
  return out;
}

std::string fio_normal_report(const nlohmann::ordered_json& fio_json, const std::vector<FioTextEntry>& entries) {
  std::string out;
  appendf(out, "\n");
  const auto groups = fio_group_stats(fio_json, entries);
  const std::time_t now = std::time(nullptr);
  char when[32] = "";
  ctime_r(&now, when);
  const auto& jobs = fio_json.at("jobs");
  for (size_t i = 0; i < jobs.size(); ++i) {
    const FioTextEntry e = i < entries.size() ? entries[i] : FioTextEntry();
    show_job(out, jobs[i], e, groups.at(jobs[i].at("groupid").get<int>()), when);
  }
  for (auto& [g, rs] : groups) show_group(out, g, rs);
  if (fio_json.contains("disk_util") && !fio_json["disk_util"].empty()) {
    const Json& du = fio_json["disk_util"][0];
    appendf(out, "\nDisk stats (read/write):\n");
    appendf(out, "  %s: ios=%llu/%llu, sectors=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, in_queue=%llu, util=%3.2f%%\n",
               du.at("name").get<std::string>().c_str(), u(du, "read_ios"), u(du, "write_ios"), u(du, "read_sectors"),
               u(du, "write_sectors"), u(du, "read_merges"), u(du, "write_merges"), u(du, "read_ticks"),
               u(du, "write_ticks"), u(du, "in_queue"), std::min(100.0, d(du, "util")));
  }
  return out;
}

}  // namespace ssdtlm
