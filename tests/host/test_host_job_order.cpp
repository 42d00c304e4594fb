// fio's job ordering and read-back on the platform: wait_for (a job starts when a named job has finished),
// exitall/exit_what (a finished job stops others), verify and verify_backlog (a writing job reads back what it
// wrote, with the integrity checker on).
#include <catch2/catch.hpp>

#include <string>

#include "host/host_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

double end_s(const nlohmann::json& job) { return num(job["start_s"]) + num(job["span_s"]); }

}  // namespace

TEST_CASE("wait_for: a job starts when the named job and its clones have finished, not the others", "[sim][pacing][order]") {
  Config c = small_host_config({});
  c.merge_text(R"({"jobs": [
      {"name": "a.0", "io_count": 2000},
      {"name": "a.1", "io_count": 3000},
      {"name": "long", "io_count": 20000},
      {"name": "b", "io_count": 1000, "wait_for": "a"}]})",
               "jobs.json");
  const RunResult r = run_generic(c);
  const auto& j = r.summary["jobs"];
  REQUIRE(j.size() == 4);
  const double a_end = std::max(end_s(j[0]), end_s(j[1]));
  CHECK(num(j[3]["start_s"]) == Approx(a_end).margin(1e-9));
  CHECK(num(j[3]["start_s"]) < end_s(j[2]));  // it does not wait for "long"
}

TEST_CASE("wait_for must name an earlier job", "[sim][pacing][order]") {
  Config c = small_host_config({});
  c.merge_text(R"({"jobs": [{"name": "a", "io_count": 10, "wait_for": "b"}, {"name": "b", "io_count": 10}]})", "jobs.json");
  CHECK_THROWS_WITH(read_params(c), Catch::Contains("jobs[0].wait_for") && Catch::Contains("an earlier job"));
}

TEST_CASE("exit_what=group: the first job to finish stops the rest of its stonewall group", "[sim][pacing][order]") {
  Config c = small_host_config({});
  c.merge_text(R"({"jobs": [
      {"name": "short", "io_count": 1000, "exit_what": "group"},
      {"name": "long", "io_count": 1000000},
      {"name": "next", "io_count": 500, "stonewall": true}]})",
               "jobs.json");
  const RunResult r = run_generic(c);
  const auto& s = r.summary;
  const auto& j = s["jobs"];
  CHECK(j[0]["ios"] == 1000);
  CHECK(j[1]["exited"] == true);
  CHECK(num(j[1]["ios"]) < 2000);                                  // stopped, what was in flight completed
  CHECK(num(j[1]["ios"]) > 500);
  // It stopped issuing when "short" finished: its last completion is within its slowest I/O of that.
  CHECK(end_s(j[1]) <= end_s(j[0]) + num(j[1]["latency_us"]["read"]["max"]) * 1e-6 + 1e-9);
  CHECK(j[2]["ios"] == 500);                                       // the next group still runs
  CHECK(j[2]["exited"] == false);
}

TEST_CASE("exit_what=all: the first job to finish stops every job, waiting ones never start", "[sim][pacing][order]") {
  Config c = small_host_config({});
  c.merge_text(R"({"jobs": [
      {"name": "short", "io_count": 1000, "exit_what": "all"},
      {"name": "long", "io_count": 1000000},
      {"name": "next", "io_count": 500, "stonewall": true}]})",
               "jobs.json");
  const RunResult r = run_generic(c);
  const auto& j = r.summary["jobs"];
  CHECK(j[1]["exited"] == true);
  CHECK(num(j[1]["ios"]) < 2000);
  CHECK(j[2]["exited"] == true);
  CHECK(j[2]["ios"] == 0);
}

TEST_CASE("verify: a writing job reads back every block it wrote, once, after its writes", "[sim][verify]") {
  // 4 KiB random writes with fio's random map: 2048 distinct blocks of an 8 MiB region, each read back once.
  const RunResult r = run_generic(small_host_config({"workload.read_fraction=0", "workload.io_count=0", "workload.io_bytes=8M",
                                     "workload.address_range=8M", "workload.random_map=true",
                                     "workload.verify=true", "check.integrity=true"}));
  const auto& s = r.summary;
  CHECK(s["host"]["write_ios"] == 2048);
  CHECK(s["host"]["read_ios"] == 2048);
  CHECK(s["host"]["bytes_read"] == 8 << 20);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(num(s["integrity"]["checked_reads"]) >= 2048);
}

TEST_CASE("verify: overwritten blocks are read back once, at the size of their last write", "[sim][verify]") {
  // Without the random map, 4000 writes of 16 KiB over 8 MiB overwrite blocks: fewer distinct ones come back.
  const RunResult r = run_generic(small_host_config({"workload.read_fraction=0", "workload.io_count=4000", "workload.block_bytes=16k",
                                     "workload.address_range=8M", "workload.verify=true", "check.integrity=true"}));
  const auto& s = r.summary;
  CHECK(s["host"]["write_ios"] == 4000);
  CHECK(num(s["host"]["read_ios"]) < 4000);
  CHECK(num(s["host"]["bytes_read"]) <= 8 << 20);
  CHECK(num(s["host"]["bytes_read"]) > 7 << 20);  // nearly every block was written at least once
  CHECK(s["integrity"]["errors"] == 0);
}

TEST_CASE("verify_backlog: every N writes are read back before the job goes on", "[sim][verify]") {
  const RunResult r = run_generic(small_host_config({"workload.read_fraction=0", "workload.io_count=1000", "workload.verify=true",
                                     "workload.verify_backlog=16", "host.queue_depth=1", "check.integrity=true"}));
  const auto& s = r.summary;
  CHECK(s["host"]["write_ios"] == 1000);
  CHECK(s["host"]["read_ios"] == 1000);
  CHECK(s["integrity"]["errors"] == 0);
}
