// workload.app.placement (docs/reference/placement.md): the ZenFS-like zone store (sequential appends per lifetime class,
// resets of dead full zones, host-side zone GC), the lsm on it as a zoned namespace would see its requests, and
// the FDP placement identifiers on the app's writes.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "common/rng.h"
#include "config/config.h"
#include "config/params.h"
#include "platform/platform_run.h"
#include "controller/placement/fdp.h"
#include "workload/apps/app_workload.h"
#include "workload/apps/lsm_app.h"
#include "workload/apps/zone_store.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
ZoneGeometry small_zones(uint64_t zones = 16, uint64_t zone_units = 64, uint64_t cap = 48) {
  ZoneGeometry g;
  g.zones = zones;
  g.zone_units = zone_units;
  g.capacity_units = cap;
  return g;
}
}  // namespace

TEST_CASE("zone store: a class's appends fill its own zone at the write pointer, up to the zone capacity", "[apps][zns]") {
  ZoneStore zs(small_zones(), 2);
  std::vector<Extent> a, b;
  zs.append(1, 0, 30, 1, a);
  zs.append(2, 0, 10, 2, b);
  zs.append(1, 30, 30, 1, a);  // crosses into a second zone of class 1 at its capacity (48)
  REQUIRE(a.size() == 2);
  CHECK(a[0].start == 0);
  CHECK(a[0].units == 48);
  CHECK(b[0].start == 64);  // class 2 has a zone of its own
  CHECK(a[1].start == 128);
  CHECK(a[1].units == 12);
  CHECK(zs.full_zones() == 1);
  CHECK(zs.active_zones() == 2);
  std::vector<Extent> m;
  zs.map(1, 40, 20, m);
  REQUIRE(m.size() == 2);
  CHECK(m[0].start == 40);
  CHECK(m[0].units == 8);
  CHECK(m[1].start == 128);
  CHECK(m[1].units == 12);
  CHECK_THROWS_AS(zs.append(1, 10, 1, 1, a), std::logic_error);  // not at the file's end
  CHECK(zs.check() == "");
}

TEST_CASE("zone store: a full zone whose files are all deleted is reset, an active one is kept", "[apps][zns]") {
  ZoneStore zs(small_zones(), 2);
  std::vector<Extent> out;
  zs.append(1, 0, 20, 1, out);
  zs.append(2, 0, 28, 1, out);  // zone 0 full (48)
  zs.append(3, 0, 5, 1, out);   // zone 1 active
  std::vector<uint64_t> resets;
  zs.remove(1, resets);
  CHECK(resets.empty());  // file 2 still lives in zone 0
  zs.remove(3, resets);
  CHECK(resets.empty());  // zone 1 is active: it is reset only when full and dead
  zs.remove(2, resets);
  REQUIRE(resets.size() == 1);
  CHECK(resets[0] == 0);
  CHECK(zs.free_zones() == 15);
  CHECK(zs.classes().at(1).zones_reset == 1);
  CHECK(zs.check() == "");
}

TEST_CASE("zone store: GC moves the live extents of the emptiest full zone to the GC class and resets it", "[apps][zns]") {
  ZoneStore zs(small_zones(4, 64, 48), 2);
  std::vector<Extent> out;
  // Zone 0: files 1 (40) and 2 (8); zone 1: file 3 (48); zone 2 active for class 2.
  zs.append(1, 0, 40, 1, out);
  zs.append(2, 0, 8, 1, out);
  zs.append(3, 0, 48, 1, out);
  zs.append(4, 0, 1, 2, out);
  std::vector<uint64_t> resets;
  zs.remove(1, resets);
  CHECK(zs.free_zones() == 1);
  REQUIRE(zs.gc_wanted());
  std::vector<Extent> reads, writes;
  const uint64_t victim = zs.collect(reads, writes);
  CHECK(victim == 0);
  REQUIRE(reads.size() == 1);
  CHECK(reads[0].start == 40);
  CHECK(reads[0].units == 8);
  REQUIRE(writes.size() == 1);
  CHECK(writes[0].start == 192);  // the GC class's zone (the last free one)
  CHECK(writes[0].units == 8);
  std::vector<Extent> m;
  zs.map(2, 0, 8, m);
  CHECK(m[0].start == 192);
  CHECK(zs.gc_units() == 8);
  CHECK(zs.classes().at(1).zones_collected == 1);
  CHECK(zs.classes().at(ZoneStore::kGcClass).written_units == 8);
  CHECK(zs.free_zones() == 1);  // zone 0 reset, zone 3 taken by GC
  CHECK(zs.check() == "");
}

