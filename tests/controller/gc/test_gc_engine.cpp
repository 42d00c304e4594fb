// The GC engine alone (no SystemC, no fast-forward loop): one victim collected step by step through its
// actions, as a driver would, and the asynchronous cases the timed FTL relies on (a unit overwritten between
// its read and its copy's landing; a victim erased only once its last staged unit has landed).
#include <catch2/catch.hpp>

#include <set>

#include "controller/gc/gc_engine.h"
#include "controller/page_ftl.h"
#include "../ff_drive.h"

using namespace ssdtlm;

namespace {

// One die of 16 blocks of 8 pages of 2 units; every logical unit written once, then every even one again, so
// the first blocks are half valid.
struct Drive : FfDrive {
  Drive()
      : FfDrive({"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=16",
                 "geometry.pages_per_block=8", "geometry.page_bytes=8192", "geometry.over_provisioning=0.5"}) {
    uint32_t v = 1;
    for (uint32_t lpn = 0; lpn + 1 < g.logical_units; lpn += 2) write(lpn, lpn + 1, v++);
    for (uint32_t lpn = 0; lpn + 2 < g.logical_units; lpn += 4) write(lpn, lpn + 2, v++);
    ftl->fast_forward().finish();
    ftl->fast_forward().merge_counters();
  }
  void write(uint32_t a, uint32_t b, uint32_t v) {
    const uint32_t lpns[2] = {a, b}, versions[2] = {v, v};
    FfHostExec(ftl->fast_forward()).write_page(0, lpns, versions);
  }
  // Executes one program action on the die, as a channel would.
  void program(const GcPage& p) {
    dies[0]->program(g.block_of(p.ppa), g.page_of(p.ppa), p.lpn, p.version, UnitKind::GUD, p.stream);
  }
};

}  // namespace

TEST_CASE("GC engine: one victim read, staged, programmed, landed and erased through its actions", "[gc][engine]") {
  Drive d;
  GcEngine& gc = d.ftl->gc();
  FlashCounters c;
  const uint32_t victim = gc.next_victim(0, c);
  REQUIRE(victim != kInvalid);
  CHECK(c.gc_victims == 1);
  const uint32_t valid = d.ftl->state().blocks().valid(victim);
  REQUIRE(valid > 0);
  REQUIRE(valid < d.g.units_per_block);  // greedy took a block with invalid units
  std::set<uint32_t> live;               // the victim's live LPNs
  std::vector<GcPage> pages;
  uint32_t page, mask, reads = 0;
  while (gc.next_read(0, &page, &mask)) {
    ++reads;
    for (uint32_t m = mask; m; m &= m - 1) {
      const uint32_t slot = uint32_t(__builtin_ctz(m));
      const uint32_t old = d.g.ppa(0, d.g.block_in_die(victim), page, slot);
      const uint32_t unit = old - d.g.ppa(0, 0, 0);
      const uint32_t lpn = d.dies[0]->lpn(unit);
      CHECK(d.ftl->state().lookup(lpn) == old);
      live.insert(lpn);
      if (gc.stage(0, gc.gc_stream_of(0, lpn, old), lpn, d.dies[0]->version(unit), old)) {
        pages.emplace_back();
        gc.take_page(0, 0, d.g.units_per_page, pages.back(), c, nullptr);
      }
    }
  }
  CHECK(live.size() == valid);
  gc.end_scan(0);
  // Not erasable while a unit is staged or its page has not landed.
  uint32_t erased = 0;
  gc.erase_ready(0, [&](uint32_t) { ++erased; });
  CHECK(erased == 0);
  gc.pad(0, c, nullptr, [&](const GcPage& p) { pages.push_back(p); });
  CHECK(!gc.any_staged(0));
  CHECK(gc.die(0).programs == pages.size());
  CHECK(c.programs[uint32_t(UnitKind::GUD)] == pages.size());
  uint32_t moved_total = 0;
  for (const GcPage& p : pages) {
    d.program(p);
    uint32_t moved[kMaxUnitsPerPage];
    const uint32_t n = gc.land_page(p, moved, c, nullptr);
    for (uint32_t i = 0; i < n; ++i) CHECK(d.ftl->state().lookup(moved[i]) / d.g.units_per_block != victim);
    moved_total += n;
  }
  CHECK(moved_total == valid);
  CHECK(c.gc_units_moved == valid);
  CHECK(d.ftl->state().blocks().valid(victim) == 0);
  IntegrityChecker checker(d.g.logical_units);
  gc.erase_ready(0, [&](uint32_t v) {
    CHECK(v == victim);
    CHECK(gc.check_erase(v, checker, 0));
    ++erased;
    d.dies[0]->erase(d.g.block_in_die(v));
    gc.land_erase(v, c);
  });
  CHECK(erased == 1);
  CHECK(c.erases == 1);
  CHECK(checker.errors() == 0);
  for (uint32_t lpn : live) CHECK(d.dies[0]->lpn(d.ftl->state().lookup(lpn) - d.g.ppa(0, 0, 0)) == lpn);
}

TEST_CASE("GC engine: a unit overwritten after its read is not moved when its copy lands", "[gc][engine]") {
  Drive d;
  GcEngine& gc = d.ftl->gc();
  FlashCounters c;
  const uint32_t victim = gc.next_victim(0, c);
  REQUIRE(victim != kInvalid);
  uint32_t page, mask;
  REQUIRE(gc.next_read(0, &page, &mask));
  const uint32_t slot = uint32_t(__builtin_ctz(mask));
  const uint32_t old = d.g.ppa(0, d.g.block_in_die(victim), page, slot);
  const uint32_t lpn = d.dies[0]->lpn(old - d.g.ppa(0, 0, 0));
  gc.stage(0, 0, lpn, 1, old);
  GcPage p;
  gc.take_page(0, 0, 1, p, c, nullptr);  // padded: one real unit
  CHECK(p.n == 1);
  CHECK(p.lpn[1] == kInvalid);
  d.program(p);                 // the die programs the copy...
  d.write(lpn, kInvalid, 999);  // ...while the host overwrites the unit, before the copy's landing
  const uint32_t now = d.ftl->state().lookup(lpn);
  uint32_t moved[kMaxUnitsPerPage];
  CHECK(gc.land_page(p, moved, c, nullptr) == 0);
  CHECK(d.ftl->state().lookup(lpn) == now);  // the host's copy wins
  CHECK(c.gc_units_moved == 0);
}
