// Waveforms of whole runs: busy lines against the summary, GC operations against the FTL's counters, the
// generated GTKWave layout on several geometries (and in GTKWave itself), windows, FST, and tracing that
// leaves the model untouched. One simulation per TEST_CASE in this process; more run as child processes.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "common/cli_run.h"
#include "common/sim_time.h"
#include "platform/platform_run.h"
#include "wave/vcd_reader.h"
#include "wave/wave_signals.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
namespace fs = std::filesystem;

namespace {

std::string fresh_dir(const std::string& name) {
  const fs::path d = fs::path("wave_tests") / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d.string();
}

RunResult run_traced(const Config& c, const std::string& vcd, uint64_t start_ps = 0, uint64_t end_ps = ~uint64_t(0)) {
  RunOptions o;
  o.vcd_path = vcd;
  o.vcd_start_ps = start_ps;
  o.vcd_end_ps = end_ps;
  o.quiet = true;
  return simulate(c, generic_platform_info(), o);
}

// Runs the platform executable with paths relative to the test's folder (common/cli_run.h's run_in runs in DIR);
// returns its exit status (stdout and stderr in DIR/stdout, DIR/stderr).
int cli_status(const std::string& dir, const std::string& args, const std::string& env = "") {
  const std::string cmd = env + " " + std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-generic --quiet --out " + dir +
                          " " + args + " >" + dir + "/stdout 2>" + dir + "/stderr";
  const int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_text(path)); }

bool busy_state(uint64_t v) { return v != kDieIdle && v != kVcdZ; }
bool driven(uint64_t v) { return v != kVcdZ; }

// Each die's and each channel's busy fraction from the VCD against summary.json's utilization: within 1%
// absolute (the bound) and within 0.1% of the value (so that small utilizations are checked too).
void check_busy_fractions(const RunResult& r, const std::string& vcd_path) {
  const Vcd v = read_vcd(vcd_path);
  const auto& u = r.summary["utilization"];
  const auto& geo = r.summary["geometry"];
  const uint32_t channels = uint32_t(u["channels"].size()), dies = geo["dies"].get<uint32_t>();
  REQUIRE(channels > 0);
  const uint32_t per_channel = dies / channels;
  const double span = r.summary["timed_run_s"].get<double>() * 1e12;
  REQUIRE(span > 0);
  double worst = 0, die_sum = 0, bus_sum = 0;
  auto check = [&](const std::string& what, double vcd, double summary) {
    INFO(what << ": VCD " << vcd << ", summary " << summary);
    CHECK(std::abs(vcd - summary) <= 0.01);
    CHECK(std::abs(vcd - summary) <= 1e-3 * summary + 1e-9);
    worst = std::max(worst, std::abs(vcd - summary));
  };
  for (uint32_t ch = 0; ch < channels; ++ch) {
    const std::string c = "ch" + std::to_string(ch);
    const double owner = double(v.time_where(c + ".bus.owner", driven)) / span;
    const double dir = double(v.time_where(c + ".bus.dir", [](uint64_t x) { return x != kBusIdle; })) / span;
    check(c + ".bus.owner", owner, u["channels"][ch].get<double>());
    check(c + ".bus.dir", dir, u["channels"][ch].get<double>());
    bus_sum += owner;
    for (uint32_t k = 0; k < per_channel; ++k) {
      const std::string d = c + ".die" + std::to_string(k) + ".state";
      const double busy = double(v.time_where(d, busy_state)) / span;
      check(d, busy, u["dies"][k * channels + ch].get<double>());
      die_sum += busy;
    }
  }
  check("mean die", die_sum / dies, u["die_array"].get<double>());
  check("mean bus", bus_sum / channels, u["channel_bus"].get<double>());
  WARN("worst |VCD - summary| busy fraction: " << worst << " (dies " << u["die_array"].get<double>() << ", buses "
                                               << u["channel_bus"].get<double>() << ")");
}

