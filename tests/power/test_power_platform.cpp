// Power on whole runs (one simulation per TEST_CASE): energy per operation against a hand calculation,
// the power budget over the waveform and against its analytic throughput, APST's exit latency in the
// latencies, and a sustained write that heats into thermal throttling.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/cli_run.h"
#include "platform/platform_run.h"
#include "wave/vcd_reader.h"
#include "wave/wave_signals.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
namespace fs = std::filesystem;

namespace {

double d(const nlohmann::json& j) { return j.get<double>(); }

// A small fresh drive: 2 channels x 4 dies, 8 KiB pages, SLC timing of the generic platform.
Config small_drive(std::initializer_list<std::string> more) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=4", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "host.queues=1", "stats.interval_ms=10"});
  for (auto& s : more) c.set(s);
  return c;
}

}  // namespace

TEST_CASE("energy per operation: random reads against a hand calculation from the parameters", "[platform][power]") {
  const Config c = small_drive({"precondition.fill=true", "precondition.drive_writes=0", "workload.read_fraction=1",
                                "workload.io_count=3000", "host.queue_depth=4"});
  const RunResult r = run_generic(c);
  const auto& s = r.summary;
  const auto& pw = s["power"];
  // Every part from the parameters and the run's operation counts.
  const double reads = d(s["nand"]["array_ops"]["reads"]), ios = d(s["host"]["ios"]);
  const double span = d(pw["span_s"]), dies = 8;
  REQUIRE(reads == ios);  // every 4 KiB read is one tR (nothing buffered, no GC, no map reads)
  const double t_read = c.d("timing.t_read_us") * 1e-6;
  const double nand = c.d("power.slc.read_w") * reads * t_read + c.d("power.nand_standby_w") * dies * span;
  const double channel = c.d("power.channel_pj_per_byte") * 1e-12 * reads * 4096;
  const double dram = c.d("power.dram_nj_per_access") * 1e-9 * d(s["dram"]["accesses"]["total"]) +
                      c.d("power.dram_pj_per_byte") * 1e-12 * d(s["dram"]["bytes"]["total"]) + c.d("power.dram_idle_w") * span;
  const double controller = c.d("power.controller_nj_per_command") * 1e-9 * ios +
                            c.d("power.controller_nj_per_flash_op") * 1e-9 * reads + c.d("power.controller_idle_w") * span;
  const double pcie = c.d("power.pcie_pj_per_byte") * 1e-12 * ios * (4096 + 64 + 16) + c.d("power.pcie_idle_w") * span;
  const auto& comp = pw["components"];
  CHECK(d(comp["nand"]["energy_j"]) == Approx(nand).epsilon(1e-9));
  CHECK(d(comp["channel"]["energy_j"]) == Approx(channel).epsilon(1e-9));
  CHECK(d(comp["dram"]["energy_j"]) == Approx(dram).epsilon(1e-9));
  CHECK(d(comp["controller"]["energy_j"]) == Approx(controller).epsilon(1e-9));
  CHECK(d(comp["pcie"]["energy_j"]) == Approx(pcie).epsilon(1e-9));
  // Conservation: the parts sum to the total; per byte and per I/O are the total's.
  const double total = nand + channel + dram + controller + pcie;
  CHECK(d(pw["energy_j"]) == Approx(total).epsilon(1e-9));
  double parts = 0;
  for (auto& [name, x] : comp.items()) parts += d(x["energy_j"]);
  CHECK(parts == Approx(d(pw["energy_j"])).epsilon(1e-12));
  CHECK(d(pw["energy_per_io_uj"]) == Approx(total / ios * 1e6).epsilon(1e-9));
  CHECK(d(pw["energy_per_host_byte_nj"]) == Approx(total / (ios * 4096) * 1e9).epsilon(1e-9));
  CHECK(d(pw["avg_w"]) == Approx(total / span).epsilon(1e-9));
  CHECK(d(pw["nand_op_energy_uj"]["read"][0]) == Approx(c.d("power.slc.read_w") * t_read * 1e6));
  CHECK(d(pw["budget_wait_s"]) == 0);
  // The timeseries: interval power times interval length sums to the energy of the rows' span.
  const auto rows = read_csv_rows(r.timeseries_csv);
  REQUIRE(rows.size() > 2);
  double e = 0, prev = 0;
  for (auto& row : rows) {
    e += row.at("power_w") * (row.at("t_ms") - prev) * 1e-3;
    CHECK(row.at("nand_w") <= row.at("power_w"));
    prev = row.at("t_ms");
  }
  CHECK(e == Approx(total).epsilon(2e-3));  // rows print 4 decimals
  CHECK(d(pw["peak_w"]) >= d(pw["avg_w"]));
}