TEST_CASE("zone store: long random create/append/delete with GC keeps every invariant", "[apps][zns]") {
  ZoneStore zs(small_zones(32, 32, 32), 4);
  Rng rng(7);
  std::map<FileId, uint64_t> files;
  FileId next = 1;
  for (int i = 0; i < 20000; ++i) {
    std::vector<Extent> out, reads, writes;
    while (zs.gc_wanted()) zs.collect(reads, writes);
    const uint64_t r = rng.below(10), n = 1 + rng.below(12);
    if (zs.live_units() + n > 700 || (r < 3 && !files.empty())) {  // at most ~70 % live: deletes in random order
      if (files.empty()) continue;
      auto it = files.begin();
      std::advance(it, long(rng.below(files.size())));
      std::vector<uint64_t> resets;
      zs.remove(it->first, resets);
      files.erase(it);
    } else if (r < 6 || files.empty()) {
      zs.append(next, 0, n, uint16_t(rng.below(3)), out);
      files[next++] = n;
    } else {
      auto it = files.begin();
      std::advance(it, long(rng.below(files.size())));
      zs.append(it->first, it->second, n, uint16_t(it->first % 3), out);
      it->second += n;
    }
    if (i % 997 == 0) REQUIRE(zs.check() == "");
  }
  CHECK(zs.check() == "");
  CHECK(zs.gc_runs() > 0);
  CHECK(zs.resets() > zs.gc_runs());
}

namespace {
AppParams zoned_lsm() {
  AppParams p;
  p.app = "lsm";
  p.age_fraction = 0;
  p.lsm_db_fraction = 0.3;
  p.lsm_memtable_bytes = 256 << 10;
  p.lsm_table_bytes = 256 << 10;
  p.lsm_reads_per_write = 0.5;
  p.max_io_bytes = 64 << 10;
  p.placement = AppPlacement::Zns;
  p.zones = small_zones(64, 1024, 1024);  // 256 MiB in 4 MiB zones (16 tables each)
  p.zone_gc_free_zones = 4;
  return p;
}
}  // namespace

TEST_CASE("lsm on zones: every write at its zone's write pointer, reads of written data, resets and host GC",
          "[apps][zns][lsm]") {
  AppParams p = zoned_lsm();
  p.lsm_db_fraction = 0.35;
  p.lsm_random_pick = true;  // tables die in no order in time: zones are left part dead and GC collects them
  AppWorkload w(p, 256ull << 20, false, 200000);
  const uint64_t zu = 1024;
  std::vector<uint64_t> wp(64, 0);
  std::vector<std::set<uint16_t>> hints(64);  // the hints written into each zone since its reset
  IoRequest r;
  uint64_t writes = 0, reads = 0, resets = 0;
  while (w.next(r)) {
    const uint64_t lba = r.offset / 4096, units = r.bytes / 4096, z = lba / zu;
    if (r.op == IoOp::Write) {
      REQUIRE(lba == z * zu + wp[z]);  // at the write pointer
      wp[z] += units;
      REQUIRE(wp[z] <= zu);
      hints[z].insert(r.stream);
      REQUIRE(hints[z].size() == 1);  // a zone only ever holds one lifetime class (GC copies: hint 0)
      ++writes;
    } else if (r.op == IoOp::Trim) {  // always a whole zone: the reset
      REQUIRE(lba % zu == 0);
      REQUIRE(units == zu);
      wp[z] = 0;
      hints[z].clear();
      ++resets;
    } else {
      REQUIRE(lba + units <= z * zu + wp[z]);  // below the write pointer: data written since the last reset
      ++reads;
    }
  }
  AppIo& io = w.io();
  INFO("writes " << writes << " reads " << reads << " resets " << resets << " gc " << io.gc_written_units);
  CHECK(resets > 50);
  CHECK(io.gc_runs > 0);  // tables die in no order: part-dead zones fill the space and GC copies live tables
  CHECK(io.gc_written_units == io.gc_read_units);
  CHECK(io.gc_written_units > 0);
  CHECK(io.zones->check() == "");
  for (auto& [c, st] : io.zones->classes()) CHECK(st.written_units > 0);
  CHECK(io.zones->classes().size() >= 4);  // WAL, L0, L1, ..., GC
}

