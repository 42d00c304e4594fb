// sim.converge (host/convergence.h): the monitor's batches, its stop on a steady series and not on a moving one,
// its report; and on the platform, a run that stops once converged lands within the interval of
// the full-length run's answer.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>

#include "../common/cli_run.h"
#include "host/convergence.h"

using namespace ssdtlm;

namespace {
ConvergeParams stop_params() {
  ConvergeParams p;
  p.mode = ConvergeParams::Mode::Stop;
  p.batch_ios = 100;
  return p;
}

// Completions every 10 us of latency `lat_us(i)` (reads and writes alternating, 4 KiB), each write programming
// `waf` times its bytes; returns the I/O at which the monitor stopped the run (0 = never within n).
template <class Latency>
uint64_t feed(ConvergenceMonitor& m, uint64_t& programmed, uint64_t n, double waf, Latency lat_us) {
  for (uint64_t i = 1; i <= n; ++i) {
    const int dir = int(i % 2);
    if (dir == 1) programmed += uint64_t(4096 * waf);
    if (m.completed(dir, 4096, uint64_t(lat_us(i) * 1000), i * 10000000)) return i;
  }
  return 0;
}
}  // namespace

TEST_CASE("convergence: a steady series stops the run with its values inside their intervals", "[host][converge]") {
  uint64_t programmed = 0;
  ConvergenceMonitor m(stop_params(), [&] { return programmed; });
  std::mt19937_64 rng(3);
  std::exponential_distribution<double> service(1.0 / 80.0);
  const uint64_t at = feed(m, programmed, 1000000, 3.0, [&](uint64_t) { return 20.0 + service(rng); });
  REQUIRE(at > 0);
  CHECK(at < 200000);
  CHECK(m.converged());
  nlohmann::json r;
  m.report(r);
  CHECK(r["mode"] == "stop");
  CHECK(r["converged"] == true);
  CHECK(r["converged_at_ios"] == at);
  const nlohmann::json& iops = r["metrics"]["host.iops"];
  CHECK(iops["value"].get<double>() == Approx(100000).epsilon(1e-9));  // one completion per 10 us
  const nlohmann::json& lat = r["metrics"]["host.latency_us.read.mean"];
  CHECK(std::abs(lat["value"].get<double>() - 100.0) <= lat["half_width"].get<double>() * 1.5);
  CHECK(lat["rel_half_width"].get<double>() <= 0.01);
  const nlohmann::json& waf = r["metrics"]["waf.total"];
  CHECK(waf["value"].get<double>() == Approx(3.0).epsilon(1e-3));
  CHECK(r["metrics"]["host.latency_us.write.p99"]["required"] == false);
  // The p99 of every settled write, not the mean of the batches' p99: with batches of 100 that would be the mean of
  // the 99th of 100 draws, 20 + 80 (H_100 - H_1) = 355.0, where the population's p99 is 20 + 80 ln 100 = 388.4.
  const nlohmann::json& p99 = r["metrics"]["host.latency_us.write.p99"];
  CHECK(p99["ready"] == true);
  CHECK(std::abs(p99["value"].get<double>() - 388.4) <= std::max(2.0, 1.5 * p99["half_width"].get<double>()));
  CHECK(std::abs(p99["value"].get<double>() - 388.4) < 0.03 * 388.4);
}

TEST_CASE("convergence: a series still moving never stops the run", "[host][converge]") {
  uint64_t programmed = 0;
  ConvergenceMonitor m(stop_params(), [&] { return programmed; });
  CHECK(feed(m, programmed, 300000, 2.0, [](uint64_t i) { return 50.0 + double(i) / 1000.0; }) == 0);
  CHECK_FALSE(m.converged());
  nlohmann::json r;
  m.report(r);
  CHECK(r["converged"] == false);
}

