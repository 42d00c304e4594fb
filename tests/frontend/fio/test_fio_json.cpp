// fio-json: the layout of fio's --output-format=json (checked against a sample written by hand from fio's
// documentation and stat.c, tests/frontend/fio/data/fio_sample.json), the values behind it, and group_reporting.
#include <catch2/catch.hpp>

#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "platform/platform_run.h"
#include "frontend/fio/fio_json.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// fio fields ssdtlm does not write (none: every key of the sample is in ours).
const std::set<std::string> kNotWritten = {};

const char* type_of(const nlohmann::ordered_json& j) {
  if (j.is_object()) return "object";
  if (j.is_array()) return "array";
  if (j.is_number()) return "number";
  if (j.is_string()) return "string";
  if (j.is_boolean()) return "bool";
  return "null";
}

// Every key of the sample (except kNotWritten) must be in ours with the same JSON type, recursively.
void compare(const nlohmann::ordered_json& sample, const nlohmann::ordered_json& ours, const std::string& at,
             std::vector<std::string>& problems) {
  for (auto it = sample.begin(); it != sample.end(); ++it) {
    const std::string path = at + "/" + it.key();
    if (kNotWritten.count(it.key())) continue;
    // fio writes no "global options" / "job options" when there are none (stat.c json_add_job_opts): here, no job file.
    if ((it.key() == "job options" || it.key() == "global options") && !ours.contains(it.key())) continue;
    if (!ours.contains(it.key())) {
      problems.push_back(path + ": missing");
      continue;
    }
    const auto& mine = ours[it.key()];
    if (std::string(type_of(*it)) != type_of(mine)) {
      problems.push_back(path + ": " + type_of(mine) + " instead of " + type_of(*it));
      continue;
    }
    if (it.key() == "job options" || it.key() == "global options") continue;  // the job file's own options
    if (it->is_object()) compare(*it, mine, path, problems);
    if (it->is_array() && !it->empty()) {
      if (mine.empty())
        problems.push_back(path + ": empty array");
      else
        compare((*it)[0], mine[0], path + "[0]", problems);
    }
  }
}

nlohmann::ordered_json sample() {
  std::ifstream f(std::string(SSDTLM_SOURCE_DIR) + "/tests/frontend/fio/data/fio_sample.json");
  REQUIRE(f.good());
  return nlohmann::ordered_json::parse(f);
}

Config small(std::initializer_list<std::string> sets) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "buffer.bytes=1M", "precondition.drive_writes=0"});
  for (auto& s : sets) c.set(s);
  return c;
}

}  // namespace

