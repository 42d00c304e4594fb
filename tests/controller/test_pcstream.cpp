// PCStream (streams.assign=pcstream) on hand-built write sequences: lifetime clustering, unknown PCs in
// stream 0, process restarts with and without the PC-stream table, the table's bound and LRU order,
// lifetimes credited by TRIM, and determinism.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "controller/streams/pc_clustering.h"
#include "controller/streams/pc_stream_table.h"
#include "controller/streams/pcstream.h"
#include "controller/streams/streams.h"

using namespace ssdtlm;

namespace {

uint8_t write(PcStream& p, uint32_t lpn, uint32_t pc, uint32_t proc = 0, uint16_t slot = 0, uint32_t units = 1) {
  std::vector<uint8_t> out(units, 0xEE);
  p.assign(lpn, units, WriteTag{0, pc, proc, slot}, out.data());
  for (uint8_t s : out) REQUIRE(s == out[0]);  // a command's units share a stream
  return out[0];
}

// Three PCs interleaved, one unit each per round, each cycling over a region of its own: PC 1 over 16
// units (lifetime 48 host units), PC 2 over 256 (768), PC 3 over 4096 (12288).
struct ThreePcs {
  static constexpr uint32_t kBase2 = 16, kBase3 = 16 + 256;
  uint32_t round = 0;
  uint8_t last[4] = {0, 0, 0, 0};
  void run(PcStream& p, uint32_t rounds) {
    for (uint32_t i = 0; i < rounds; ++i, ++round) {
      last[1] = write(p, round % 16, 1);
      last[2] = write(p, kBase2 + round % 256, 2);
      last[3] = write(p, kBase3 + round % 4096, 3);
    }
  }
};

}  // namespace

TEST_CASE("lifetime clustering: separated groups give ascending centroids", "[streams][pcstream]") {
  const std::vector<LifetimePoint> pts = {{10.2, 1}, {2.0, 1}, {20.0, 5}, {2.2, 3}, {10.0, 1}, {19.0, 1}};
  const std::vector<double> c = cluster_lifetimes(pts, 3);
  REQUIRE(c.size() == 3);
  CHECK(c[0] == Approx(2.15));  // weighted: (2.0 + 3 * 2.2) / 4
  CHECK(c[1] == Approx(10.1));
  CHECK(c[2] == Approx((20.0 * 5 + 19.0) / 6));
  CHECK(nearest_centroid(c, 0) == 0);
  CHECK(nearest_centroid(c, 9) == 1);
  CHECK(nearest_centroid(c, 100) == 2);
  // Fewer distinct values than clusters: one centroid each; equal values never split.
  CHECK(cluster_lifetimes({{5, 1}, {5, 2}, {1, 1}}, 4) == std::vector<double>{1, 5});
  CHECK(cluster_lifetimes({}, 4).empty());
  // The input order does not matter.
  std::vector<LifetimePoint> rev(pts.rbegin(), pts.rend());
  CHECK(cluster_lifetimes(rev, 3) == c);
}

TEST_CASE("pcstream: PCs with separated lifetimes land in distinct streams ordered by lifetime", "[streams][pcstream]") {
  PcStream p(4, 16 + 256 + 4096, 0, 1 << 20);  // 3 user streams, no table, no periodic re-clustering here
  ThreePcs w;
  w.run(p, 3 * 4096);
  CHECK(p.mean_log2(0, 1) == Approx(std::log2(48.0)).margin(0.01));
  CHECK(p.mean_log2(0, 2) == Approx(std::log2(768.0)).margin(0.01));
  CHECK(p.mean_log2(0, 3) == Approx(std::log2(12288.0)).margin(0.01));
  CHECK(w.last[1] == 1);
  CHECK(w.last[2] == 2);
  CHECK(w.last[3] == 3);
  CHECK(p.centroids().size() == 3);
  CHECK(p.pcs_known() == 3);
  // Each first estimate re-clustered at once while streams were unused: three, and no periodic one yet.
  CHECK(p.stats().reclusters == 3);
  // Two user streams for three PCs: the shortest- and the longest-lived ones are apart.
  PcStream q(3, 16 + 256 + 4096, 0, 4096);
  ThreePcs v;
  v.run(q, 3 * 4096);
  CHECK(v.last[3] == 2);
  CHECK(v.last[1] == 1);
  CHECK(v.last[2] >= 1);
  CHECK(q.stats().reclusters > 5);  // periodic ones too
}