// Array operations of one kind in the dies' states: each stretch of a state is one or more operations of
// the state's fixed duration (back-to-back ones are separated by a zero-width idle).
struct Ops {
  std::vector<uint64_t> starts, ends;
  uint64_t bad_lengths = 0;  // stretches that are not a whole number of operations
};
Ops ops_of(const Vcd& v, uint32_t channels, uint32_t per_channel, std::set<uint64_t> states, uint64_t duration) {
  Ops o;
  for (uint32_t ch = 0; ch < channels; ++ch)
    for (uint32_t k = 0; k < per_channel; ++k)
      for (auto [a, b] : v.stretches("ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".state",
                                     [&](uint64_t x) { return states.count(x) != 0; })) {
        if ((b - a) % duration) ++o.bad_lengths;
        for (uint64_t t = a; t + duration <= b; t += duration) {
          o.starts.push_back(t);
          o.ends.push_back(t + duration);
        }
      }
  std::sort(o.starts.begin(), o.starts.end());
  std::sort(o.ends.begin(), o.ends.end());
  return o;
}

size_t count_before(const std::vector<uint64_t>& sorted, uint64_t t, bool inclusive) {
  return size_t((inclusive ? std::upper_bound(sorted.begin(), sorted.end(), t)
                           : std::lower_bound(sorted.begin(), sorted.end(), t)) -
                sorted.begin());
}

// A small drive in steady state: random 4 KiB writes over a filled and once overwritten 8 x 8 device.
Config gc_config(std::initializer_list<std::string> extra) {
  Config c = generic_config({"geometry.blocks_per_plane=40", "geometry.pages_per_block=64", "buffer.bytes=4194304",
                             "precondition.drive_writes=1", "workload.io_count=150000", "host.queues=4",
                             "host.queue_depth=16"});
  for (auto& s : extra) c.set(s);
  return c;
}

// The .gtkw's signal lines ("+{alias} ssd.name[range]") and translate filter files.
struct GtkwRows {
  std::vector<std::pair<std::string, std::string>> signals;  // alias, name
  std::vector<std::string> filters;
  size_t group_begins = 0, closed_groups = 0;
};
GtkwRows read_gtkw(const std::string& path) {
  GtkwRows g;
  std::istringstream in(read_text(path));
  std::string line, flags;
  while (std::getline(in, line)) {
    if (line.rfind("+{", 0) == 0) {
      const size_t close = line.find("} ");
      g.signals.push_back({line.substr(2, close - 2), line.substr(close + 2)});
    } else if (line[0] == '^') {
      g.filters.push_back(line.substr(line.find(' ') + 1));
    } else if (line[0] == '@') {
      flags = line;
    } else if (line[0] == '-' && line.size() > 1) {
      const uint32_t f = uint32_t(std::stoul(flags.substr(1), nullptr, 16));
      if (f & (1u << 23)) {
        ++g.group_begins;
        if (f & (1u << 22)) ++g.closed_groups;
      }
    }
  }
  return g;
}

// GTKWave (installed by scripts/setup.sh) loads the VCD and its layout under Xvfb: every signal row of the layout
// shows, and GTKWave reports nothing.
void check_in_gtkwave(const std::string& dir, const std::string& vcd, const GtkwRows& g) {
  const std::string tcl = dir + "/rows.tcl";
  std::ofstream(tcl) << "set n [gtkwave::getTotalNumTraces]\n"
                        "for {set i 0} {$i < $n} {incr i} {\n"
                        "  puts \"ROW [gtkwave::getTraceFlagsFromIndex $i] [gtkwave::getTraceNameFromIndex $i]\"\n"
                        "}\n"
                        "gtkwave::/File/Quit\n";
  const std::string cmd = "xvfb-run -a gtkwave -S " + tcl + " " + vcd + " " + vcd + ".gtkw >" + dir +
                          "/gtkwave.out 2>&1";
  INFO("GTKWave and Xvfb come with scripts/setup.sh (Debian packages gtkwave, xvfb, xauth)");
  REQUIRE(std::system("command -v gtkwave >/dev/null && command -v xvfb-run >/dev/null") == 0);
  REQUIRE(std::system(cmd.c_str()) == 0);
  const std::string shown = read_text(dir + "/gtkwave.out");
  INFO(shown.substr(0, 3000));
  std::set<std::string> rows;
  std::istringstream in(shown);
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("ROW ", 0) == 0) {
      const size_t sp = line.find(' ', 4);
      const uint32_t flags = uint32_t(std::stoul(line.substr(4, sp - 4)));
      if (!(flags & ((1u << 9) | (1u << 17)))) rows.insert(line.substr(sp + 1));  // not a blank, group or analog height row
    }
  CHECK(rows.size() == g.signals.size());
  for (auto& [alias, name] : g.signals) CHECK(rows.count(alias));
  for (const char* bad : {"WARNING", "Warning", "Could not", "not found", "rror"}) CHECK(shown.find(bad) == std::string::npos);
}

