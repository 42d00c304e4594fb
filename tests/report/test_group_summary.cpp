// summary.json "groups": per stonewall group its jobs' figures and the device's WAF over its span (GroupRecorder
// snapshots the counters at each group's end). A sequential fill then random writes after a stonewall: the
// groups' host bytes and NAND programs add up to the run's, the fill's WAF is the sequential one, the random
// phase's carries the GC.
#include <catch2/catch.hpp>

#include <string>

#include "platform/platform_run.h"
#include "report/summary.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

TEST_CASE("summary groups: per stonewall group figures and WAF that add up to the run's", "[sim][summary][groups]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "buffer.bytes=1M", "precondition.drive_writes=0"});
  c.merge_text(R"({"jobs": [
      {"name": "fill", "queues": 1, "queue_depth": 8, "pattern": "sequential", "read_fraction": 0, "io_count": 8000},
      {"name": "rand", "queues": 1, "queue_depth": 8, "pattern": "random", "read_fraction": 0, "io_count": 30000,
       "stonewall": true},
      {"name": "reads", "queues": 1, "queue_depth": 4, "pattern": "random", "read_fraction": 1, "io_count": 3000}]})",
               "jobs.json");
  const RunResult r = run_generic(c);
  const auto& s = r.summary;
  REQUIRE(s.contains("groups"));
  const auto& g = s["groups"];
  REQUIRE(g.size() == 2);
  CHECK(g[0]["jobs"] == nlohmann::json::array({"fill"}));
  CHECK(g[1]["jobs"] == nlohmann::json::array({"rand", "reads"}));
  CHECK(g[0]["write_ios"] == 8000);
  CHECK(g[1]["write_ios"] == 30000);
  CHECK(g[1]["read_ios"] == 3000);
  CHECK(g[0]["read_ios"] == 0);
  // The groups follow each other and tile the timed run.
  CHECK(g[0]["end_s"].get<double>() <= g[1]["start_s"].get<double>() + 1e-12);
  CHECK(g[1]["device"]["from_s"] == g[0]["device"]["to_s"]);
  uint64_t written = 0, programs[4] = {0, 0, 0, 0};
  const char* kinds[4] = {"ud", "md", "gud", "gmd"};
  for (const auto& one : g) {
    written += one["device"]["host_bytes_written"].get<uint64_t>();
    for (int k = 0; k < 4; ++k) programs[k] += one["device"]["nand_programs"][kinds[k]].get<uint64_t>();
  }
  CHECK(written == s["host"]["bytes_written"].get<uint64_t>());
  for (int k = 0; k < 4; ++k) CHECK(programs[k] == s["nand"]["programs"][kinds[k]].get<uint64_t>());
  // The fill moves no valid data; the random writes on the filled drive do (GC), so their WAF is higher and the
  // run's lies between the two.
  const double waf0 = g[0]["waf"]["total"].get<double>(), waf1 = g[1]["waf"]["total"].get<double>();
  const double whole = s["waf"]["total"].get<double>();
  CHECK(g[0]["device"]["nand_programs"]["gud"] == 0);
  CHECK(g[1]["device"]["nand_programs"]["gud"].get<uint64_t>() > 0);
  CHECK(waf1 > waf0);
  CHECK(whole > waf0);
  CHECK(whole < waf1);
  const double page = s["nand"]["page_bytes"].get<double>();
  CHECK(waf1 == Approx((g[1]["device"]["nand_programs"]["ud"].get<double>() + g[1]["device"]["nand_programs"]["md"].get<double>() +
                        g[1]["device"]["nand_programs"]["gud"].get<double>() + g[1]["device"]["nand_programs"]["gmd"].get<double>()) *
                       page / g[1]["device"]["host_bytes_written"].get<double>()));
  // Host figures of a group: its jobs' I/Os over its span.
  CHECK(g[1]["iops"].get<double>() == Approx(33000 / g[1]["span_s"].get<double>()));
  CHECK(g[1]["latency_us"]["read"]["count"] == 3000);
  // The text summary has a line per group.
  const std::string text = summary_text(s);
  INFO(text);
  CHECK(text.find("group 0     ") != std::string::npos);
  CHECK(text.find("(rand,reads): 33000 I/Os") != std::string::npos);
  CHECK(text.find("(the whole run; per group above)") != std::string::npos);
}

TEST_CASE("summary groups: a run of one group has none (its figures are the run's)", "[sim][summary][groups]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "buffer.bytes=1M", "precondition.drive_writes=0",
                             "workload.io_count=2000"});
  const RunResult r = run_generic(c);
  CHECK_FALSE(r.summary.contains("groups"));
  CHECK(summary_text(r.summary).find("group ") == std::string::npos);
}