TEST_CASE("pcstream: a PC not yet estimated goes to stream 0, as does a write without a PC", "[streams][pcstream]") {
  PcStream p(4, 1024, 0, 65536);
  CHECK(write(p, 0, 9, 0, 0, 4) == 0);
  CHECK(p.stats().table_misses == 1);
  CHECK(p.stats().not_estimated_units == 4);
  CHECK(write(p, 100, 0, 0, 0, 2) == 0);
  CHECK(p.stats().untagged_units == 2);
  // Overwriting unit 0 gives PC 9 an estimate: from then on a user stream.
  CHECK(write(p, 0, 9) >= 1);
  CHECK(p.samples(0, 9) == 1);
  CHECK(p.mean_log2(0, 9) == Approx(std::log2(6.0)));  // born at clock 0, died at clock 6
  // Data written without a PC credits nothing when it dies.
  write(p, 100, 9);
  CHECK(p.samples(0, 9) == 1);
}

namespace {

// An eternal process (proc 0) writes long-lived data with PC 100 and short-lived data with PC 101, so two
// clusters exist. Then process 1 (slot 1) writes PC 7 short-lived until it is estimated, and process 2
// replaces it in slot 1. Returns process 2's first stream for PC 7 and process 1's estimated stream.
struct Restart {
  uint8_t before = 0, after = 0;
};
Restart restart(PcStream& p) {
  Restart r;
  for (uint32_t i = 0; i < 4000; ++i) {
    write(p, 1000 + i % 2000, 100);  // lifetime 2 x 2000 x 2 units
    write(p, 4000 + i % 8, 101);
  }
  for (uint32_t i = 0; i < 64; ++i) r.before = write(p, i % 4, 7, 1, 1);
  write(p, 5000, 7, 2, 1);  // process 2 starts in slot 1: process 1 has exited
  r.after = write(p, 5001, 7, 2, 1);
  return r;
}

}  // namespace

TEST_CASE("pcstream: a restarted process forgets its PCs without a PC-stream table", "[streams][pcstream]") {
  PcStream p(3, 8192, 0, 1 << 20);
  const Restart r = restart(p);
  CHECK(r.before == 1);  // short-lived, like PC 101
  CHECK(r.after == 0);   // not estimated in process 2, no table
  CHECK(p.stats().process_exits == 1);
  CHECK(p.stats().table_hits == 0);
  CHECK(p.table().capacity() == 0);
  // Process 1's data dies now: its lifetimes are lost (no table to credit).
  const uint64_t lost = p.stats().lifetimes_lost;
  write(p, 0, 7, 2, 1);
  CHECK(p.stats().lifetimes_lost == lost + 1);
}

TEST_CASE("pcstream: the PC-stream table remembers a PC across a process restart", "[streams][pcstream]") {
  PcStream p(3, 8192, 4096, 1 << 20);
  const Restart r = restart(p);
  CHECK(r.before == 1);
  CHECK(r.after == 1);  // the table's stream for PC 7
  CHECK(p.stats().table_hits == 2);
  CHECK(p.table().size() == 1);  // PC 7 (process 0 never exited)
  // Process 1's data dies now: credited to the table's entry.
  const uint64_t before = p.stats().lifetimes_table;
  write(p, 0, 7, 2, 1);
  CHECK(p.stats().lifetimes_table == before + 1);
  CHECK(p.stats().lifetimes_lost == 0);
  // A late command of process 1 after process 2 started is no restart.
  write(p, 6000, 7, 1, 1);
  CHECK(p.stats().process_exits == 1);
  CHECK(p.processes() == 2);
}