TEST_CASE("power budget of N programs: never more than N dies program at once, throughput N x page / tPROG", "[platform][power][wave]") {
  const uint32_t n = 2;
  Config c = small_drive({"precondition.fill=false", "precondition.drive_writes=0", "workload.pattern=sequential",
                          "workload.read_fraction=0", "workload.block_bytes=65536", "workload.io_count=1024",
                          "host.queue_depth=8", "buffer.bytes=1048576"});
  const double floor = c.d("power.nand_standby_w") * 8 + c.d("power.dram_idle_w") + c.d("power.controller_idle_w") +
                       c.d("power.pcie_idle_w");
  const double prog = c.d("power.slc.program_w");
  const double budget = floor + n * prog + prog / 2;  // room for N programs, not N + 1
  c.set("power.budget_w=" + std::to_string(budget));
  fs::create_directories("power_tests");
  RunOptions o;
  o.vcd_path = "power_tests/budget.vcd";
  o.quiet = true;
  const RunResult r = simulate(c, generic_platform_info(), o);
  const auto& pw = r.summary["power"];
  CHECK(d(pw["budget_wait_s"]) > 0);
  CHECK(pw["peak_array_ops"].get<uint32_t>() == n);
  // The waveform: programs per instant over every die's state line.
  const Vcd v = read_vcd(o.vcd_path);
  std::vector<std::pair<uint64_t, int>> edges;
  for (uint32_t ch = 0; ch < 2; ++ch)
    for (uint32_t k = 0; k < 4; ++k)
      for (auto [a, b] : v.stretches("ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".state",
                                     [](uint64_t x) { return x >= kDieProgUser && x <= kDieProgGcMap; })) {
        edges.push_back({a, +1});
        edges.push_back({b, -1});
      }
  std::sort(edges.begin(), edges.end());  // an end (-1) sorts before a start at the same time
  int at_once = 0, most = 0;
  for (auto [t, e] : edges) most = std::max(most, at_once += e);
  CHECK(most == int(n));
  // Throughput against the analytic bound of N programs at a time.
  const double page = c.d("geometry.page_bytes"), t_prog = c.d("timing.t_prog_us") * 1e-6;
  const double analytic_mbps = n * page / t_prog / 1e6;
  const double mbps = d(r.summary["host"]["write_mbps"]);
  CHECK(mbps == Approx(analytic_mbps).epsilon(0.05));
  // Program energy by hand: P_program x tPROG per program scheduled: those finished, and at most the N the
  // budget lets run when the host's last write completes (data from the buffer still programming).
  const double e_prog = prog * t_prog, standby = c.d("power.nand_standby_w") * 8 * d(pw["span_s"]);
  const double programs = (d(pw["components"]["nand"]["energy_j"]) - standby) / e_prog;
  CHECK(programs == Approx(std::round(programs)).margin(1e-6));  // a whole number of programs
  CHECK(programs >= d(r.summary["nand"]["array_ops"]["programs"]));
  CHECK(programs <= d(r.summary["nand"]["array_ops"]["programs"]) + n);
  CHECK(d(pw["nand_op_energy_uj"]["program"][0]) == Approx(e_prog * 1e6));
  // The power signals are in the waveform.
  CHECK(v.has("power.total_w"));
  CHECK(v.has("thermal.temp_c"));
}

TEST_CASE("APST: the first read after an idle gap pays the idle state's exit latency", "[platform][power]") {
  // 400 ms think time after each read; PS3 (40 mW) is entered after 50 x (2 + 1.2) ms = 160 ms idle and
  // its 2 ms entry, PS4 after 50 x (0.5 + 9.5) ms = 500 ms: each read after the first wakes from PS3.
  const Config c = small_drive({"precondition.fill=true", "precondition.drive_writes=0", "workload.read_fraction=1",
                                "workload.io_count=10", "host.queue_depth=1", "workload.thinktime_us=400000",
                                "power.apst=true"});
  const RunResult r = run_generic(c);
  const auto& a = r.summary["power"]["apst"];
  CHECK(a["wakeups"].get<uint64_t>() == 9);
  CHECK(d(a["exit_latency_s"]) == Approx(9 * 1.2e-3).epsilon(1e-9));
  CHECK(d(a["states"][0]["time_s"]) == Approx(d(a["low_power_s"])));
  const auto& lat = r.summary["host"]["latency_us"]["read"];
  CHECK(d(lat["min"]) < 1200);   // the first read: no wake-up
  CHECK(d(lat["p50"]) > 1200);   // the others: 1.2 ms more
  // Energy: the idle time in PS3 at 40 mW instead of the floor.
  const double floor = d(r.summary["power"]["floor_w"]);
  CHECK(d(a["low_power_energy_j"]) == Approx(0.04 * d(a["low_power_s"])));
  CHECK(d(r.summary["power"]["avg_w"]) < floor / 2);
}