// The generated layout for a geometry: every signal it names exists in the VCD with the width its range
// says, every die and bus is in it once, its filters exist and name every value the VCD holds; and, in
// GTKWave itself (under Xvfb), every signal row loads and nothing is reported.
void check_layout(uint32_t channels, uint32_t per_channel) {
  const std::string dir = fresh_dir("layout_" + std::to_string(channels) + "x" + std::to_string(per_channel));
  const std::string vcd = dir + "/run.vcd";
  Config c = generic_config({"geometry.channels=" + std::to_string(channels),
                             "geometry.dies_per_channel=" + std::to_string(per_channel), "geometry.blocks_per_plane=48",
                             "geometry.pages_per_block=32", "buffer.bytes=1048576", "workload.io_count=20000",
                             "workload.read_fraction=0.5", "precondition.drive_writes=1"});
  RunResult r = run_traced(c, vcd);
  REQUIRE(r.summary["waveform"]["out_of_order_changes"] == 0);
  const Vcd v = read_vcd(vcd);
  const GtkwRows g = read_gtkw(vcd + ".gtkw");
  std::set<std::string> named;
  for (auto& [alias, name] : g.signals) {
    INFO(name);
    REQUIRE(name.rfind("ssd.", 0) == 0);
    std::string bare = name.substr(4);
    uint32_t width = 1;
    if (bare.back() == ']') {
      const size_t open = bare.rfind('[');
      width = uint32_t(std::stoul(bare.substr(open + 1))) + 1;
      CHECK(bare.substr(bare.find(':', open)) == ":0]");
      bare.resize(open);
    }
    REQUIRE(v.has(bare));
    CHECK((v.at(bare).real ? 1u : v.at(bare).width) == width);  // a real (power, temperature) has no bit range
    std::string spaced = bare;
    std::replace(spaced.begin(), spaced.end(), '.', ' ');
    CHECK(alias == spaced);
    CHECK(named.insert(bare).second);  // once
  }
  CHECK(named.size() == v.signals.size());  // and every traced signal has its row
  for (uint32_t ch = 0; ch < channels; ++ch) {
    const std::string p = "ch" + std::to_string(ch);
    CHECK(named.count(p + ".bus.owner"));
    CHECK(named.count(p + ".bus.dir"));
    for (uint32_t k = 0; k < per_channel; ++k) {
      CHECK(named.count(p + ".die" + std::to_string(k) + ".state"));
      CHECK(named.count(p + ".die" + std::to_string(k) + ".free_blocks"));
    }
  }
  CHECK(g.group_begins >= channels + 2);
  REQUIRE(g.filters.size() >= 2);
  for (auto& f : g.filters) CHECK(fs::exists(f));
  // Every value a state or a transfer takes has a name in the filter used for it.
  std::set<uint64_t> state_names, dir_names;
  for (auto& e : {wave_die_state_table(), wave_bus_dir_table()})
    for (auto& val : e.values) (e.name == "die_state" ? state_names : dir_names).insert(val.value);
  for (auto& s : v.signals) {
    const bool state = s.name.size() > 6 && s.name.compare(s.name.size() - 6, 6, ".state") == 0;
    const bool dir_signal = s.name.size() > 4 && s.name.compare(s.name.size() - 4, 4, ".dir") == 0;
    for (auto& [t, val] : s.changes) {
      if (state) CHECK(state_names.count(val));
      if (dir_signal) CHECK(dir_names.count(val));
    }
  }

  check_in_gtkwave(dir, vcd, g);
}

}  // namespace

TEST_CASE("waveform busy lines match the summary: QD 1 random reads", "[platform][wave]") {
  const std::string dir = fresh_dir("qd1");
  Config c = generic_config({"precondition.drive_writes=0", "workload.read_fraction=1", "workload.io_count=20000",
                             "host.queues=1", "host.queue_depth=1"});
  RunResult r = run_traced(c, dir + "/run.vcd");
  CHECK(r.summary["waveform"]["out_of_order_changes"] == 0);
  check_busy_fractions(r, dir + "/run.vcd");
  // Every read is drawn once, as tR exactly; at QD 1 a die is far from always busy (issue 13's 99.7 %).
  const Vcd v = read_vcd(dir + "/run.vcd");
  const Ops reads = ops_of(v, 8, 8, {kDieReadUser}, us_to_ps(c.d("timing.t_read_us")));
  CHECK(reads.bad_lengths == 0);
  CHECK(reads.starts.size() == r.summary["nand"]["array_ops"]["reads"].get<size_t>());
  CHECK(reads.starts.size() == 20000);
  CHECK(r.summary["utilization"]["die_array"].get<double>() < 0.05);
}