TEST_CASE("fio-json has fio's layout and the run's numbers", "[sim][fio-json]") {
  Config c = small({});
  c.merge_text(R"({"jobs": [
      {"name": "mixed", "queues": 1, "queue_depth": 8, "read_fraction": 0.5, "trim_fraction": 0.1, "io_count": 6000},
      {"name": "reader.0", "queues": 1, "queue_depth": 4, "read_fraction": 1, "io_count": 3000, "report_group": 0},
      {"name": "reader.1", "queues": 1, "queue_depth": 4, "read_fraction": 1, "io_count": 3000, "report_group": 0}]})",
               "jobs.json");
  RunOptions o;
  o.fio_json = true;
  const RunResult r = simulate(c, generic_platform_info(), o);
  const auto& fo = r.fio_json;                                 // in fio's key order
  const nlohmann::json f = nlohmann::json::parse(fo.dump());  // for the values

  std::vector<std::string> problems;
  compare(sample(), fo, "", problems);
  INFO([&] {
    std::string s;
    for (auto& p : problems) s += p + "\n";
    return s;
  }());
  CHECK(problems.empty());

  // Percentiles: fio's default list, in fio's order, keyed "%f".
  REQUIRE(f["jobs"].size() == 2);  // the two readers are one group
  const auto& pct = fo["jobs"][0]["write"]["clat_ns"]["percentile"];
  std::vector<std::string> keys;
  for (auto it = pct.begin(); it != pct.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000",
                                         "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
                                         "99.000000", "99.500000", "99.900000", "99.950000", "99.990000"});
  std::vector<std::string> order;
  for (auto it = fo.begin(); it != fo.end(); ++it) order.push_back(it.key());
  // fio's keys (no "global options" without a [global] section: fio's json_add_job_opts), then ssdtlm's one
  CHECK(order == std::vector<std::string>{"fio version", "timestamp", "timestamp_ms", "time", "jobs", "disk_util",
                                          "drive state"});
  CHECK_FALSE(fo["jobs"][0].contains("job options"));  // a job without options of its own has none, as in fio

  // The numbers are the run's.
  const auto& s = r.summary;
  const auto& mixed = s["jobs"][0];
  const auto& w = f["jobs"][0]["write"];
  CHECK(f["jobs"][0]["jobname"] == "mixed");
  CHECK(w["total_ios"] == mixed["write_ios"]);
  CHECK(f["jobs"][0]["read"]["total_ios"] == mixed["read_ios"]);
  CHECK(f["jobs"][0]["trim"]["total_ios"] == mixed["trims"]);
  CHECK(f["jobs"][0]["trim"]["total_ios"].get<uint64_t>() > 300);
  CHECK(w["clat_ns"]["N"] == w["total_ios"]);
  CHECK(w["clat_ns"]["mean"].get<double>() == Approx(mixed["latency_us"]["write"]["mean"].get<double>() * 1e3));
  CHECK(w["clat_ns"]["min"].get<double>() == Approx(mixed["latency_us"]["write"]["min"].get<double>() * 1e3));
  CHECK(w["clat_ns"]["stddev"].get<double>() == Approx(mixed["latency_us"]["write"]["stddev"].get<double>() * 1e3));
  CHECK(w["clat_ns"]["percentile"]["99.000000"].get<double>() ==
        Approx(mixed["latency_us"]["write"]["p99"].get<double>() * 1e3));
  CHECK(w["lat_ns"]["mean"] == w["clat_ns"]["mean"]);
  CHECK(w["io_bytes"] == w["total_ios"].get<uint64_t>() * 4096);
  CHECK(w["io_kbytes"] == w["total_ios"].get<uint64_t>() * 4);
  const double runtime_s = mixed["span_s"].get<double>();
  CHECK(w["iops"].get<double>() == Approx(w["total_ios"].get<double>() / runtime_s));
  CHECK(w["bw"].get<double>() == Approx(w["bw_bytes"].get<double>() / 1024).margin(1));
  CHECK(w["runtime"].get<double>() == Approx(runtime_s * 1e3).margin(1));
  CHECK(f["jobs"][0]["job_runtime"] == w["runtime"]);
  double bins = 0;
  for (const char* unit : {"latency_ns", "latency_us", "latency_ms"})
    for (auto& [k, v] : f["jobs"][0][unit].items()) bins += v.get<double>();
  CHECK(bins == Approx(100));

  // group_reporting: the two readers are merged.
  const auto& readers = f["jobs"][1];
  CHECK(readers["jobname"] == "reader.0");
  CHECK(readers["read"]["total_ios"] == 6000);
  CHECK(readers["read"]["clat_ns"]["N"] == 6000);
  CHECK(readers["write"]["total_ios"] == 0);

  // disk_util: the device as a whole.
  const auto& d = f["disk_util"][0];
  CHECK(d["write_ios"] == s["host"]["write_ios"]);
  CHECK(d["read_ios"] == s["host"]["read_ios"]);
  CHECK(d["write_sectors"] == s["host"]["bytes_written"].get<uint64_t>() / 512);
  CHECK(d["util"].get<double>() == Approx(100 * s["utilization"]["die_array"].get<double>()));
  CHECK(f["fio version"].get<std::string>().rfind("ssdtlm-", 0) == 0);
}
