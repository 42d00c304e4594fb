// Host pacing on the platform (fio's runtime, ramp_time, startdelay, stonewall, thinktime, rate_iops, rate),
// and the progress the host reports for synthetic, trace and open-loop runs.
#include <catch2/catch.hpp>

#include <string>

#include "common/sim_time.h"
#include "common/cli_run.h"
#include "host/host_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

TEST_CASE("runtime: a time-bound job stops issuing when its simulated time is over", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=0", "workload.runtime_ms=20ms"}));
  const auto& s = r.summary;
  CHECK(num(s["sim_time_s"]) >= 0.0199);
  CHECK(num(s["sim_time_s"]) <= 0.021);  // what was in flight completes
  CHECK(s["host"]["ios"].get<uint64_t>() > 500);
  CHECK_FALSE(s["host"].contains("ramp"));
}

TEST_CASE("ramp_time: host statistics start after the ramp, the device counters do not", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=0", "workload.runtime_ms=20", "workload.ramp_ms=5",
                                         "workload.read_fraction=0.5"}));
  const auto& s = r.summary;
  REQUIRE(s["host"].contains("ramp"));
  CHECK(num(s["host"]["ramp"]["ios"]) > 100);
  CHECK(num(s["host"]["ramp"]["bytes_written"]) > 0);
  CHECK(num(s["sim_time_s"]) >= 0.0199);  // the measured span: 20 ms and what was in flight
  CHECK(num(s["sim_time_s"]) <= 0.022);
  CHECK(num(s["timed_run_s"]) - num(s["sim_time_s"]) == Approx(0.005));  // the ramp
  // WAF divides all NAND programs by all host writes of the timed run, ramp included.
  const double written = num(s["host"]["bytes_written"]) + num(s["host"]["ramp"]["bytes_written"]);
  const double programs = num(s["nand"]["programs"]["ud"]) + num(s["nand"]["programs"]["gud"]) +
                          num(s["nand"]["programs"]["md"]) + num(s["nand"]["programs"]["gmd"]);
  CHECK(num(s["waf"]["total"]) == Approx(programs * num(s["nand"]["page_bytes"]) / written));
}

TEST_CASE("rate_iops caps the submissions per simulated second", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=500", "workload.rate_iops=10000"}));
  const auto& s = r.summary;
  CHECK(s["host"]["ios"] == 500);
  CHECK(num(s["host"]["iops"]) == Approx(10000).epsilon(0.02));
  CHECK(num(s["sim_time_s"]) == Approx(0.05).epsilon(0.02));
}

TEST_CASE("rate (bandwidth) caps the bytes per simulated second", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=400", "workload.block_bytes=16k", "workload.rate_mbps=32.768"}));
  const auto& s = r.summary;  // 16 KiB at 32.768 MB/s: one request every 500 us
  CHECK(num(s["host"]["mbps"]) == Approx(32.768).epsilon(0.02));
  CHECK(num(s["host"]["iops"]) == Approx(2000).epsilon(0.02));
}

TEST_CASE("thinktime: the job idles after every thinktime_blocks completions", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=2000", "workload.thinktime_us=100us", "workload.thinktime_blocks=1"}));
  const auto& s = r.summary;
  // One I/O at a time (issue, complete, think): each takes its latency plus the think time.
  const double lat_us = num(s["host"]["latency_us"]["read"]["mean"]);
  CHECK(num(s["host"]["iops"]) == Approx(1e6 / (lat_us + 100)).epsilon(0.03));
  CHECK(num(s["host"]["latency_us"]["read"]["max"]) < 200);  // never queued behind its own job
}

TEST_CASE("thinktime_blocks: batches of that many I/Os, then the think time", "[sim][pacing]") {
  const RunResult r = run_generic(small_host_config({"workload.io_count=4000", "workload.thinktime_us=1ms", "workload.thinktime_blocks=4"}));
  const auto& s = r.summary;
  // 1000 batches of 4 (in flight together), each followed by 1 ms: a little over 1 s in all.
  CHECK(num(s["sim_time_s"]) > 1.0);
  CHECK(num(s["sim_time_s"]) < 1.3);
}

TEST_CASE("stonewall and startdelay: when jobs start", "[sim][pacing]") {
  Config c = small_host_config({});
  c.merge_text(R"({"jobs": [
      {"name": "first", "io_count": 3000},
      {"name": "late", "io_count": 1000, "start_delay_ms": 2},
      {"name": "after", "io_count": 1000, "stonewall": true},
      {"name": "with", "io_count": 1000}]})",
               "jobs.json");
  const RunResult r = run_generic(c);
  const auto& j = r.summary["jobs"];
  REQUIRE(j.size() == 4);
  CHECK(num(j[0]["start_s"]) == 0);
  CHECK(num(j[1]["start_s"]) == Approx(0.002));
  const double first_end = std::max(num(j[0]["start_s"]) + num(j[0]["span_s"]), num(j[1]["start_s"]) + num(j[1]["span_s"]));
  CHECK(num(j[2]["start_s"]) == Approx(first_end).margin(1e-9));  // after the whole first group
  CHECK(num(j[3]["start_s"]) == num(j[2]["start_s"]));              // its group starts with it
  CHECK(r.summary["host"]["ios"] == 6000);
}

