// The workload library on the platform: skewed distributions and GC, JESD219 with sub-page writes,
// and replay of real block traces.
#include <catch2/catch.hpp>

#include <fstream>

#include "controller/precondition.h"
#include "workload/synthetic/synthetic_workload.h"
#include "../controller/ff_drive.h"
#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// Steady-state greedy WAF of 4 KiB writes drawn from `distribution`, by fast-forward on a 2-die drive.
double fast_forward_waf(const std::string& distribution) {
  FfDrive d({"geometry.channels=2", "geometry.dies_per_channel=1", "geometry.planes_per_die=1",
             "geometry.blocks_per_plane=600", "geometry.pages_per_block=64", "geometry.page_bytes=8192",
             "geometry.over_provisioning=0.125"});
  const Geometry& g = d.g;
  PageFtl& ftl = *d.ftl;
  SyntheticSpec s;
  s.distribution = distribution;
  s.random_map = false;
  s.range_bytes = g.logical_bytes();
  SyntheticWorkload w(s);
  auto quiet = [](uint64_t, uint64_t) {};
  precondition(ftl.fast_forward(), nullptr, true, 4.0, &w, quiet);
  ftl.state().counters() = FlashCounters();
  auto r = precondition(ftl.fast_forward(), nullptr, false, 2.0, &w, quiet);
  return double(ftl.state().counters().programs[0] + ftl.state().counters().programs[2]) * g.units_per_page / double(r.units_written);
}

}  // namespace

TEST_CASE("skewed writes raise greedy WAF without hot/cold separation", "[platform][workload][gc]") {
  double uniform = fast_forward_waf("random");
  double zoned = fast_forward_waf("zoned:50/5:30/15:20/80");
  double zipf = fast_forward_waf("zipf:0.8");
  double zipf12 = fast_forward_waf("zipf:1.2");
  INFO("uniform " << uniform << " JESD219 zones " << zoned << " zipf:0.8 " << zipf << " zipf:1.2 " << zipf12);
  CHECK(zoned > uniform * 1.05);
  CHECK(zipf > uniform * 1.02);
  // zipf:1.2 concentrates most writes on so few pages that whole blocks die young: WAF falls below uniform.
  CHECK(zipf12 > 1.0);
  CHECK(zipf12 < uniform);
}

TEST_CASE("JESD219 mixed run: sub-page writes merge or read-modify-write and data stays intact", "[platform][workload]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=128",
                             "geometry.pages_per_block=64", "buffer.bytes=4194304", "workload.preset=jesd219",
                             "workload.read_fraction=0.4", "workload.io_count=200000", "precondition.drive_writes=1"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  INFO(s.dump(2));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 100000);
  CHECK(s["ftl"]["subpage_rmw"].get<uint64_t>() > 1000);
  CHECK(s["ftl"]["subpage_merged"].get<uint64_t>() > 10);
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 100);
  CHECK(s["host"]["read_ios"].get<double>() == Approx(80000).epsilon(0.02));
}

TEST_CASE("TRIM unmaps data: trimmed units read back as zeros and GC moves less", "[platform][workload]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=128",
                             "geometry.pages_per_block=64", "buffer.bytes=1048576", "workload.read_fraction=0.3",
                             "workload.trim_fraction=0.2", "workload.io_count=200000"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["host"]["trims"].get<double>() == Approx(40000).epsilon(0.03));
  CHECK(s["ftl"]["trimmed_units"].get<uint64_t>() == s["host"]["trims"].get<uint64_t>());
  CHECK(s["ftl"]["unmapped_reads"].get<uint64_t>() > 1000);
}

TEST_CASE("open-loop replay of the TPC-C trace", "[platform][trace]") {
  const std::string trace = std::string(SSDTLM_SOURCE_DIR) + "/tests/data/tpcc-small.trace";
  REQUIRE(std::ifstream(trace).good());
  Config c = generic_config({"workload.pattern=trace", "workload.trace_path=" + trace, "workload.trace_format=disksim_ns",
                             "workload.trace_timing=open", "workload.trace_fit=wrap", "precondition.drive_writes=0.2",
                             "stats.lpn_writes=true"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  CHECK(s["host"]["ios"] == 6999);
  CHECK(s["host"]["folded_requests"].get<uint64_t>() > 0);  // the trace addresses more than 16 GiB
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() > 1000);
  // Open loop: the run lasts as long as the trace (its last arrival), not as long as the device needs.
  CHECK(s["sim_time_s"].get<double>() > 0.1);
  CHECK(r.lpn_writes_csv.rfind("lpn,writes\n", 0) == 0);
  CHECK(r.lpn_writes_csv.size() > 100);
}

TEST_CASE("independent jobs run side by side on their own queues", "[platform][workload]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=128",
                             "geometry.pages_per_block=64", "buffer.bytes=1048576"});
  c.merge_text(R"({"jobs": [
      {"name": "reader", "queues": 2, "queue_depth": 16, "read_fraction": 1.0, "io_count": 40000},
      {"name": "writer", "queues": 1, "queue_depth": 4, "pattern": "sequential", "block_bytes": 65536,
       "io_count": 2000, "address_range": 134217728}]})",
               "jobs.json");
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  REQUIRE(s["jobs"].size() == 2);
  CHECK(s["jobs"][0]["name"] == "reader");
  CHECK(s["jobs"][0]["read_ios"] == 40000);
  CHECK(s["jobs"][0]["write_ios"] == 0);
  CHECK(s["jobs"][1]["write_ios"] == 2000);
  CHECK(s["host"]["ios"] == 42000);
  CHECK(s["host"]["bytes_written"] == 2000ull * 65536);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["integrity"]["checked_reads"] == 40000);
}