TEST_CASE("PC-stream table: bounded by bytes per entry, least recently used evicted", "[streams][pcstream]") {
  PcStreamTable t(4 * PcStreamTable::kEntryBytes + 31);
  REQUIRE(t.capacity() == 4);
  for (uint32_t pc = 1; pc <= 4; ++pc) t.upsert(pc)->stream = uint8_t(pc);
  CHECK(t.pcs_by_recency() == std::vector<uint32_t>{4, 3, 2, 1});
  REQUIRE(t.find(1, true) != nullptr);  // a hit makes it the most recent
  CHECK(t.find(2, false) != nullptr);   // a look without use does not
  t.upsert(5);                          // evicts 2, the least recently used
  CHECK(t.pcs_by_recency() == std::vector<uint32_t>{5, 1, 4, 3});
  CHECK(t.find(2, false) == nullptr);
  CHECK(t.find(1, false)->stream == 1);
  CHECK(t.find(5, false)->stream == 0);  // a new entry starts empty
  for (uint32_t pc = 100; pc < 1100; ++pc) {
    t.upsert(pc);
    REQUIRE(t.size() <= 4);
    REQUIRE(t.bytes() <= 4 * PcStreamTable::kEntryBytes);
  }
  CHECK(t.pcs_by_recency() == std::vector<uint32_t>{1099, 1098, 1097, 1096});
  CHECK(t.evictions() == 1001);
  PcStreamTable none(PcStreamTable::kEntryBytes - 1);
  CHECK(none.capacity() == 0);
  CHECK(none.upsert(3) == nullptr);
  CHECK(none.find(3, true) == nullptr);
}

TEST_CASE("pcstream: many short processes keep the table within its bound", "[streams][pcstream]") {
  PcStream p(3, 1 << 16, 8 * PcStreamTable::kEntryBytes, 4096);
  for (uint32_t proc = 1; proc <= 200; ++proc)
    for (uint32_t i = 0; i < 40; ++i) write(p, 16 * (proc % 64) + i % 16, 1000 + proc % 30, proc, uint16_t(proc % 3));
  CHECK(p.table().size() == 8);
  CHECK(p.table().evictions() > 0);
  CHECK(p.stats().process_exits == 197);  // three slots: the last three still run
  for (const auto& [name, v] : p.counters())
    if (name == "table_entries") CHECK(v == 8);
}

TEST_CASE("pcstream: TRIM kills data and credits its lifetime", "[streams][pcstream]") {
  PcStream p(3, 1024, 0, 65536);
  StreamParams sp;
  for (uint32_t i = 0; i < 10; ++i) write(p, i, 5);
  for (uint32_t i = 0; i < 100; ++i) write(p, 200 + i, 6);
  CHECK(p.wants_trims());
  p.trim(0, 10);  // unit i born at clock i, trimmed at clock 110
  CHECK(p.samples(0, 5) == 10);
  double mean = 0;
  for (uint32_t i = 0; i < 10; ++i) mean += std::log2(110.0 - i) / 10;
  CHECK(p.mean_log2(0, 5) == Approx(mean).epsilon(1e-5));
  p.trim(0, 10);  // already dead: nothing more
  CHECK(p.samples(0, 5) == 10);
  // Through the Streams object: the policy is told of trims.
  sp.count = 2;
  sp.assign = "pcstream";
  Streams s(sp, 1024);
  uint8_t out[4];
  s.assign(0, 4, WriteTag{0, 5, 0, 0}, out);
  s.trim(0, 4);
  const auto& ps = dynamic_cast<const PcStream&>(s.policy());
  CHECK(ps.samples(0, 5) == 4);
  CHECK(s.memory_bytes() >= 1024 * 12);
}

TEST_CASE("pcstream: the same writes give the same streams and statistics", "[streams][pcstream]") {
  auto run = [](std::vector<uint8_t>& streams) {
    PcStream p(5, 4096, 1024, 2048);
    uint64_t x = 12345;
    for (uint32_t i = 0; i < 60000; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const uint32_t pc = 1 + uint32_t(x >> 60);  // 16 PCs
      const uint32_t region = 64u << (pc % 6);    // each PC its own lifetime scale
      const uint32_t lpn = uint32_t((x >> 20) % region) + 128 * (pc % 8);
      const uint32_t proc = 1 + i / 3000, slot = uint16_t(pc % 2);
      if ((x >> 8) % 50 == 0) {
        p.trim(lpn % 4000, 4);
        continue;
      }
      streams.push_back(write(p, lpn % 4000, pc, proc * 2 + slot, uint16_t(slot), 1 + uint32_t(x >> 62)));
    }
    return p.counters();
  };
  std::vector<uint8_t> a, b;
  const PolicyCounters ca = run(a), cb = run(b);
  CHECK(a == b);
  CHECK(ca == cb);
  uint32_t used = 0;
  for (uint8_t s = 0; s < 5; ++s) used += std::count(a.begin(), a.end(), s) > 0;
  CHECK(used >= 4);  // the PCs spread over the streams
}