TEST_CASE("lsm with FDP placement: every write carries the placement identifier of RUH hint mod ruhs", "[apps][fdp][lsm]") {
  AppParams p = zoned_lsm();
  p.placement = AppPlacement::Fdp;
  p.fdp_rgs = 2;
  p.fdp_ruhs = 4;
  AppWorkload w(p, 256ull << 20, false, 20000);
  IoRequest r;
  std::map<uint32_t, std::set<uint16_t>> handles_by_pc;
  std::set<uint32_t> rgs;
  const FdpLayout layout{2, 4};
  while (w.next(r)) {
    if (r.op != IoOp::Write) {
      CHECK(r.dtype == 0);
      continue;
    }
    REQUIRE(r.dtype == kDirectiveFdp);
    uint32_t stream = 0;
    REQUIRE(layout.stream_of(r.dspec, &stream));
    CHECK(stream % 4 == r.stream % 4);  // the handle is the hint mod ruhs
    rgs.insert(stream / 4);
    handles_by_pc[r.pc].insert(uint16_t(stream % 4));
  }
  CHECK(rgs.size() == 2);  // reclaim groups round robin
  CHECK(handles_by_pc[kLsmPc + LsmApp::kPcWal] == std::set<uint16_t>{1});
  CHECK(handles_by_pc[kLsmPc + LsmApp::kPcFlush] == std::set<uint16_t>{2});
}

namespace {
std::string params_error(std::initializer_list<std::string> sets) {
  Config c = platform_config(generic_platform_info());
  for (auto& x : {"workload.pattern=app", "workload.app.age_fraction=0", "precondition.fill=false"}) c.set(x);
  try {
    for (auto& x : sets) c.set(x);
    read_params(c);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("workload.app.placement against the namespace", "[apps][config][validation]") {
  CHECK(params_error({"fdp.enabled=true", "workload.app.placement=fdp"}) == "");
  CHECK(params_error({"zns.enabled=true", "workload.app.placement=zns", "host.queues=1"}) == "");
  CHECK_THAT(params_error({"workload.app.placement=fdp"}), Contains("workload.app.placement") && Contains("fdp.enabled"));
  CHECK_THAT(params_error({"fdp.enabled=true", "workload.app.placement=fdp", "workload.dataplacement=fdp"}),
             Contains("workload.dataplacement"));
  CHECK_THAT(params_error({"workload.app.placement=zns"}), Contains("zns.enabled"));
  CHECK_THAT(params_error({"zns.enabled=true", "host.queues=1"}), Contains("workload.app.placement"));
  CHECK_THAT(params_error({"zns.enabled=true", "workload.app.placement=zns", "workload.app=cache", "host.queues=1"}),
             Contains("workload.app.placement") && Contains("in place"));
  CHECK_THAT(params_error({"zns.enabled=true", "workload.app.placement=zns", "host.queues=4"}), Contains("host.queues"));
  CHECK_THAT(params_error({"workload.app.zone_gc_free_zones=1"}), Contains("workload.app.zone_gc_free_zones"));
}

TEST_CASE("lsm_compaction_pick: round robin walks each level in key order, random does not", "[apps][lsm]") {
  AppParams p = zoned_lsm();
  p.placement = AppPlacement::None;
  auto run = [&](bool random) {
    p.lsm_random_pick = random;
    AppWorkload w(p, 256ull << 20, false, 150000);
    IoRequest r;
    while (w.next(r)) {
    }
    return dynamic_cast<LsmApp&>(w.model(0)).stats();
  };
  const LsmStats rr = run(false), rnd = run(true);
  REQUIRE(rr.level_picks > 100);
  REQUIRE(rnd.level_picks > 100);
  // Round robin goes backwards only when a level's cursor wraps (once per pass over its tables).
  CHECK(rr.picks_backwards * 10 < rr.level_picks);
  CHECK(rnd.picks_backwards * 3 > rnd.level_picks);
}

TEST_CASE("zone store: ZenFS's finish threshold finishes a zone left with less, its class takes a new one (issue 44)",
          "[apps][zns]") {
  ZoneStore zs(small_zones(), 2, 25);  // capacity 48: finish a zone with fewer than 12 units left
  std::vector<Extent> a;
  zs.append(1, 0, 30, 1, a);  // 18 left: stays active
  CHECK(zs.take_finished().empty());
  CHECK(zs.written_active_zone(1) == 0);
  zs.append(1, 30, 10, 1, a);  // 8 left: finished
  CHECK(zs.take_finished() == std::vector<uint64_t>{0});
  CHECK(zs.finishes() == 1);
  CHECK(zs.full_zones() == 1);
  CHECK(zs.written_active_zone(1) == ZoneStore::kNoZone);
  a.clear();
  zs.append(1, 40, 5, 1, a);  // a new zone, at its start
  REQUIRE(a.size() == 1);
  CHECK(a[0].start == 64);
  CHECK(zs.check() == "");
  std::vector<uint64_t> resets;
  zs.remove(1, resets);  // the finished zone's data all died: it is reset
  CHECK(resets == std::vector<uint64_t>{0});
  CHECK(zs.check() == "");
}