TEST_CASE("progress: a runtime-bound run counts simulated time", "[sim][progress]") {
  Config c = small_host_config({"workload.io_count=0", "workload.runtime_ms=10ms"});
  auto p = generic_platform_info().make(read_params(c));
  sc_core::sc_start(sc_core::sc_time(4, sc_core::SC_MS));
  const HostProgress mid = p->host().progress();
  CHECK(mid.text == "0.004/0.010 simulated s");
  CHECK(mid.fraction == Approx(0.4));
  sc_core::sc_start();
  CHECK(p->host().finished());
}

TEST_CASE("progress: synthetic runs count I/Os", "[sim][progress]") {
  Config c = small_host_config({"workload.io_count=100000"});  // reads of a drive never written: fast
  auto p = generic_platform_info().make(read_params(c));
  sc_core::sc_start(sc_core::sc_time(5, sc_core::SC_MS));
  const HostProgress mid = p->host().progress();
  CHECK_THAT(mid.text, Catch::EndsWith("/100000 I/Os"));
  CHECK(mid.fraction > 0);
  CHECK(mid.fraction < 1);
  sc_core::sc_start();
  CHECK(p->host().progress().text == "100000/100000 I/Os");
  CHECK(p->host().progress().fraction == 1);
}

TEST_CASE("progress: a trace run counts trace requests, not workload.io_count", "[sim][progress]") {
  const std::string trace = std::string(SSDTLM_SOURCE_DIR) + "/tests/data/tpcc-small.trace";
  Config c = small_host_config({"workload.pattern=trace", "workload.trace_path=" + trace, "workload.trace_format=disksim_ns",
                    "workload.trace_fit=scale", "workload.io_count=1000000"});
  auto p = generic_platform_info().make(read_params(c));
  sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_MS));
  const HostProgress mid = p->host().progress();
  CHECK_THAT(mid.text, Catch::EndsWith("/6999 trace requests"));
  CHECK(mid.fraction > 0);
  CHECK(mid.fraction < 1);
  sc_core::sc_start();
  CHECK(p->host().progress().text == "6999/6999 trace requests");
  CHECK(p->host().completed() == 6999);
}

TEST_CASE("progress: an open-loop replay counts the trace's time", "[sim][progress]") {
  const std::string trace = std::string(SSDTLM_SOURCE_DIR) + "/tests/data/tpcc-small.trace";
  Config c = small_host_config({"workload.pattern=trace", "workload.trace_path=" + trace, "workload.trace_format=disksim_ns",
                    "workload.trace_fit=wrap", "workload.trace_timing=open", "host.queue_depth=64"});
  auto p = generic_platform_info().make(read_params(c));
  sc_core::sc_start(sc_core::sc_time(68, sc_core::SC_MS));  // about half the trace's 0.136 s
  const HostProgress mid = p->host().progress();
  CHECK_THAT(mid.text, Catch::StartsWith("trace time 0.068/0.136 s"));
  CHECK(mid.fraction == Approx(0.5).epsilon(0.05));
  sc_core::sc_start();
  CHECK(p->host().finished());
}

TEST_CASE("rate_process=poisson: the rate's mean with exponential gaps, whose bursts collide on the dies", "[sim][pacing]") {
  // 2000 reads of written data at 10 kIOPS, queue depth 8: the mean rate holds; a linear cap spaces reads a
  // full 100 us apart, so none waits for another, while Poisson arrivals bunch up and some queue at a die.
  const std::string base = " --set workload.io_count=2000 --set workload.rate_iops=10000 --set host.queues=1"
                           " --set host.queue_depth=8 --set workload.read_fraction=1 --set precondition.fill=true" +
                           kSmallDrive;
  const auto poisson = run_cli(fresh("pacing_poisson") + "/out", base + " --set workload.rate_process=poisson");
  const auto linear = run_cli(fresh("pacing_linear") + "/out", base);
  CHECK(num(poisson["sim_time_s"]) == Approx(0.2).epsilon(0.08));  // 2000 exponential gaps: sd 2.2 % of the sum
  CHECK(num(linear["sim_time_s"]) >= 0.1999);
  CHECK(num(poisson["host"]["latency_us"]["read"]["p99"]) > 1.2 * num(linear["host"]["latency_us"]["read"]["p99"]));
}