TEST_CASE("waveform busy lines match the summary: QD 256 random reads", "[platform][wave]") {
  const std::string dir = fresh_dir("qd256");
  Config c = generic_config({"precondition.drive_writes=0", "workload.read_fraction=1", "workload.io_count=200000",
                             "host.queues=1", "host.queue_depth=256"});
  RunResult r = run_traced(c, dir + "/run.vcd");
  CHECK(r.summary["waveform"]["out_of_order_changes"] == 0);
  check_busy_fractions(r, dir + "/run.vcd");
  CHECK(r.summary["utilization"]["channel_bus"].get<double>() > 0.5);
}

TEST_CASE("waveform busy lines match the summary: steady-state random writes with GC", "[platform][wave][gc]") {
  const std::string dir = fresh_dir("gc_busy");
  RunResult r = run_traced(gc_config({}), dir + "/run.vcd");
  CHECK(r.summary["waveform"]["out_of_order_changes"] == 0);
  REQUIRE(r.summary["nand"]["erases"].get<uint64_t>() > 100);
  check_busy_fractions(r, dir + "/run.vcd");
}

TEST_CASE("waveform busy lines match the summary: a 70/30 mix with GC and program/erase suspend", "[platform][wave][suspend]") {
  // Suspended operations are cut where they are suspended; t_suspend and t_resume show as `suspended`.
  const std::string dir = fresh_dir("suspend_busy");
  RunResult r = run_traced(gc_config({"workload.read_fraction=0.7", "flash.suspend=program_erase", "flash.die_sched=read_first"}),
                           dir + "/run.vcd");
  CHECK(r.summary["waveform"]["out_of_order_changes"] == 0);
  REQUIRE(r.summary["nand"]["suspend"]["program_suspends"].get<uint64_t>() > 1000);
  REQUIRE(r.summary["nand"]["suspend"]["erase_suspends"].get<uint64_t>() > 10);
  check_busy_fractions(r, dir + "/run.vcd");
  // every suspension shows t_suspend and t_resume (20 us each by default) in the `suspended` state
  const Vcd v = read_vcd(dir + "/run.vcd");
  const uint32_t dies = r.summary["geometry"]["dies"].get<uint32_t>(), channels = uint32_t(r.summary["utilization"]["channels"].size());
  uint64_t suspended_ps = 0;
  for (uint32_t ch = 0; ch < channels; ++ch)
    for (uint32_t k = 0; k < dies / channels; ++k)
      suspended_ps += v.time_where("ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".state",
                                   [](uint64_t x) { return x == kDieSuspended; });
  const auto& su = r.summary["nand"]["suspend"];
  const double suspensions = su["program_suspends"].get<double>() + su["erase_suspends"].get<double>();
  CHECK(double(suspended_ps) == Approx(suspensions * 40e6).epsilon(1e-3));
}

