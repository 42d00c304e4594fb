// Folds (slc.*) in the waveforms: a fold's reads and programs have their own die states and bus transfers, and
// their counts in the VCD agree with summary.json's nand.reads.fold and nand.programs.fold (docs/guides/waveforms.md).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>

#include "common/cli_run.h"
#include "wave/vcd_reader.h"
#include "wave/wave_signals.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// Operations of the given states on every die: each stretch holds back-to-back operations of one fixed
// duration (TLC programs all take page_prog_us here; SLC reads slc_read_us).
uint64_t ops(const Vcd& v, std::set<uint64_t> states, uint64_t duration, uint64_t* bad) {
  uint64_t n = 0;
  for (int ch = 0; ch < 2; ++ch)
    for (int k = 0; k < 2; ++k)
      for (auto [a, b] : v.stretches("ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".state",
                                     [&](uint64_t x) { return states.count(x) != 0; })) {
        if ((b - a) % duration) ++*bad;
        n += (b - a) / duration;
      }
  return n;
}

uint64_t transfers(const Vcd& v, uint64_t dir) {
  uint64_t n = 0;
  for (int ch = 0; ch < 2; ++ch)
    for (auto [a, b] : v.stretches("ch" + std::to_string(ch) + ".bus.dir", [&](uint64_t x) { return x == dir; }))
      n += b > a;
  return n;
}

}  // namespace

TEST_CASE("folds have their own state in the waveform, counted as summary.json counts them", "[platform][wave][slc]") {
  // A 2 x 2-die TLC drive with a 4 MiB static SLC cache (one program time for every TLC page type), 12 MiB of
  // sequential writes (foreground folds once the cache is full), then 1 s of idle (background folds).
  const std::string dir = fresh("wave_fold_cfg");
  std::ofstream(dir + "/config.json") << R"({"geometry": {"channels": 2, "dies_per_channel": 2, "planes_per_die": 1,
    "blocks_per_plane": 64, "pages_per_block": 48, "page_bytes": 16384, "over_provisioning": 0.5},
  "timing": {"channel_mts": 1600, "page_read_us": "50,70,90", "page_prog_us": "900,900,900", "t_erase_us": 3500,
    "slc_read_us": 30, "slc_prog_us": 200, "slc_erase_us": 3000},
  "flash": {"cell": "tlc"}, "slc": {"mode": "static", "static_bytes": 4194304}, "buffer": {"bytes": 524288},
  "precondition": {"fill": false, "drive_writes": 0}, "check": {"integrity": true}, "host": {"queues": 1, "queue_depth": 16},
  "workload": {"pattern": "sequential", "read_fraction": 0, "block_bytes": 131072, "io_count": 0},
  "jobs": [{"name": "write", "io_bytes": 12582912}, {"name": "idle", "io_bytes": 131072, "start_delay_ms": 1000,
            "read_fraction": 1, "stonewall": true}]})";
  const std::string run_dir = fresh("wave_fold");
  const nlohmann::json s = run_cli("wave_fold", "--config " + dir + "/config.json --vcd " + run_dir + "/run.vcd");
  CHECK(s["integrity"]["errors"] == 0);
  const uint64_t fold_programs = s["nand"]["programs"]["fold"].get<uint64_t>();
  const uint64_t fold_reads = s["nand"]["reads"]["fold"].get<uint64_t>();
  const uint64_t gc_programs = s["nand"]["programs"]["gud"].get<uint64_t>();
  REQUIRE(fold_programs > 100);
  REQUIRE(fold_reads >= fold_programs);
  const Vcd v = read_vcd(run_dir + "/run.vcd");
  uint64_t bad = 0;
  CHECK(ops(v, {kDieProgFold}, 900000000, &bad) == fold_programs);
  CHECK(ops(v, {kDieReadFold}, 30000000, &bad) == fold_reads);
  CHECK(ops(v, {kDieProgGc}, 900000000, &bad) == gc_programs);  // folds are not drawn as GC
  CHECK(bad == 0);
  CHECK(transfers(v, kBusInFold) > 0);
  CHECK(transfers(v, kBusOutFold) > 0);
}