// gcc's pattern: every process exits before its data dies. Without a table its PC is never estimated; with one,
// the deaths after the writer's exit create and train the PC's entry, and the next process gets a stream.
TEST_CASE("pcstream: deaths after the writer exited teach the table a PC its processes never estimated", "[streams][pcstream]") {
  for (uint64_t table : {uint64_t(0), uint64_t(1024)}) {
    PcStream p(3, 8192, table, 1 << 20);
    for (uint32_t i = 0; i < 4000; ++i) {  // background PCs to cluster against
      write(p, 1000 + i % 2000, 100);
      write(p, 4000 + i % 8, 101);
    }
    uint8_t s = 0xEE;
    for (uint32_t proc = 1; proc <= 40; ++proc) {
      // Process `proc` writes 4 units at its own LPNs; the next process overwrites the previous one's.
      for (uint32_t u = 0; u < 4; ++u) s = write(p, 5000 + (proc % 2) * 4 + u, 7, proc, 1);
    }
    if (table == 0) {
      CHECK(s == 0);
      CHECK(p.stats().lifetimes_table == 0);
      CHECK(p.stats().lifetimes_lost > 0);
    } else {
      CHECK(s == 1);  // short-lived, like PC 101
      CHECK(p.stats().lifetimes_table > 0);
      CHECK(p.stats().lifetimes_lost == 0);
      CHECK(p.stats().table_hits > 0);
    }
  }
}

TEST_CASE("pcstream: pc_table_reset=run starts each run without what earlier runs learnt", "[streams][pcstream]") {
  // Process 1 (run 1) learns that PC 7 is short-lived; process 2 starts in the same slot, in run 1 again or in
  // run 2. Only a new run with the reset on leaves PC 7 unknown (stream 0), as the seed's table-less PCStream.
  auto second_process = [](bool reset, uint16_t run2) {
    PcStream p(3, 8192, 4096, 1 << 20, reset);
    auto w = [&](uint32_t lpn, uint32_t pc, uint32_t proc, uint16_t run) {
      uint8_t s = 0xEE;
      p.assign(lpn, 1, WriteTag{0, pc, proc, 1, run}, &s);
      return s;
    };
    for (uint32_t i = 0; i < 4000; ++i) {  // background PCs (a process that never exits, no run)
      w(1000 + i % 2000, 100, 0, 0);
      w(4000 + i % 8, 101, 0, 0);
    }
    uint8_t before = 0;
    for (uint32_t i = 0; i < 64; ++i) before = w(i % 4, 7, 1, 1);
    REQUIRE(before == 1);
    const uint8_t after = w(5000, 7, 2, run2);
    return std::make_pair(after, p.stats().table_resets);
  };
  CHECK(second_process(false, 2) == std::make_pair(uint8_t(1), uint64_t(0)));  // kept across runs
  CHECK(second_process(true, 1) == std::make_pair(uint8_t(1), uint64_t(1)));   // same run: the table helps
  CHECK(second_process(true, 2) == std::make_pair(uint8_t(0), uint64_t(2)));   // new run: forgotten
}

TEST_CASE("pcstream_min_deaths: a PC gives a stream only after that many deaths", "[streams][pcstream]") {
  // PC 7 rewrites 4 units in turn: its n-th death comes with write i = 3 + n, which it already places.
  auto first_stream_at = [](uint32_t min_deaths) {
    PcStream p(3, 64, 0, 1 << 20, false, min_deaths);
    for (uint32_t i = 0; i < 64; ++i)
      if (write(p, i % 4, 7) != 0) return i;
    return 64u;
  };
  CHECK(first_stream_at(1) == 4);   // from the first death (the default rule)
  CHECK(first_stream_at(8) == 11);  // from the eighth
  CHECK(first_stream_at(100) == 64);
  // Through the table: a PC of exited processes is remembered only once it has min_deaths samples.
  PcStream p(3, 64, 1024, 1 << 20, false, 3);
  write(p, 0, 9, 1, 0);
  write(p, 1, 9, 1, 0);
  write(p, 10, 5, 2, 0);  // process 1 exits; its units die later, credited to the table
  write(p, 0, 5, 2, 0);
  write(p, 1, 5, 2, 0);
  CHECK(write(p, 20, 9, 3, 1) == 0);  // two deaths in the table: not estimated yet
  write(p, 20, 5, 2, 0);              // a third death of PC 9 (process 3's unit, still live: its record)
  CHECK(write(p, 21, 9, 4, 2) == 0);  // the table still has 2
}