TEST_CASE("erases and GC programs in the die states match the FTL's counters in time", "[platform][wave][gc]") {
  const std::string dir = fresh_dir("gc_times");
  Config c = gc_config({"stats.interval_ms=1"});
  RunResult r = run_traced(c, dir + "/run.vcd");
  const Vcd v = read_vcd(dir + "/run.vcd");
  const uint64_t t_erase = us_to_ps(c.d("timing.t_erase_us")), t_prog = us_to_ps(c.d("timing.t_prog_us"));
  const Ops erases = ops_of(v, 8, 8, {kDieErase}, t_erase);
  const Ops gc_programs = ops_of(v, 8, 8, {kDieProgGc, kDieProgGcMap}, t_prog);
  CHECK(erases.bad_lengths == 0);  // drawn with their true durations
  CHECK(gc_programs.bad_lengths == 0);
  REQUIRE(erases.starts.size() >= 1);
  REQUIRE(gc_programs.starts.size() >= 1);
  const auto rows = read_csv_rows(r.timeseries_csv);
  REQUIRE(rows.size() > 20);
  // Erases count when they complete (the end of tBERS); GC programs when the FTL issues them, before their
  // data-in and tPROG: the count at t lies between the programs started by t and those started by t + lag, where
  // lag covers what a program may wait for on its die (an erase, or the tPROG before it) and its data-in.
  const uint64_t lag = t_erase + 2 * t_prog;
  uint64_t erased = 0, programmed = 0;
  size_t erase_mismatch = 0, program_mismatch = 0;
  for (size_t i = 0; i + 1 < rows.size(); ++i) {  // the last row ends at the last completion, not on the grid
    erased += uint64_t(rows[i].at("erases"));
    programmed += uint64_t(rows[i].at("gc_programs"));
    const uint64_t t = uint64_t(std::llround(rows[i].at("t_ms") * 1e9));
    const size_t lo = count_before(erases.ends, t, false), hi = count_before(erases.ends, t, true);
    if (erased < lo || erased > hi) {
      ++erase_mismatch;
      UNSCOPED_INFO("t " << t << " ps: FTL erases " << erased << ", VCD " << lo << ".." << hi);
    }
    const size_t started = count_before(gc_programs.starts, t, true), soon = count_before(gc_programs.starts, t + lag, true);
    if (programmed < started || programmed > soon) {
      ++program_mismatch;
      UNSCOPED_INFO("t " << t << " ps: FTL GC programs " << programmed << ", VCD started " << started << ", by +lag " << soon);
    }
  }
  CHECK(erase_mismatch == 0);
  CHECK(program_mismatch == 0);
  // In total: every erase the FTL counted ended in the VCD by the last completion; every GC program drawn was
  // issued (the VCD may hold programs still running at the end; the FTL may hold a few not yet started).
  const uint64_t end = uint64_t(std::llround(r.summary["timed_run_s"].get<double>() * 1e12));
  const uint64_t ftl_erases = r.summary["nand"]["erases"].get<uint64_t>();
  CHECK(count_before(erases.ends, end, false) <= ftl_erases);
  CHECK(ftl_erases <= count_before(erases.ends, end, true));
  const uint64_t ftl_gc = r.summary["nand"]["programs"]["gud"].get<uint64_t>() + r.summary["nand"]["programs"]["gmd"].get<uint64_t>();
  CHECK(gc_programs.starts.size() <= ftl_gc);
  CHECK(ftl_gc - gc_programs.starts.size() <= 2 * 64);
}

TEST_CASE("the generated layout loads for 8 x 8 dies", "[platform][wave][gtkwave]") { check_layout(8, 8); }
TEST_CASE("the generated layout loads for 4 x 16 dies", "[platform][wave][gtkwave]") { check_layout(4, 16); }
TEST_CASE("the generated layout loads for 2 x 2 dies", "[platform][wave][gtkwave]") { check_layout(2, 2); }

TEST_CASE("a waveform window over 100 ms of a 1 M I/O run is proportional to the window", "[platform][wave]") {
  // 1 M random reads at QD 256 (about 1.3 s simulated); windows of 100 ms and 50 ms; and a short untraced-window
  // run of the same workload for the bytes one simulated ms costs.
  const std::string base = "--set precondition.drive_writes=0 --set workload.read_fraction=1 --set host.queues=1 "
                           "--set host.queue_depth=256";
  const std::string d100 = fresh_dir("window100"), d50 = fresh_dir("window50"), dall = fresh_dir("window_full");
  REQUIRE(cli_status(d100, base + " --set workload.io_count=1000000 --vcd " + d100 + "/w.vcd --vcd-window 100:200") == 0);
  REQUIRE(cli_status(d50, base + " --set workload.io_count=1000000 --vcd " + d50 + "/w.vcd --vcd-window 100:150") == 0);
  REQUIRE(cli_status(dall, base + " --set workload.io_count=50000 --vcd " + dall + "/w.vcd") == 0);
  const auto s100 = read_json(d100 + "/summary.json"), s50 = read_json(d50 + "/summary.json"),
             sall = read_json(dall + "/summary.json");
  REQUIRE(s100["host"]["ios"] == 1000000);
  const double run_ms = s100["timed_run_s"].get<double>() * 1e3;
  REQUIRE(run_ms > 1000);
  const double b100 = double(fs::file_size(d100 + "/w.vcd")), b50 = double(fs::file_size(d50 + "/w.vcd"));
  const double per_ms = double(fs::file_size(dall + "/w.vcd")) / (sall["waveform"]["end_ms"].get<double>());
  INFO("100 ms: " << b100 << " B, 50 ms: " << b50 << " B, a whole traced run costs " << per_ms << " B per ms ("
                  << per_ms * run_ms << " B for this run)");
  CHECK(b100 / b50 == Approx(2.0).epsilon(0.15));
  CHECK(b100 == Approx(100 * per_ms).epsilon(0.25));
  CHECK(b100 < 0.15 * per_ms * run_ms);
  // Only the window is in the file.
  const Vcd v = read_vcd(d100 + "/w.vcd");
  CHECK(v.times.front() == 100000000000ull);
  CHECK(v.end == 200000000000ull);
  CHECK(s100["waveform"]["start_ms"] == 100.0);
  CHECK(s100["waveform"]["end_ms"] == 200.0);
}

