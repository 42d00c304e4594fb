// Read-ahead (cache.read_ahead) in the waveform: its fetches are user reads on the dies, drawn as every read and
// counted in nand.reads.user, and ftl.read_ahead_units traces the units held (only with read-ahead on).
#include <catch2/catch.hpp>

#include <algorithm>

#include "common/cli_run.h"
#include "wave/vcd_reader.h"
#include "wave/wave_signals.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

constexpr const char* kDrive =
    "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64 "
    "--set geometry.pages_per_block=64 --set precondition.drive_writes=0 --set workload.pattern=sequential "
    "--set workload.read_fraction=1 --set host.queue_depth=1 --set workload.io_count=4000 --set timing.t_read_us=50 ";

uint64_t user_reads(const Vcd& v, uint64_t t_read_ps, uint64_t* bad) {
  uint64_t n = 0;
  for (int ch = 0; ch < 2; ++ch)
    for (int k = 0; k < 2; ++k)
      for (auto [a, b] : v.stretches("ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".state",
                                     [](uint64_t x) { return x == kDieReadUser; })) {
        if ((b - a) % t_read_ps) ++*bad;
        n += (b - a) / t_read_ps;
      }
  return n;
}

}  // namespace

TEST_CASE("read-ahead's fetches and the units it holds are in the waveform", "[platform][wave][read_ahead]") {
  const std::string dir = fresh("wave_read_ahead");
  const nlohmann::json s =
      run_cli("wave_read_ahead", std::string(kDrive) + "--set cache.read_ahead=sequential --vcd " + dir + "/run.vcd");
  CHECK(s["integrity"]["errors"] == 0);
  REQUIRE(s["read_ahead"]["hits"].get<uint64_t>() > 3000);
  const Vcd v = read_vcd(dir + "/run.vcd");
  uint64_t bad = 0;
  // Every flash read is drawn: the stream's few own reads and the read-ahead's (far fewer than the host's 4000).
  const uint64_t drawn = user_reads(v, 50000000, &bad);
  CHECK(bad == 0);
  CHECK(drawn == s["nand"]["reads"]["user"].get<uint64_t>());
  CHECK(drawn >= s["read_ahead"]["prefetched_pages"].get<uint64_t>());
  CHECK(drawn < 4000);
  REQUIRE(v.has("ftl.read_ahead_units"));
  uint64_t most = 0;
  for (auto [t, x] : v.at("ftl.read_ahead_units").changes) most = std::max(most, x);
  CHECK(most > 0);
  CHECK(most <= s["read_ahead"]["budget_units"].get<uint64_t>());
}

TEST_CASE("without read-ahead the waveform has no read-ahead signal", "[platform][wave][read_ahead]") {
  const std::string dir = fresh("wave_no_read_ahead");
  const nlohmann::json s = run_cli("wave_no_read_ahead", std::string(kDrive) + "--vcd " + dir + "/run.vcd");
  CHECK(read_vcd(dir + "/run.vcd").has("ftl.read_ahead_units") == false);
  CHECK(s["nand"]["reads"]["user"].get<uint64_t>() == 4000);
}
