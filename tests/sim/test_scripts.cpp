// The plotting scripts on real run directories: plot_run.py (panels per quantity, zero series left out, the
// latency tail) and compare.py (runs named by their paths or --label, a title). Skipped, with a warning,
// where neither the running Python nor .venv/ has matplotlib (bash scripts/setup.sh makes .venv/).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::cli_binary;
using ssdtlm::test::shell;
using ssdtlm::test::slurp;
namespace fs = std::filesystem;

namespace {

const std::string kSmall =
    " --quiet --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64"
    " --set geometry.pages_per_block=64 --set buffer.bytes=1M --set stats.interval_ms=2ms";

// Runs the simulator into dir/<sub>/out.
void simulate(const std::string& dir, const std::string& sub, const std::string& args) {
  fs::create_directories(dir + "/" + sub);
  const CliRun r = shell(dir + "/" + sub, cli_binary() + " --out out" + kSmall + " " + args);
  REQUIRE(r.code == 0);
}

std::string script(const std::string& name) { return "python3 '" + std::string(SSDTLM_SOURCE_DIR) + "/scripts/" + name + "'"; }

bool no_matplotlib(const CliRun& r) {
  if (r.code != 0 && r.err.find("setup.sh") != std::string::npos) {
    WARN("matplotlib is not installed (bash scripts/setup.sh): plotting scripts not tested");
    return true;
  }
  return false;
}

}  // namespace

TEST_CASE("plot_run.py: one axis per quantity, zero series left out, the latency tail", "[scripts]") {
  const std::string dir = fs::absolute("scripts_plot").string();
  fs::remove_all(dir);
  simulate(dir, "reads", "--set workload.read_fraction=1 --set workload.io_count=20000 --set precondition.drive_writes=0");
  const CliRun r = shell(dir, script("plot_run.py") + " reads/out --title 'random reads'");
  if (no_matplotlib(r)) return;
  REQUIRE(r.code == 0);
  CHECK(fs::file_size(dir + "/reads/out/timeseries.png") > 10000);
  CHECK(fs::file_size(dir + "/reads/out/latency_cdf.png") > 10000);
  CHECK(fs::file_size(dir + "/reads/out/timeseries.pdf") > 1000);  // PDF and SVG beside the PNG, for a paper
  CHECK(fs::file_size(dir + "/reads/out/latency_cdf.svg") > 1000);
  CHECK_THAT(r.out, Contains("throughput (kIOPS) (read)") && Contains("outstanding commands"));
  // Reads only: no write line, and no WAF or GC panel (zero all along).
  CHECK(r.out.find("write") == std::string::npos);
  CHECK(r.out.find("amplification") == std::string::npos);
  CHECK(r.out.find("dies in GC") == std::string::npos);
  simulate(dir, "mixed", "--set workload.read_fraction=0.5 --set workload.io_count=40000 --set precondition.drive_writes=0.5");
  const CliRun m = shell(dir, script("plot_run.py") + " mixed/out");
  REQUIRE(m.code == 0);
  CHECK_THAT(m.out, Contains("throughput (kIOPS) (read, write)") && Contains("write amplification (interval)"));
  const CliRun bad = shell(dir, script("plot_run.py") + " nowhere");
  CHECK(bad.code != 0);
  CHECK_THAT(bad.err, Contains("not a run directory"));
}

TEST_CASE("compare.py: runs named by their paths or by --label, a titled figure", "[scripts]") {
  const std::string dir = fs::absolute("scripts_compare").string();
  fs::remove_all(dir);
  simulate(dir, "fifo", "--set workload.io_count=5000 --set precondition.drive_writes=0");
  simulate(dir, "hexa", "--set workload.io_count=5000 --set workload.read_fraction=0.5 --set precondition.drive_writes=0");
  const CliRun r = shell(dir, script("compare.py") + " cmp.png fifo/out hexa/out");
  if (no_matplotlib(r)) return;
  REQUIRE(r.code == 0);
  CHECK(fs::file_size(dir + "/cmp.png") > 10000);
  CHECK_THAT(r.out, Contains("fifo/out") && Contains("hexa/out"));  // "out" alone would not tell them apart
  const CliRun l = shell(dir, script("compare.py") + " cmp2.png fifo/out hexa/out --label A --label B --title 'A vs B'");
  REQUIRE(l.code == 0);
  CHECK(l.out.rfind("A ", 0) == 0);
  CHECK_THAT(l.out, Contains("\nB "));
  const CliRun bad = shell(dir, script("compare.py") + " cmp3.png fifo/out hexa/out --label A");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("1 --label for 2 runs"));
}