TEST_CASE("tracing leaves the simulation unchanged and adds no kernel events", "[platform][wave]") {
  const std::string args = "--set geometry.channels=2 --set geometry.dies_per_channel=4 --set geometry.blocks_per_plane=32 "
                           "--set geometry.pages_per_block=32 --set buffer.bytes=1048576 --set workload.io_count=40000 "
                           "--set workload.read_fraction=0.3";
  const std::string off = fresh_dir("untraced"), on = fresh_dir("traced");
  REQUIRE(cli_status(off, args) == 0);
  REQUIRE(cli_status(on, args + " --vcd " + on + "/w.vcd") == 0);
  auto a = read_json(off + "/summary.json"), b = read_json(on + "/summary.json");
  CHECK(b.contains("waveform"));
  CHECK(!a.contains("waveform"));
  CHECK(b["nand"]["erases"].get<uint64_t>() > 0);
  for (auto* s : {&a, &b}) {
    s->erase("waveform");
    s->erase("wall_time_s");
    s->erase("memory");
    (*s)["precondition"].erase("wall_time_s");
  }
  CHECK(a["kernel"] == b["kernel"]);
  CHECK(a == b);
  CHECK(read_text(off + "/timeseries.csv") == read_text(on + "/timeseries.csv"));
}

TEST_CASE("FST output (--fst) holds the same changes as the VCD", "[platform][wave][gtkwave]") {
  const std::string args = "--set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=32 "
                           "--set geometry.pages_per_block=32 --set buffer.bytes=1048576 --set workload.io_count=20000 "
                           "--set workload.read_fraction=0.5";
  const std::string dv = fresh_dir("fst_vcd"), df = fresh_dir("fst_fst"), de = fresh_dir("fst_ext");
  REQUIRE(cli_status(dv, args + " --vcd " + dv + "/w.vcd") == 0);
  REQUIRE(cli_status(df, args + " --fst " + df + "/w.fst") == 0);
  REQUIRE(cli_status(de, args + " --vcd " + de + "/w.fst") == 0);  // by the extension
  REQUIRE(read_json(df + "/summary.json")["waveform"]["format"] == "fst");
  REQUIRE(read_json(de + "/summary.json")["waveform"]["format"] == "fst");
  CHECK(fs::exists(df + "/w.fst.gtkw"));
  CHECK(fs::file_size(df + "/w.fst") < fs::file_size(dv + "/w.vcd") / 4);
  REQUIRE(std::system(("fst2vcd " + df + "/w.fst > " + df + "/back.vcd 2>/dev/null").c_str()) == 0);
  const Vcd a = read_vcd(dv + "/w.vcd"), b = read_vcd(df + "/back.vcd");
  REQUIRE(a.signals.size() == b.signals.size());
  for (auto& s : a.signals) {
    INFO(s.name);
    REQUIRE(b.has(s.name));
    CHECK(b.at(s.name).width == s.width);
    CHECK(b.at(s.name).changes == s.changes);
  }
  CHECK(b.end == a.end);
}

TEST_CASE("waveform options are checked before the run", "[platform][wave][cli]") {
  const std::string d = fresh_dir("cli");
  CHECK(cli_status(d, "--vcd-window 10:20") == 2);
  CHECK(read_text(d + "/stderr").find("--vcd-window: expected --vcd FILE or --fst FILE") != std::string::npos);
  CHECK(cli_status(d, "--vcd " + d + "/w.vcd --vcd-window 20:10") == 2);
  CHECK(read_text(d + "/stderr").find("START_MS:END_MS") != std::string::npos);
  CHECK(!fs::exists(d + "/w.vcd"));
  CHECK(cli_status(d, "--fst " + d + "/w.fst", "PATH=/nonexistent") == 2);
  CHECK(read_text(d + "/stderr").find("vcd2fst") != std::string::npos);
}
