// Hostile input through the command line (issue 30): files that are not regular files, empty values,
// configurations that cannot work, power-loss instants the run cannot tell apart, messages with control
// characters. Each exits 2 at once, naming the option or key.
#include <catch2/catch.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::fresh;
namespace fs = std::filesystem;

namespace {
const std::string kSmall = ssdtlm::test::kSmallDrive;

// The run, which must end within `seconds` of wall time.
CliRun timed(const std::string& dir, const std::string& args, double seconds = 5) {
  const auto start = std::chrono::steady_clock::now();
  CliRun r = ssdtlm::test::shell(dir, "timeout 60 " + args);
  CHECK(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() < seconds);
  return r;
}
}  // namespace

TEST_CASE("cli: /dev/zero as --config, --fio or workload.trace_path is refused at once", "[cli][input]") {
  const std::string dir = fresh("cli_dev_zero");
  const std::string bin = ssdtlm::test::cli_binary();
  const CliRun config = timed(dir, bin + " --out out --quiet --config /dev/zero");
  CHECK(config.code == 2);
  CHECK_THAT(config.err, Contains("--config '/dev/zero': expected a regular file, got a character device"));
  const CliRun fio = timed(dir, bin + " --out out --quiet --fio /dev/zero");
  CHECK(fio.code == 2);
  CHECK_THAT(fio.err, Contains("--fio '/dev/zero': expected a regular file"));
  const CliRun trace = timed(dir, bin + " --out out --quiet --set workload.pattern=trace --set workload.trace_path=/dev/zero" +
                                      kSmall);
  CHECK(trace.code == 2);
  CHECK_THAT(trace.err, Contains("workload.trace_path '/dev/zero': expected a regular file"));
  CHECK_FALSE(fs::exists(dir + "/out/summary.json"));
}

TEST_CASE("cli: --seed '' is refused, not ignored", "[cli][input]") {
  const std::string dir = fresh("cli_seed_empty");
  const CliRun r = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --seed ''" + kSmall);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("option --seed: expected an integer"));
}

TEST_CASE("cli: superblock GC that cannot make room on a small drive is refused before the run", "[cli][input][superblock]") {
  // It used to fail mid-run with exit 3: "superblock GC collected 129 lines without room for host data".
  const std::string dir = fresh("cli_superblock_small");
  const CliRun r = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --set ftl.gc_unit=superblock" + kSmall);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("ftl.gc_free_blocks") && Contains("ftl.gc_unit") && Contains("at least 3 (lines)"));
  const CliRun ok = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --set ftl.gc_unit=superblock"
                                   " --set ftl.gc_free_blocks=3 --set workload.io_count=200000" + kSmall, 60);
  CHECK(ok.code == 0);
}

TEST_CASE("cli: preconditioning with superblock GC and AutoStream's streams on 8 x 8 dies makes room", "[cli][input][superblock]") {
  // AutoStream's two user streams and the GC frontier on 8 x 8 dies with 8 free lines kept: the fast-forward's GC
  // used to collect lines forever (each freed what its copies took) and the run stopped with "without making room
  // for host data". Since GC copies and host pages go to a die behind when their die is a line ahead (issue 44,
  // LinePool::line_ahead), the lines fill evenly enough and the run completes, every GC source checked.
  const std::string dir = fresh("cli_superblock_ff_stuck");
  const CliRun r = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --set ftl.gc_unit=superblock"
                                  " --set streams.assign=autostream --set streams.count=2 --set precondition.fill=true"
                                  " --set ftl.gc_free_blocks=8 --set geometry.channels=8 --set geometry.dies_per_channel=8"
                                  " --set workload.io_count=1000", 60);
  CHECK(r.code == 0);
  REQUIRE(fs::exists(dir + "/out/summary.json"));
  const nlohmann::json s = nlohmann::json::parse(std::ifstream(dir + "/out/summary.json"));
  CHECK(s["integrity"]["errors"] == 0);
}

TEST_CASE("cli: power-loss instants on the same picosecond are refused, a short capacitor budget is warned about",
          "[cli][input][power_loss]") {
  const std::string dir = fresh("cli_power_loss_input");
  const std::string bin = ssdtlm::test::cli_binary();
  const CliRun same = timed(dir, bin + " --out out --quiet --set fault.power_loss_at_ms=5,5.0000000000001" + kSmall);
  CHECK(same.code == 2);
  CHECK_THAT(same.err, Contains("fault.power_loss_at_ms: instants 1 and 2") && Contains("same picosecond"));
  const CliRun drawn = timed(dir, bin + " --out out --quiet --set fault.power_loss_count=50"
                                        " --set fault.power_loss_window_ms=1e-8" + kSmall);
  CHECK(drawn.code == 2);
  CHECK_THAT(drawn.err, Contains("fault.power_loss_count, fault.power_loss_window_ms"));
  const CliRun warned = timed(dir, bin + " --out out --set power.protected_bytes=64k --set fault.power_loss_at_ms=20"
                                         " --set workload.io_count=5000" + kSmall, 60);
  CHECK(warned.code == 0);
  CHECK_THAT(warned.err, Contains("warning: keys 'power.protected_bytes' (64 KiB) < 'buffer.bytes' (1 MiB)") &&
                             Contains("loses up to 960 KiB of acknowledged writes"));
}

TEST_CASE("cli: control characters in quoted input are escaped, the message on one line", "[cli][input]") {
  const std::string dir = fresh("cli_control_chars");
  const CliRun r = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --set \"$(printf 'ho\\nst=1')\"");
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("unknown key 'ho\\nst'"));
  CHECK(r.err.find("ho\nst") == std::string::npos);
}

TEST_CASE("cli: a workload value the synthetic generator refuses names its configuration key", "[cli][input]") {
  // Found by the fuzz test: "workload: SyntheticSpec.bssplit: ..." named the generator's field, not the key.
  const std::string dir = fresh("cli_spec_key");
  const CliRun r = timed(dir, ssdtlm::test::cli_binary() + " --out out --quiet --set workload.bssplit=inf" + kSmall);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("key 'workload.bssplit': SyntheticSpec.bssplit"));
}
