// The waveform tracer without a simulation: merging per-signal streams, same-time rules, windows, value
// formats, the GTKWave layout, and the helpers around it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>

#include "config/config.h"
#include "common/rng.h"
#include "sim/runner.h"
#include "wave/wave_signals.h"
#include "wave/wave_trace.h"
#include "wave/vcd_reader.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

uint64_t g_now = 0;
uint64_t fake_clock() { return g_now; }

std::string scratch(const std::string& name) {
  std::filesystem::create_directories("wave_unit");
  return "wave_unit/" + name;
}

WaveOptions to(const std::string& path) {
  WaveOptions o;
  o.path = path;
  return o;
}

// The value a VCD signal shows at time t (the last change at or before t).
uint64_t value_at(const VcdSignal& s, uint64_t t) {
  uint64_t v = kVcdZ;
  for (auto& [ct, cv] : s.changes) {
    if (ct > t) break;
    v = cv;
  }
  return v;
}

}  // namespace

TEST_CASE("records arriving out of time order across signals are written in time order", "[wave]") {
  const std::string path = scratch("order.vcd");
  g_now = 0;
  {
    WaveTracer w(to(path), fake_clock);
    const uint32_t a = w.add("ch0.die0.state", 4, WaveStyle::Enum, 0);
    const uint32_t b = w.add("ftl.count", 8, WaveStyle::Counter, 0);
    w.set_boundary(a, 0);
    g_now = 50;
    w.interval(a, 100, 500, 3, 0);  // scheduled ahead: its end lies beyond records made later
    g_now = 60;
    w.set(b, 60, 7);
    g_now = 200;
    w.set(b, 200, 8);
    g_now = 300;
    w.interval(a, 500, 900, 3, 0);  // starts as the first ends: a boundary, not a merge
    g_now = 950;
    w.finish(1000);
    CHECK(w.stats().out_of_order == 0);
  }
  Vcd v = read_vcd(path);
  CHECK(v.timescale == "1ps");
  for (size_t i = 1; i < v.times.size(); ++i) CHECK(v.times[i] > v.times[i - 1]);
  using C = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(v.at("ch0.die0.state").changes == C{{0, 0}, {100, 3}, {500, 0}, {500, 3}, {900, 0}});
  CHECK(v.at("ftl.count").changes == C{{0, 0}, {60, 7}, {200, 8}});
  CHECK(v.end == 1000);
  // Two operations, each 400 ps: the boundary keeps them apart and costs no busy time.
  auto busy = [](uint64_t x) { return x != 0; };
  CHECK(v.stretches("ch0.die0.state", busy) == C{{100, 500}, {500, 900}});
  CHECK(v.time_where("ch0.die0.state", busy) == 800);
}

TEST_CASE("the last value recorded for a time wins and unchanged values are not written", "[wave]") {
  const std::string path = scratch("same_time.vcd");
  g_now = 0;
  {
    WaveTracer w(to(path), fake_clock);
    const uint32_t c = w.add("host.outstanding", 8, WaveStyle::Counter, 5);
    const uint32_t d = w.add("ch0.bus.owner", 2, WaveStyle::Number, kWaveZ);
    g_now = 10;
    w.set(c, 10, 4);  // a completion and the next submission at the same instant: no change
    w.set(c, 10, 5);
    w.set(d, 10, 1);
    w.set(d, 10, 2);  // the later record wins
    g_now = 20;
    w.set(c, 20, 6);
    w.finish(30);
  }
  Vcd v = read_vcd(path);
  using C = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(v.at("host.outstanding").changes == C{{0, 5}, {20, 6}});
  CHECK(v.at("ch0.bus.owner").changes == C{{0, kVcdZ}, {10, 2}});
}