TEST_CASE("convergence: report mode estimates without stopping", "[host][converge]") {
  ConvergeParams p = stop_params();
  p.mode = ConvergeParams::Mode::Report;
  uint64_t programmed = 0;
  ConvergenceMonitor m(p, [&] { return programmed; });
  CHECK(feed(m, programmed, 100000, 1.0, [](uint64_t i) { return 100.0 + double(i % 7); }) == 0);
  nlohmann::json r;
  m.report(r);
  CHECK(r["mode"] == "report");
  CHECK(r["converged"] == true);
  CHECK(r["metrics"]["host.latency_us.write.mean"]["value"].get<double>() == Approx(103).epsilon(1e-3));
}

TEST_CASE("convergence: on the platform a converged run answers within the full run's interval", "[host][converge][platform]") {
  const std::string drive =
      test::kSmallDrive + " --set precondition.drive_writes=1 --set host.queue_depth=4 --set workload.read_fraction=0.7"
                          " --set workload.io_count=600000 --set geometry.over_provisioning=0.25";
  const nlohmann::json full = test::run_cli(test::fresh("full"), drive + " --set sim.converge=report");
  const nlohmann::json quick = test::run_cli(test::fresh("quick"), drive + " --set sim.converge=stop");
  const nlohmann::json off = test::run_cli(test::fresh("off"), drive);
  CHECK_FALSE(off.contains("convergence"));
  CHECK(off["host"] == full["host"]);  // reporting changes nothing the run does
  REQUIRE(quick["convergence"]["converged"] == true);
  const uint64_t stopped = quick["host"]["ios"].get<uint64_t>();
  // Well before the full run: 159,031 of 600,000 I/Os before the command-level link's fix (issue 40), 231,031 since
  // (its timing of the 30 % queued writes changed the batches' spread; the intervals below agree either way).
  CHECK(stopped < 600000 / 2);
  for (const char* k : {"host.iops", "waf.total", "host.latency_us.read.mean", "host.latency_us.write.mean"}) {
    INFO(k);
    const nlohmann::json &f = full["convergence"]["metrics"][k], &q = quick["convergence"]["metrics"][k];
    CHECK(q["rel_half_width"].get<double>() <= 0.01);
    CHECK(std::abs(q["value"].get<double>() - f["value"].get<double>()) <=
          std::hypot(q["half_width"].get<double>(), f["half_width"].get<double>()));
  }
  // The tails too (not required for the stop): the p99 of every settled read of the stopped run (sectioning) lies
  // within the joint interval of the full run's (3,883 +- 54 against 3,932 +- 25 us; the run's histogram: 3,916). As
  // the mean of the batches' p99 (build 397ec78) they disagreed: 3,819 +- 55 against 3,891 +- 26.
  for (const char* k : {"host.latency_us.read.p99", "host.latency_us.write.p99"}) {
    const nlohmann::json &f = full["convergence"]["metrics"][k], &q = quick["convergence"]["metrics"][k];
    INFO(k << ": full " << f.dump() << ", stopped " << q.dump() << ", run's p99 " << full["host"]["latency_us"]);
    REQUIRE(f["ready"] == true);
    REQUIRE(q["ready"] == true);
    CHECK(std::abs(q["value"].get<double>() - f["value"].get<double>()) <=
          std::hypot(q["half_width"].get<double>(), f["half_width"].get<double>()));
  }
}

TEST_CASE("convergence: a WAF of 0 (nothing programmed yet) is never an answer", "[host][converge]") {
  // Writes that all stay in the buffer: every batch's WAF is 0 with a zero-width interval.
  uint64_t programmed = 0;
  ConvergenceMonitor m(stop_params(), [&] { return programmed; });
  CHECK(feed(m, programmed, 200000, 0.0, [](uint64_t i) { return 100.0 + double(i % 7); }) == 0);
  nlohmann::json r;
  m.report(r);
  CHECK(r["metrics"]["waf.total"]["value"] == 0.0);
}