TEST_CASE("APST on the register interface: the driver's table enters the states when the command interface does",
          "[platform][power][nvme]") {
  // The same run through the driver, the PCIe link and the endpoint: the driver writes the APST table (ITPT 160 ms
  // for PS3, 338 ms for PS4) and the endpoint enters PS3 160 ms after each completion: 9 wake-ups of 1.2 ms; 700 ms
  // of think time reaches PS4 (entered at 500 ms): 9 wake-ups of 9.5 ms. Each run in its own process (run_cli).
  const std::string drive = " --set geometry.channels=2 --set geometry.dies_per_channel=4 --set geometry.blocks_per_plane=64"
                            " --set geometry.pages_per_block=64 --set host.queues=1 --set precondition.fill=true"
                            " --set precondition.drive_writes=0 --set workload.read_fraction=1 --set workload.io_count=10"
                            " --set host.queue_depth=1 --set power.apst=true";
  for (const char* think : {"400000", "700000"}) {
    INFO("think time " << think << " us");
    const std::string args = drive + " --set workload.thinktime_us=" + think;
    const auto cmd = test::run_cli(std::string("cmd") + think, args);
    const auto reg = test::run_cli(std::string("reg") + think, args + " --set nvme.interface=register");
    const auto& a = reg["power"]["apst"];
    const double exit_s = std::string(think) == "400000" ? 1.2e-3 : 9.5e-3;
    CHECK(a["wakeups"].get<uint64_t>() == 9);
    CHECK(d(a["exit_latency_s"]) == Approx(9 * exit_s).epsilon(1e-9));
    CHECK(a["wakeups"] == cmd["power"]["apst"]["wakeups"]);
    CHECK(d(a["exit_latency_s"]) == Approx(d(cmd["power"]["apst"]["exit_latency_s"])).epsilon(1e-9));
    CHECK(d(a["low_power_s"]) == Approx(d(cmd["power"]["apst"]["low_power_s"])).epsilon(1e-3));
  }
}

TEST_CASE("thermal: a sustained write heats past TMT1 and is throttled to the TMT budgets", "[platform][power]") {
  const double floor = 3.3e-5 * 8 + 0.15 + 1.0 + 0.3, prog = 0.0825;
  Config c = small_drive({"precondition.fill=false", "precondition.drive_writes=0", "workload.pattern=sequential",
                          "workload.read_fraction=0", "workload.block_bytes=65536", "workload.io_count=2048",
                          "host.queue_depth=8", "buffer.bytes=1048576", "thermal.enabled=true", "thermal.r_c_per_w=8",
                          "thermal.c_j_per_c=0.02", "thermal.tmt1_c=36", "thermal.tmt2_c=38", "thermal.hysteresis_c=0.5"});
  c.set("thermal.tmt1_budget_w=" + std::to_string(floor + 4.5 * prog));
  c.set("thermal.tmt2_budget_w=" + std::to_string(floor + 2.5 * prog));
  const RunResult r = run_generic(c);
  const auto& th = r.summary["thermal"];
  CHECK(d(th["max_c"]) >= 36);
  CHECK(d(th["max_c"]) < 25 + 8 * (floor + 8 * prog + 0.5));  // below the unthrottled steady state
  CHECK(d(th["throttled_s"]) > 0);
  CHECK(d(r.summary["power"]["budget_wait_s"]) > 0);
  // Each interval run under a throttle level (the previous row's) keeps the array within that level's budget
  const auto rows = read_csv_rows(r.timeseries_csv);
  uint32_t checked = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].at("t_ms") - rows[i - 1].at("t_ms") > 10.5) continue;  // a skipped idle gap
    // 4 programs fit the TMT1 budget, 2 the TMT2 budget; an interval's average also holds the array time of
    // operations scheduled near its end (up to tPROG / interval = 7 % more)
    const double level = rows[i - 1].at("throttle");
    const double allowed = (level == 2 ? 2 : level == 1 ? 4 : 8) * prog;
    CHECK(rows[i].at("nand_w") - 3.3e-5 * 8 <= allowed * 1.08 + 1e-9);
    checked += level > 0;
  }
  CHECK(checked > 0);
}

TEST_CASE("a budget that never binds and a thermal model that never throttles leave the timing unchanged", "[platform][power]") {
  // Two runs as child processes (one simulation per process): the default and the same with both on.
  const std::string dir = "power_tests/unbound";
  fs::create_directories(dir + "/a");
  fs::create_directories(dir + "/b");
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-generic --quiet ";
  const std::string common = "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64 "
                             "--set geometry.pages_per_block=64 --set workload.io_count=20000 --set workload.read_fraction=0.5 "
                             "--set precondition.drive_writes=1 --set flash.suspend=program_erase ";
  REQUIRE(std::system((bin + common + "--out " + dir + "/a >/dev/null 2>&1").c_str()) == 0);
  REQUIRE(std::system((bin + common + "--set power.budget_w=100 --set thermal.enabled=true --set thermal.tmt1_c=190 "
                       "--set thermal.tmt2_c=200 --out " + dir + "/b >/dev/null 2>&1").c_str()) == 0);
  const auto a = nlohmann::json::parse(read_text(dir + "/a/summary.json"));
  const auto b = nlohmann::json::parse(read_text(dir + "/b/summary.json"));
  for (const char* part : {"host", "waf", "nand", "utilization"}) {
    INFO(part);
    CHECK(a[part] == b[part]);
  }
  CHECK(b["power"]["budget_wait_s"].get<double>() == 0);
  CHECK(b["thermal"]["max_c"].get<double>() > 25);
  CHECK(a["power"]["energy_j"] == b["power"]["energy_j"]);
}