TEST_CASE("a random schedule of intervals and counters reads back exactly", "[wave]") {
  // Several signals, each recorded in its own time order but scheduled up to 5 us ahead of a clock that
  // advances by small steps; enough records to flush many times. Every recorded value must read back at
  // its time (the last one recorded for that time).
  const std::string path = scratch("random.vcd");
  Rng rng(11);
  const int kSignals = 12;
  std::vector<std::map<uint64_t, uint64_t>> ref(kSignals);
  std::vector<uint64_t> next(kSignals, 0);
  g_now = 0;
  {
    WaveTracer w(to(path), fake_clock);
    for (int s = 0; s < kSignals; ++s) {
      const uint32_t id = w.add("sig" + std::to_string(s) + ".v", 8, s % 2 ? WaveStyle::Counter : WaveStyle::Enum, 0);
      if (s % 2 == 0) w.set_boundary(id, 0);
      ref[size_t(s)][0] = 0;
    }
    for (int i = 0; i < 400000; ++i) {
      g_now += rng.below(40);
      const int s = int(rng.below(kSignals));
      uint64_t& t = next[size_t(s)];
      t = std::max(t, g_now);
      if (s % 2 == 0) {  // an interval starting now or a little later, possibly right at the previous end
        const uint64_t start = t + (rng.below(3) == 0 ? 0 : rng.below(2000));
        const uint64_t end = start + 1 + rng.below(5000);
        const uint64_t value = 1 + rng.below(3);
        w.interval(uint32_t(s), start, end, value, 0);
        ref[size_t(s)][start] = value;
        ref[size_t(s)][end] = 0;
        t = end;
      } else {  // a counter changing now
        const uint64_t value = rng.below(200);
        w.set(uint32_t(s), g_now, value);
        ref[size_t(s)][g_now] = value;
        t = g_now;
      }
    }
    w.finish(g_now);
    CHECK(w.stats().out_of_order == 0);
  }
  Vcd v = read_vcd(path);
  for (size_t i = 1; i < v.times.size(); ++i) REQUIRE(v.times[i] > v.times[i - 1]);
  for (int s = 0; s < kSignals; ++s) {
    const VcdSignal& sig = v.at("sig" + std::to_string(s) + ".v");
    size_t checked = 0, mismatches = 0, at = 0;
    uint64_t shown = kVcdZ;
    for (auto& [t, value] : ref[size_t(s)]) {  // both in time order: the value shown at t is the last change <= t
      while (at < sig.changes.size() && sig.changes[at].first <= t) shown = sig.changes[at++].second;
      ++checked;
      if (shown != value) ++mismatches;
    }
    CHECK(value_at(sig, 0) == 0);
    INFO("signal " << s << ": " << checked << " times checked");
    CHECK(mismatches == 0);
  }
}

TEST_CASE("a window keeps the values at its start and drops what follows its end", "[wave]") {
  const std::string path = scratch("window.vcd");
  g_now = 0;
  WaveOptions o = to(path);
  o.start_ps = 1000;
  o.end_ps = 2000;
  {
    WaveTracer w(o, fake_clock);
    const uint32_t a = w.add("ch0.die0.state", 4, WaveStyle::Enum, 0);
    const uint32_t b = w.add("ftl.count", 8, WaveStyle::Counter, 1);
    w.set(b, 100, 5);
    w.set(b, 900, 6);
    w.interval(a, 500, 1500, 2, 0);  // running when the window opens
    g_now = 1600;
    w.interval(a, 1800, 2500, 4, 0);  // running when it closes
    w.set(b, 1600, 7);
    g_now = 2700;
    w.set(b, 2700, 9);
    w.finish(3000);
    CHECK(w.stats().first_ps == 1000);
    CHECK(w.stats().last_ps == 2000);
  }
  Vcd v = read_vcd(path);
  using C = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(v.times.front() == 1000);
  CHECK(v.end == 2000);
  CHECK(v.at("ch0.die0.state").changes == C{{1000, 2}, {1500, 0}, {1800, 4}});
  CHECK(v.at("ftl.count").changes == C{{1000, 6}, {1600, 7}});
}

TEST_CASE("a window after the last change still has its values and its span", "[wave]") {
  const std::string path = scratch("window_late.vcd");
  WaveOptions o = to(path);
  o.start_ps = 5000;
  o.end_ps = 6000;
  g_now = 0;
  {
    WaveTracer w(o, fake_clock);
    const uint32_t b = w.add("ftl.count", 8, WaveStyle::Counter, 1);
    w.set(b, 10, 3);
    w.finish(100);  // the run ended before the window
  }
  Vcd v = read_vcd(path);
  using C = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(v.at("ftl.count").changes == C{{5000, 3}});
  CHECK(v.end == 5000);
}

