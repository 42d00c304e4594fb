// Issue 30, the run items: the watchdog stops a run that cannot finish (exit 3, naming what is stuck, the
// output set not replaced, incomplete.json beside it), and the output set is replaced all or nothing (a
// rename that fails half-way leaves the previous set whole, exit 2 naming --out, no staging folder left).
// Signals (SIGINT, SIGTERM, SIGHUP) during a run: tests/python/test_run_signals.py.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::fresh;
using ssdtlm::test::cli_binary;
using ssdtlm::test::run_in;
using ssdtlm::test::shell;
using ssdtlm::test::slurp;
namespace fs = std::filesystem;

namespace {

const std::string kSmall = ssdtlm::test::kSmallDrive + " --set workload.io_count=2000";

void no_staging_left(const std::string& out) {
  for (const auto& e : fs::directory_iterator(out)) {
    INFO(e.path());
    CHECK(e.path().filename().string().find("staging") == std::string::npos);
    CHECK(e.path().filename().string().find("partial") == std::string::npos);
  }
}

}  // namespace

TEST_CASE("watchdog: a run whose commands stop completing stops with exit 3 naming what is stuck", "[cli][watchdog]") {
  const std::string dir = fresh("run_watchdog");
  const CliRun first = run_in(dir, "--out out --quiet" + kSmall);
  REQUIRE(first.code == 0);
  const std::string summary = slurp(dir + "/out/summary.json"), config = slurp(dir + "/out/config.json");
  // The test hook drops every completion after the 500th: 32 commands (host.queue_depth) stay outstanding
  // for ever, the drive idles, only the sampler's ticks remain (without the watchdog: a run without end).
  const auto t0 = std::chrono::steady_clock::now();
  const CliRun stuck = shell(dir, "SSDTLM_TEST_HOOK=drop_completions_after=500 " + cli_binary() +
                                      " --out out --quiet --vcd out/run.vcd --set workload.read_fraction=0.5" + kSmall);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  CHECK(wall < 30);
  CHECK(stuck.code == 3);
  CHECK_THAT(stuck.err, Contains("model error: the run is stuck") && Contains("no host command completed") &&
                            Contains("commands outstanding (q0 ") && Contains("no die has a queued flash operation") &&
                            Contains("FTL: ") && Contains("were not replaced") && Contains("incomplete.json"));
  // The set is the last complete run's; incomplete.json says why this one stopped.
  CHECK(slurp(dir + "/out/summary.json") == summary);
  CHECK(slurp(dir + "/out/config.json") == config);
  CHECK_FALSE(fs::exists(dir + "/out/run.vcd"));
  no_staging_left(dir + "/out");
  const nlohmann::json inc = nlohmann::json::parse(slurp(dir + "/out/incomplete.json"));
  CHECK(inc["complete"] == false);
  CHECK(inc["exit_status"] == 3);
  CHECK(inc["completed_commands"] == 500);
  CHECK_THAT(inc["state"].get<std::string>(), Contains("commands outstanding"));
  CHECK(inc["config"]["workload"]["read_fraction"] == 0.5);
  // The next complete run replaces the set and removes incomplete.json.
  const CliRun again = run_in(dir, "--out out --quiet" + kSmall);
  REQUIRE(again.code == 0);
  CHECK_FALSE(fs::exists(dir + "/out/incomplete.json"));
  // An unknown hook is refused, naming it.
  const CliRun bad = shell(dir, "SSDTLM_TEST_HOOK=nonsense " + cli_binary() + " --out out --quiet" + kSmall);
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("SSDTLM_TEST_HOOK"));
}

TEST_CASE("outputs: a rename that fails half-way leaves the previous set whole, exit 2 naming --out", "[cli]") {
  const std::string dir = fresh("run_output_rollback");
  const CliRun first = run_in(dir, "--out out --quiet --set stats.lpn_writes=true" + kSmall);
  REQUIRE(first.code == 0);
  // latency_cdf.csv is moved after config.json, summary.json and timeseries.csv: a folder in its way makes
  // that rename fail (root or not) after three files of the new set were in place.
  fs::remove(dir + "/out/latency_cdf.csv");
  fs::create_directories(dir + "/out/latency_cdf.csv/in_the_way");
  const std::string summary = slurp(dir + "/out/summary.json"), config = slurp(dir + "/out/config.json"),
                    series = slurp(dir + "/out/timeseries.csv"), lpn = slurp(dir + "/out/lpn_writes.csv");
  REQUIRE(!lpn.empty());
  const CliRun second = run_in(dir, "--out out --quiet --set workload.read_fraction=0.5" + kSmall);
  CHECK(second.code == 2);
  CHECK_THAT(second.err, Contains("error: option --out out: cannot replace the outputs") &&
                             Contains("latency_cdf.csv") && Contains("previous outputs are left as they were"));
  CHECK(slurp(dir + "/out/summary.json") == summary);
  CHECK(slurp(dir + "/out/config.json") == config);
  CHECK(slurp(dir + "/out/timeseries.csv") == series);
  CHECK(slurp(dir + "/out/lpn_writes.csv") == lpn);  // the stale file this run would have removed: back
  CHECK(fs::is_directory(dir + "/out/latency_cdf.csv/in_the_way"));
  no_staging_left(dir + "/out");
  // Out of the way, the same run replaces the whole set.
  fs::remove_all(dir + "/out/latency_cdf.csv");
  const CliRun third = run_in(dir, "--out out --quiet --set workload.read_fraction=0.5" + kSmall);
  REQUIRE(third.code == 0);
  CHECK(slurp(dir + "/out/summary.json") != summary);
  CHECK_FALSE(fs::exists(dir + "/out/lpn_writes.csv"));
  no_staging_left(dir + "/out");
}

TEST_CASE("outputs: staging folders of processes that are gone are removed by the next run", "[cli]") {
  const std::string dir = fresh("run_stale_staging");
  // A pid that cannot be alive (above the kernel's pid_max) and one that is ours: only the first goes.
  fs::create_directories(dir + "/out/.ssdtlm-staging-999999999/x");
  const CliRun r = run_in(dir, "--out out --quiet" + kSmall);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(dir + "/out/.ssdtlm-staging-999999999"));
  no_staging_left(dir + "/out");
}
