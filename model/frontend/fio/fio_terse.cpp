// fio's terse report (stat.c show_thread_status_terse_all, show_ddir_status_terse; HOWTO "Terse output"):
// one ';'-separated line per job. Version 3 (fio's default): terse version, fio version, jobname, groupid,
// error; read and write status (KiB, KiB/s, IOPS, runtime ms; slat, clat min/max/mean/stdev in usec; 20
// clat percentile fields "P%=usec"; lat; bw min/max/agg %/mean/stdev); cpu; 7 I/O depths; 10 usec and 12 msec
// latency bins; the disk's utilization. Version 2 has no fio version and no disk fields; 4 adds trim status;
// 5 adds bw samples and the iops statistics to each direction.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "frontend/fio/fio_json.h"
#include "frontend/fio/fio_text.h"

namespace ssdtlm {

namespace {

using Json = nlohmann::ordered_json;
using ull = unsigned long long;

constexpr auto& u = fio_json_u;
constexpr auto& d = fio_json_d;


// min, max, mean, stdev in usec (ns / 1000, fio's integer division for min and max); zeros without samples.
void lat4(std::string& s, const Json& lat) {
  if (u(lat, "N"))
    appendf(s, ";%llu;%llu;%f;%f", u(lat, "min") / 1000, u(lat, "max") / 1000, d(lat, "mean") / 1000, d(lat, "stddev") / 1000);
  else
    appendf(s, ";%llu;%llu;%f;%f", 0ull, 0ull, 0.0, 0.0);
}

// One direction; `dir` null: a direction the job does not report (all zeros).
void ddir(std::string& s, const Json* dir, const FioTextEntry& e, uint64_t group_agg, int version) {
  static const Json none = Json::object();
  const Json& x = dir ? *dir : none;
  const ull runt = u(x, "runtime"), bytes = u(x, "io_bytes");
  const ull bw = runt ? ((1000 * bytes) / runt) / 1024 : 0, iops = runt ? (1000 * u(x, "total_ios")) / runt : 0;
  appendf(s, ";%llu;%llu;%llu;%llu", bytes >> 10, bw, iops, runt);
  const Json& slat = x.contains("slat_ns") ? x.at("slat_ns") : none;
  const Json& clat = x.contains("clat_ns") ? x.at("clat_ns") : none;
  const Json& lat = x.contains("lat_ns") ? x.at("lat_ns") : none;
  lat4(s, slat);
  lat4(s, clat);
  // fio's 20 percentile fields: lat's with lat_percentiles, else clat's with clat_percentiles; sorted, in usec.
  const Json* pct = e.report.lat_percentiles ? &lat : e.report.clat_percentiles ? &clat : nullptr;
  std::vector<double> list = e.report.percentiles.empty() ? fio_percentiles() : e.report.percentiles;
  std::sort(list.begin(), list.end());
  if (!pct) list.clear();
  for (size_t i = 0; i < 20; ++i) {
    if (i >= list.size()) {
      appendf(s, ";0%%=0");
      continue;
    }
    char key[32];
    std::snprintf(key, sizeof key, "%f", list[i]);
    ull v = 0;
    if (pct->contains("percentile") && pct->at("percentile").contains(key)) v = pct->at("percentile").at(key).get<ull>();
    appendf(s, ";%f%%=%llu", list[i], v / 1000);
  }
  lat4(s, lat);
  const ull samples = u(x, "bw_samples");
  if (samples) {
    double agg = 100.0;  // fio: the mean sample as a share of the group's aggregate KiB/s, at most 100 %
    if (group_agg) agg = std::min(100.0, d(x, "bw_mean") * 100 / double(group_agg / 1024));
    appendf(s, ";%llu;%llu;%f%%;%f;%f", u(x, "bw_min"), u(x, "bw_max"), agg, d(x, "bw_mean"), d(x, "bw_dev"));
  } else {
    appendf(s, ";%llu;%llu;%f%%;%f;%f", 0ull, 0ull, 0.0, 0.0, 0.0);
  }
  if (version == 5) {
    appendf(s, ";%llu", samples);
    if (u(x, "iops_samples"))
      appendf(s, ";%llu;%llu;%f;%f;%llu", u(x, "iops_min"), u(x, "iops_max"), d(x, "iops_mean"), d(x, "iops_stddev"),
          u(x, "iops_samples"));
    else
      appendf(s, ";%llu;%llu;%f;%f;%llu", 0ull, 0ull, 0.0, 0.0, 0ull);
  }
}

// A distribution's shares in fio's order, with stat_calc_dist's / stat_calc_lat's floor for a non-empty bin.
std::vector<double> shares(const Json& bins, double floor) {
  std::vector<double> v;
  for (auto& [k, val] : bins.items()) {
    const double x = val.get<double>();
    v.push_back(x > 0 && x < floor ? floor : x);
  }
  return v;
}

}  // namespace

std::string fio_terse_report(const nlohmann::ordered_json& fio_json, const std::vector<FioTextEntry>& entries,
                             int version) {
  if (version < 2 || version > 5) throw std::invalid_argument("terse version " + std::to_string(version) + ": expected 2, 3, 4 or 5");
  const auto groups = fio_group_stats(fio_json, entries);
  const std::string fio_version = fio_json.value("fio version", std::string("ssdtlm"));
  std::string out;
  const auto& jobs = fio_json.at("jobs");
  for (size_t i = 0; i < jobs.size(); ++i) {
    const Json& job = jobs[i];
    const FioTextEntry e = i < entries.size() ? entries[i] : FioTextEntry();
    const FioGroupStats& rs = groups.at(job.at("groupid").get<int>());
    std::string s;
    const std::string name = job.at("jobname").get<std::string>();
    const int gid = job.at("groupid").get<int>(), error = job.at("error").get<int>();
    if (version == 2)
      appendf(s, "2;%s;%d;%d", name.c_str(), gid, error);
    else
      appendf(s, "%d;%s;%s;%d;%d", version, fio_version.c_str(), name.c_str(), gid, error);
    // Read (or mixed with unified_rw_reporting=mixed), write, trim (not in version 3), and mixed with =both.
    ddir(s, fio_direction(job, 0), e, rs.agg[0], version);
    if (e.report.unified != "mixed") {
      ddir(s, fio_direction(job, 1), e, rs.agg[1], version);
      if (version != 3) ddir(s, fio_direction(job, 2), e, rs.agg[2], version);
    }
    if (e.report.unified == "both" && job.contains("mixed"))
      ddir(s, &job.at("mixed"), e, rs.agg[0] + rs.agg[1] + rs.agg[2], version);
    appendf(s, ";%f%%;%f%%;%llu;%llu;%llu", d(job, "usr_cpu"), d(job, "sys_cpu"), u(job, "ctx"), u(job, "majf"),
        u(job, "minf"));
    for (double x : shares(job.at("iodepth_level"), 0.1)) appendf(s, ";%3.1f%%", x);
    // usec bins, the nsec bins' shares added to the first (fio's stat_calc_lat_nu), then msec bins.
    std::vector<double> us = shares(job.at("latency_us"), 0.01);
    for (auto& [k, val] : job.at("latency_ns").items()) us[0] += val.get<double>();
    for (double x : us) appendf(s, ";%3.2f%%", x);
    for (double x : shares(job.at("latency_ms"), 0.01)) appendf(s, ";%3.2f%%", x);
    if (version >= 3 && fio_json.contains("disk_util") && !fio_json["disk_util"].empty()) {
      const Json& du = fio_json["disk_util"][0];
      appendf(s, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", du.at("name").get<std::string>().c_str(),
          u(du, "read_ios"), u(du, "write_ios"), u(du, "read_merges"), u(du, "write_merges"), u(du, "read_ticks"),
          u(du, "write_ticks"), u(du, "in_queue"), std::min(100.0, d(du, "util")));
    }
    if (!e.description.empty()) {
      if (version == 2) s += "\n";
      appendf(s, ";%s", e.description.c_str());
    }
    out += s + "\n";
  }
  return out;
}

}  // namespace ssdtlm