TEST_CASE("values are written as VCD scalars and vectors, z for an undriven bus", "[wave]") {
  const std::string path = scratch("format.vcd");
  g_now = 0;
  {
    WaveTracer w(to(path), fake_clock);
    const uint32_t bit = w.add("x.bit", 1, WaveStyle::Number, 0);
    const uint32_t owner = w.add("x.owner", 3, WaveStyle::Number, kWaveZ);
    const uint32_t wide = w.add("x.wide", 40, WaveStyle::Counter, 0);
    const uint32_t narrow = w.add("x.narrow", 3, WaveStyle::Counter, 0);
    w.set(bit, 5, 1);
    w.set(owner, 5, 5);
    w.set(wide, 5, uint64_t(1) << 39);
    w.set(narrow, 5, 100);  // beyond 3 bits: shown as the largest value, not wrapped
    w.set(bit, 7, kWaveZ);
    w.set(owner, 7, kWaveZ);
    w.finish(10);
  }
  const std::string text = read_text(path);
  CHECK(text.find("$var wire 3 \" owner $end") != std::string::npos);
  CHECK(text.find("bz \"\n") != std::string::npos);
  CHECK(text.find("b101 \"\n") != std::string::npos);
  CHECK(text.find("\n1!\n") != std::string::npos);
  CHECK(text.find("\nz!\n") != std::string::npos);
  CHECK(text.find("b1" + std::string(39, '0') + " #\n") != std::string::npos);
  Vcd v = read_vcd(path);
  CHECK(v.at("x.narrow").changes.back().second == 7);
  CHECK(v.at("x.owner").changes.back().second == kVcdZ);
}

TEST_CASE("a pair of signals recorded as one stream reads back as two, window and boundaries included", "[wave]") {
  const std::string path = scratch("pair.vcd");
  WaveOptions o = to(path);
  o.start_ps = 100;
  g_now = 0;
  {
    WaveTracer w(o, fake_clock);
    const uint32_t owner = w.add("ch0.bus.owner", 3, WaveStyle::Number, kWaveZ);
    const uint32_t dir = w.add("ch0.bus.dir", 3, WaveStyle::Enum, kBusIdle);
    w.set_boundary(owner, kWaveZ);
    w.set_boundary(dir, kBusIdle);
    w.pair(owner, dir);
    CHECK_THROWS_AS(w.pair(dir, owner), std::logic_error);
    w.interval_pair(owner, 50, 150, 2, kBusOutUser, kWaveZ, kBusIdle);  // open when the window starts
    w.interval_pair(owner, 150, 200, 2, kBusOutUser, kWaveZ, kBusIdle);  // the same die and kind again
    w.interval_pair(owner, 200, 260, 5, kBusOutUser, kWaveZ, kBusIdle);  // another die, the same kind
    w.interval_pair(owner, 300, 400, 0, kBusInGc, kWaveZ, kBusIdle);
    g_now = 500;
    w.finish(500);
  }
  Vcd v = read_vcd(path);
  using C = std::vector<std::pair<uint64_t, uint64_t>>;
  CHECK(v.at("ch0.bus.owner").changes == C{{100, 2}, {150, kVcdZ}, {150, 2}, {200, 5}, {260, kVcdZ}, {300, 0}, {400, kVcdZ}});
  CHECK(v.at("ch0.bus.dir").changes ==
        C{{100, kBusOutUser}, {150, 0}, {150, kBusOutUser}, {200, 0}, {200, kBusOutUser}, {260, 0}, {300, kBusInGc}, {400, 0}});
  CHECK(v.time_where("ch0.bus.owner", [](uint64_t x) { return x != kVcdZ; }) == 260);
}

TEST_CASE("records earlier than the same signal's last record are counted as errors", "[wave]") {
  g_now = 0;
  WaveTracer w(to(scratch("late.vcd")), fake_clock);
  const uint32_t a = w.add("a.b", 4, WaveStyle::Counter, 0);
  w.set(a, 100, 1);
  w.set(a, 50, 2);
  w.finish(200);
  CHECK(w.stats().out_of_order == 1);
}

TEST_CASE("signals are declared once, before the first record is written, with a width of 1 to 64", "[wave]") {
  g_now = 0;
  WaveTracer w(to(scratch("decl.vcd")), fake_clock);
  const uint32_t a = w.add("a.b", 4, WaveStyle::Counter, 0);
  CHECK_THROWS_AS(w.add("a.b", 4, WaveStyle::Counter, 0), std::logic_error);
  CHECK_THROWS_AS(w.add("a.c", 0, WaveStyle::Counter, 0), std::logic_error);
  CHECK_THROWS_AS(w.add("a.d", 65, WaveStyle::Counter, 0), std::logic_error);
  CHECK(w.add_enum(wave_die_state_table()) == 0);
  CHECK(w.add_enum(wave_bus_dir_table()) == 1);
  CHECK(w.add_enum(wave_die_state_table()) == 0);  // the same table again
  w.set(a, 1, 1);
  w.flush(10);
  CHECK_THROWS_AS(w.add("a.e", 4, WaveStyle::Counter, 0), std::logic_error);
  w.finish(10);
}

TEST_CASE("a window with its start after its end is refused", "[wave]") {
  WaveOptions o = to(scratch("bad.vcd"));
  o.start_ps = 10;
  o.end_ps = 5;
  CHECK_THROWS_AS(WaveTracer(o, fake_clock), std::runtime_error);
}