TEST_CASE("pcstream_clock=time: a lifetime is the time between write and death, idle time included", "[streams][pcstream]") {
  // PC 1's unit lives 5 s (more than 2^32 ns) with one write in between; PC 2's unit lives 1 ms with 1000 writes
  // in between. On the writes clock PC 2 is the longer-lived, on the time clock PC 1, by the full 5 s.
  auto run = [](bool time_clock) {
    PcStream p(3, 4096, 0, 1 << 20, false, 1, time_clock);
    p.set_time(1000);
    write(p, 0, 1, 1, 0);
    p.set_time(1000 + 5'000'000'000ull);  // an idle gap of 5 s
    write(p, 1, 2, 1, 0);
    write(p, 0, 3, 1, 0);  // PC 1's unit dies
    for (uint32_t i = 0; i < 1000; ++i) write(p, 100 + i, 3, 1, 0);
    p.set_time(1000 + 5'001'000'000ull);
    write(p, 1, 3, 1, 0);  // PC 2's unit dies
    return std::make_pair(p.mean_log2(1, 1), p.mean_log2(1, 2));
  };
  const auto [w1, w2] = run(false);
  CHECK(w1 == Approx(std::log2(2.0)));     // 2 units written from its birth to its death
  CHECK(w2 == Approx(std::log2(1002.0)));
  const auto [t1, t2] = run(true);
  CHECK(t1 == Approx(std::log2(5e9)).epsilon(1e-6));  // kept in 64 bits: not 5e9 mod 2^32
  CHECK(t2 == Approx(std::log2(1e6)).epsilon(1e-6));
  // The time clock never runs backwards, and a trim measures on it too.
  PcStream p(3, 64, 0, 1 << 20, false, 1, true);
  p.set_time(1 << 20);
  write(p, 5, 4, 1, 0);
  p.set_time(5);  // earlier: ignored
  CHECK(p.now_ns() == (1u << 20));
  p.set_time((1 << 20) + 256);
  p.trim(5, 1);
  CHECK(p.mean_log2(1, 4) == Approx(8.0));
  CHECK(p.counters().back() == std::make_pair(std::string("clock_ns"), uint64_t((1 << 20) + 256)));
}

TEST_CASE("Streams::set_time: the timed run's clock continues the fast-forward's", "[streams][pcstream]") {
  StreamParams sp;
  sp.count = 2;
  sp.assign = "pcstream";
  sp.pc_clock_time = true;
  Streams s(sp, 64);
  auto& p = dynamic_cast<PcStream&>(s.policy());
  CHECK(p.time_clock());
  s.set_time(7'000'000'000ull);  // the fast-forward's nominal time at its end
  s.continue_clock();
  s.set_time(3);  // the timed run, from 0
  CHECK(p.now_ns() == 7'000'000'003ull);
  sp.pc_clock_time = false;
  Streams w(sp, 64);
  CHECK_FALSE(dynamic_cast<PcStream&>(w.policy()).time_clock());
}

TEST_CASE("pcstream: pcs_seen counts the distinct contexts its writes carried, a late write's too, never pc 0",
          "[streams][pcstream]") {
  PcStream p(4, 64, 0, 1 << 20);
  uint8_t s[4];
  p.assign(0, 1, WriteTag{0, 5, 0, 0}, s);
  p.assign(1, 1, WriteTag{0, 5, 0, 0}, s);
  p.assign(2, 1, WriteTag{0, 0, 0, 0}, s);  // no context
  CHECK(p.pcs_seen() == 1);
  p.assign(3, 1, WriteTag{0, 6, 1, 1}, s);
  p.assign(4, 1, WriteTag{0, 7, 2, 1}, s);  // process 2 in slot 1: process 1 has exited
  p.assign(5, 1, WriteTag{0, 8, 1, 1}, s);  // a late write of process 1: no record, still seen
  CHECK(p.pcs_seen() == 4);
  CHECK(p.records() == 2);  // (0, 5) and (2, 7)
  bool listed = false;
  for (const auto& [name, v] : p.counters()) listed = listed || (name == "pcs_seen" && v == 4);
  CHECK(listed);
}