TEST_CASE("convergence: a level that steps inside the settled run holds the stop until its halves agree",
          "[host][converge]") {
  // Latencies step up by 3.1 us (3 %) at I/O 24,000, before the run's interval is narrow enough to stop; the
  // IOPS series stays flat, so no warm-up is cut. The step is small against the noise for the lag-1 test of the
  // batches, so the halves' comparison (ConvergenceMonitor::drifts) is what sees two levels in the settled run.
  uint64_t programmed = 0;
  ConvergenceMonitor m(stop_params(), [&] { return programmed; });
  std::mt19937_64 rng(4);
  std::exponential_distribution<double> service(1.0 / 80.0);
  const uint64_t at =
      feed(m, programmed, 1000000, 2.0, [&](uint64_t i) { return 20.0 + service(rng) + (i > 24000 ? 3.1 : 0.0); });
  INFO("stopped at I/O " << at);
  REQUIRE(at > 0);
  CHECK(at > 100000);  // without the halves' comparison this series stops at I/O 62,600
}

TEST_CASE("convergence: batches in units of the GC cycle last until the drive has erased their share of blocks",
          "[host][converge]") {
  // A drive of 1,000 blocks erasing one block per 10 writes (every other I/O is a write). A share of 0.2 is 200
  // erases, 2,000 writes, 4,000 I/Os per base batch; 0.5 would be 10,000 I/Os, beyond the cap of 64 times
  // sim.converge_batch_ios (6,400); a drive that never erases closes its batches at the cap; a share of 0 at
  // sim.converge_batch_ios (100).
  struct Case {
    double share;
    bool erases;
    uint64_t ios_per_batch;
  };
  for (const Case c : {Case{0.2, true, 4000}, Case{0.5, true, 6400}, Case{0.1, false, 6400}, Case{0.0, true, 100}}) {
    ConvergeParams p = stop_params();
    p.mode = ConvergeParams::Mode::Report;
    p.batch_erase_share = c.share;
    uint64_t programmed = 0, writes = 0;
    ConvergenceMonitor m(p, [&] { return programmed; }, [&] { return c.erases ? writes / 10 : 0; }, 1000);
    for (uint64_t i = 1; i <= 384000; ++i) {
      const int dir = int(i % 2);
      if (dir == 1) programmed += 4096 * 2, ++writes;
      m.completed(dir, 4096, 100000, i * 10000000);
    }
    nlohmann::json r;
    m.report(r);
    INFO("share " << c.share << ": " << r.dump());
    CHECK(r["base_batches"] == 384000 / c.ios_per_batch);
    CHECK(r["base_batch_erases"] == uint64_t(std::llround(c.share * 1000)));
    CHECK(r["metrics"]["waf.total"]["value"].get<double>() == Approx(2.0));
    CHECK(r["metrics"]["host.iops"]["value"].get<double>() == Approx(100000));
  }
}

TEST_CASE("convergence: sim.converge_min_gc_cycles holds the stop until the drive has erased its blocks that often",
          "[host][converge]") {
  // The steady series of the first test case stops well before I/O 200,000; a drive of 1,000 blocks erasing one
  // block per 100 writes (every other I/O) erases 2,000 blocks, two cycles, by I/O 400,000. A drive that never
  // erases (a read-only run's) is not held.
  for (const bool erasing : {true, false}) {
    ConvergeParams p = stop_params();
    p.min_gc_cycles = 2;
    uint64_t programmed = 0, writes = 0;
    ConvergenceMonitor m(p, [&] { return programmed; }, [&] { return erasing ? writes / 100 : 0; }, 1000);
    std::mt19937_64 rng(3);
    std::exponential_distribution<double> service(1.0 / 80.0);
    uint64_t at = 0;
    for (uint64_t i = 1; i <= 1000000 && !at; ++i) {
      const int dir = int(i % 2);
      if (dir == 1) programmed += 4096 * 3, ++writes;
      if (m.completed(dir, 4096, uint64_t((20.0 + service(rng)) * 1000), i * 10000000)) at = i;
    }
    INFO("erasing " << erasing << ": stopped at I/O " << at);
    REQUIRE(at > 0);
    if (erasing) CHECK(at >= 400000);
    else CHECK(at < 200000);
  }
}