TEST_CASE("the GTKWave layout names every signal with its range and alias, filters carry the value names", "[wave]") {
  const std::string path = scratch("layout.vcd");
  g_now = 0;
  WaveTracer w(to(path), fake_clock);
  const int table = w.add_enum(wave_die_state_table());
  std::vector<uint32_t> states;
  for (int ch = 0; ch < 6; ++ch) {
    WaveGroup g;
    g.name = "ch" + std::to_string(ch);
    g.fold = true;
    for (int k = 0; k < 8; ++k) {
      states.push_back(w.add(g.name + ".die" + std::to_string(k) + ".state", 4, WaveStyle::Enum, 0, table));
      g.rows.push_back({states.back(), 1});
    }
    w.layout().groups.push_back(g);
  }
  const uint32_t count = w.add("ftl.buffer_units", 12, WaveStyle::Counter, 0);
  w.layout().groups.insert(w.layout().groups.begin(), WaveGroup{"ftl", {{count, 3}}, {}, false, false});
  w.interval(states[0], 1000000, 2000000, kDieReadGc, 0);  // 1 us and 3 us busy: weighted by length, 2.5 us
  w.interval(states[1], 5000000, 8000000, kDieProgGc, 0);
  w.finish(100000000);
  const std::vector<std::string> files = w.write_layout();
  REQUIRE(files.size() == 2);
  const std::string gtkw = read_text(path + ".gtkw");
  const std::string flt = read_text(files[0]);
  CHECK(flt.find("6 ?red?prog gc\n") != std::string::npos);
  CHECK(flt.find("0 idle\n") != std::string::npos);
  CHECK(gtkw.find("+{ch3 die5 state} ssd.ch3.die5.state[3:0]\n") != std::string::npos);
  CHECK(gtkw.find("+{ftl buffer_units} ssd.ftl.buffer_units[11:0]\n") != std::string::npos);
  CHECK(gtkw.find("^1 " + std::filesystem::absolute(files[0]).string() + "\n") != std::string::npos);
  CHECK(gtkw.find("[dumpfile] \"" + std::filesystem::absolute(path).string() + "\"") != std::string::npos);
  // Counters are analog steps three rows tall; states are translated.
  CHECK(gtkw.find("@8024\n+{ftl buffer_units}") != std::string::npos);
  CHECK(gtkw.find("@20200\n-\n-\n") != std::string::npos);
  CHECK(gtkw.find("@2024\n^1 ") != std::string::npos);
  // 6 channels of 8 dies do not fit: the first channel is open, the others fold once the screen is full.
  CHECK(gtkw.find("@800200\n-ch0\n") != std::string::npos);
  CHECK(gtkw.find("@c00200\n-ch5\n") != std::string::npos);
  CHECK(gtkw.find("@1401200\n-ch5\n") != std::string::npos);
  // Zoomed to ten such stretches (25 us) in the middle of the file (100 us).
  const double zoom = 2.62 - std::log2(25e6);
  char line[64];
  std::snprintf(line, sizeof line, "*%.6f -1", zoom);
  CHECK(gtkw.find(line) != std::string::npos);
  CHECK(gtkw.find("[timestart] 37500000\n") != std::string::npos);
}

TEST_CASE("WaveMin follows the minimum of counts changing in small steps", "[wave]") {
  Rng rng(3);
  WaveMin m(16, 100);
  std::vector<uint64_t> v(16, 0);
  for (int i = 0; i < 20000; ++i) {
    const size_t k = size_t(rng.below(16));
    const uint64_t x = i % 1000 == 0 ? rng.below(101) : uint64_t(std::clamp<int64_t>(int64_t(v[k]) + int64_t(rng.below(3)) - 1, 0, 100));
    v[k] = x;
    REQUIRE(m.set(k, x) == *std::min_element(v.begin(), v.end()));
  }
}

TEST_CASE("the waveform window option takes START_MS:END_MS", "[wave][cli]") {
  using P = std::pair<uint64_t, uint64_t>;
  CHECK(parse_vcd_window("100:200") == P{100000000000ull, 200000000000ull});
  CHECK(parse_vcd_window("0.5:1.25") == P{500000000ull, 1250000000ull});
  CHECK(parse_vcd_window("100:") == P{100000000000ull, ~uint64_t(0)});
  CHECK(parse_vcd_window(":5") == P{0, 5000000000ull});
  for (const char* bad : {"200:100", "5:5", "abc", "1:2:3", "-1:5", "5", "1:x", "", ":"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_vcd_window(bad), ConfigError);
  }
}
