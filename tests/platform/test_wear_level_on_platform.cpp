// Static wear levelling on the generic platform (ftl.wear_level_spread, controller/gc/wear_level.h): hot random
// writes on a filled drive leave the cold blocks unerased; with wear levelling the GC engine relocates them in the
// timed run, the erase-count spread stays near the threshold, summary.json counts the relocations, and every
// block erased held no live data (integrity checker).
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "common/cli_run.h"

namespace {

nlohmann::json run(const std::string& name, uint32_t spread) {
  using namespace ssdtlm::test;
  return run_cli("wear_level_" + name, kSmallDrive +
                                          " --set precondition.fill=true --set check.integrity=true"
                                          " --set geometry.pages_per_block=32 --set workload.read_fraction=0"
                                          " --set workload.address_range=16M --set workload.io_count=120000"
                                          " --set ftl.wear_level_spread=" + std::to_string(spread));
}

}  // namespace

TEST_CASE("wear level: hot writes on a filled drive, with and without static wear levelling", "[platform][wear_level]") {
  const auto off = run("off", 1u << 30), on = run("on", 4);
  CHECK(off["integrity"]["errors"] == 0);
  CHECK(on["integrity"]["errors"] == 0);
  CHECK(off["wear_level"]["relocated_blocks"] == 0);
  CHECK(off["wear_level"]["min_block_erases"] == 0);  // the cold blocks never erased
  CHECK(off["wear_level"]["max_die_spread"].get<uint32_t>() > 10);
  CHECK(on["wear_level"]["relocated_blocks"].get<uint64_t>() > 0);
  CHECK(on["wear_level"]["spread_threshold"] == 4);
  // The spread stays within twice the threshold (levelling waits while the die needs GC for free blocks, and
  // looks at a die's 8 least-erased blocks only), and at most half of what it is without.
  CHECK(on["wear_level"]["max_die_spread"].get<uint32_t>() <= 2 * 4);
  CHECK(2 * on["wear_level"]["max_die_spread"].get<uint32_t>() <= off["wear_level"]["max_die_spread"].get<uint32_t>());
  CHECK(on["wear_level"]["min_block_erases"].get<uint32_t>() > 0);
  // the relocations are GC copies: more of them than without
  CHECK(on["nand"]["programs"]["gud"].get<uint64_t>() > off["nand"]["programs"]["gud"].get<uint64_t>());
}

TEST_CASE("wear level: refused with superblock GC", "[platform][wear_level]") {
  using namespace ssdtlm::test;
  const std::string dir = fresh("wear_level_superblock");
  const std::string cmd = cli_binary() + " --quiet --out " + dir + kSmallDrive +
                          " --set ftl.gc_unit=superblock --set ftl.wear_level_spread=4 2>" + dir + "/err";
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 2);
  std::stringstream err;
  err << std::ifstream(dir + "/err").rdbuf();
  CHECK(err.str().find("ftl.wear_level_spread") != std::string::npos);
}

TEST_CASE("wear level: a relocation that fills the GC block does not leave the next victim without a block",
          "[platform][wear_level]") {
  // The golden matrix's wear-level drive with sim.seed 1, 2 and 12: a wear-levelling victim (all valid) filled the
  // GC frontier's block with the die's last free block taken, and the next victim started before that erase landed
  // found no block for its copies ("die 0: no free block for GC data"). The copy now waits for that erase.
  using namespace ssdtlm::test;
  for (const char* seed : {"1", "2", "12"}) {
    const auto s = run_cli("wear_level_seed" + std::string(seed),
                           " --set geometry.channels=2 --set geometry.dies_per_channel=2"
                           " --set geometry.blocks_per_plane=64 --set geometry.pages_per_block=32"
                           " --set host.queues=4 --set host.queue_depth=16 --set workload.io_count=30000"
                           " --set precondition.fill=true --set precondition.drive_writes=1 --set buffer.bytes=4M"
                           " --set workload.read_fraction=0 --set ftl.wear_level_spread=4"
                           " --set workload.address_range=16M --set check.integrity=true --set sim.seed=" +
                               std::string(seed));
    CHECK(s["integrity"]["errors"] == 0);
    CHECK(s["wear_level"]["relocated_blocks"].get<uint64_t>() > 0);
  }
}
