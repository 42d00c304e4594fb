// Invariants stronger than reads (check.integrity): an erase may not hit a block a live mapping still
// refers to, and a GC copy's source must be its unit's current location. Plain C++, fast-forward path.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/rng.h"
#include "controller/integrity_checker.h"
#include "controller/page_ftl.h"
#include "controller/precondition.h"
#include "ff_drive.h"
#include "controller/drive_state.h"
#include "controller/snapshot/snapshot_archive.h"
#include "gc/fake_gc_exec.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

FfDrive small_drive(bool checked = false) {
  return FfDrive({"geometry.channels=2", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=64",
                  "geometry.pages_per_block=16", "geometry.page_bytes=8192", "geometry.over_provisioning=0.25"},
                 "greedy", false, 0, checked);
}

void quiet(uint64_t, uint64_t) {}

}  // namespace

TEST_CASE("integrity invariants: erasing a live block and copying from a stale location are caught", "[integrity]") {
  FfDrive d({"geometry.channels=2", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=64",
             "geometry.pages_per_block=16", "geometry.page_bytes=8192", "geometry.over_provisioning=0.25"});
  IntegrityChecker c(d.g.logical_units);
  uint32_t lpns[2] = {5, 6}, v[2] = {0, 0};
  FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, v);
  const uint32_t at5 = d.ftl->state().lookup(5), at6 = d.ftl->state().lookup(6);
  CHECK_FALSE(d.ftl->state().check_erase(d.g.gblock_of(at5), c, 1000));  // LPNs 5 and 6 live there
  CHECK(c.errors() == 1);
  CHECK_THAT(c.first_error(), Contains("erase of die 0 block") && Contains("current location of LPN 5"));
  CHECK(d.ftl->state().check_gc_source(5, at5, c, 0));           // the current location: fine
  CHECK_FALSE(d.ftl->state().check_gc_source(5, at6, c, 2000));  // LPN 6's unit is not LPN 5's
  CHECK(c.errors() == 2);
  CHECK(c.gc_copies_checked() == 2);
  FfHostExec(d.ftl->fast_forward()).write_page(1, lpns, v);  // both move to die 1: the old block holds nothing live
  CHECK(d.ftl->state().check_erase(d.g.gblock_of(at5), c, 3000));
  CHECK_FALSE(d.ftl->state().check_gc_source(5, at5, c, 4000));  // a copy of the old location is stale now
  CHECK(c.errors() == 3);
  CHECK(c.erases_checked() == 2);
}

TEST_CASE("integrity invariants: preconditioning GC checks its erases and copies without false alarms", "[integrity][gc]") {
  FfDrive d = small_drive(true);  // the FTL built with the checker
  IntegrityChecker& c = *d.checker;
  UniformWrites w(d.g.logical_units, 3);
  precondition(d.ftl->fast_forward(), &c, true, 3.0, &w, quiet);
  CHECK(d.ftl->state().counters().erases > 100);
  CHECK(c.erases_checked() == d.ftl->state().counters().erases);
  CHECK(c.gc_copies_checked() > 1000);
  CHECK(c.errors() == 0);
  CHECK(c.first_error().empty());
}

TEST_CASE("integrity invariants: a GC that erases victims before their copies land is caught", "[integrity][gc]") {
  // The fault a 1 M I/O run with read checks missed: GC read a victim and erased it while some of its units were
  // still staged for their copy. No read need ever touch those units for the erase check to see it. The fault is
  // made through the drive state's public API, not a hook in the engine: once the victim is read out, its valid
  // count says it is empty while its units wait for their copies, so the GC job (against a fake executor) erases it.
  FfDrive d(gc_drive_settings());
  fill_until_gc(d);
  IntegrityChecker c(d.g.logical_units);
  FakeGcExec x(d, c);
  GcEngine& gc = d.ftl->gc();
  x.job().kick(0);
  while (gc.die(0).scanned.empty() && x.complete(false)) {
  }
  REQUIRE(gc.die(0).scanned.size() == 1);  // read out, its last units staged or being programmed
  const uint32_t victim = gc.die(0).scanned.front();
  BlockManager& b = d.ftl->state().blocks();
  REQUIRE(b.valid(victim) > 0);
  REQUIRE(c.errors() == 0);  // (victims emptied before it erased without alarm)
  const uint64_t checked = c.erases_checked();
  b.invalidate(victim, b.valid(victim));  // the fault: the count says the victim's units have all landed
  x.job().advance(0);                     // ... so the job erases it now
  CHECK(c.erases_checked() == checked + 1);
  CHECK(c.checked() == 0);  // no read was checked: the reads-only checker would have said nothing
  CHECK(c.errors() > 0);
  CHECK_THAT(c.first_error(), Contains("erase of die") && Contains("current location of LPN"));
}

TEST_CASE("integrity invariants: the map audit catches map entries the bitmap or the out-of-band data disown", "[integrity]") {
  // check_erase looks only at the erased block's valid bits; the audit is what ties those bits to the map.
  FfDrive d = small_drive();
  IntegrityChecker c(d.g.logical_units);
  uint32_t lpns[2] = {5, 6}, v[2] = {0, 0};
  FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, v);
  uint32_t more[2] = {7, 8};
  FfHostExec(d.ftl->fast_forward()).write_page(1, more, v);
  CHECK(d.ftl->state().audit_map(c, 0));
  CHECK(c.errors() == 0);

  // The faults go through the drive state's own map API, which does not stop two LPNs from pointing at one unit:
  // the audit is what catches it.
  DriveState& s = d.ftl->state();
  SECTION("an entry pointing at a unit not marked valid (the erase check alone would pass)") {
    const uint32_t at5 = s.lookup(5);
    FfHostExec(d.ftl->fast_forward()).write_page(1, lpns, v);  // 5 and 6 move: their first block holds nothing marked valid
    s.map(5, at5);  // ... but the map points back into it: 5 at its old unit, shared with the unwritten LPN 9,
    s.map(9, at5);
    s.unmap(9);     // whose unmapping clears the unit's mark
    CHECK(s.check_erase(d.g.gblock_of(at5), c, 0));
    CHECK_FALSE(s.audit_map(c, 1000));
    CHECK_THAT(c.first_error(), Contains("map audit: LPN 5 maps to") && Contains("not marked valid"));
  }
  SECTION("two LPNs sharing a unit") {
    s.map(6, s.lookup(5));
    CHECK_FALSE(s.audit_map(c, 1000));
    CHECK_THAT(c.first_error(), Contains("map audit: LPN 6 maps to") && Contains("which holds LPN 5"));
  }
  SECTION("two LPNs sharing a unit not yet programmed (its out-of-band data names neither: the count tells)") {
    const uint32_t at7 = s.lookup(7);
    const uint32_t unwritten = d.g.ppa(d.g.die_of(at7), d.g.block_of(at7), d.g.pages_per_block - 1);
    REQUIRE_FALSE(s.die(d.g.die_of(at7)).programmed(d.g.block_of(at7), d.g.pages_per_block - 1));
    s.map(7, unwritten);
    s.map(8, unwritten);
    CHECK_FALSE(s.audit_map(c, 1000));
    CHECK_THAT(c.first_error(), Contains("3 units marked valid for 4 mapped LPNs (two LPNs map to one unit)"));
  }
  SECTION("a unit marked valid that no LPN maps to (a snapshot whose map and bitmap disagree)") {
    // The drive state's own API cannot leave a marked unit unmapped (a unit is marked when an entry points at it and
    // cleared when one leaves it); a snapshot written by a faulty build (its checksum sound) can. The test writes
    // one: the map section (DriveState::snapshot_map's order) with LPN 7 unmapped and the bitmap as it is.
    std::vector<uint32_t> l2p(d.g.logical_units);
    for (uint32_t lpn = 0; lpn < d.g.logical_units; ++lpn) l2p[lpn] = s.lookup(lpn);
    l2p[7] = kInvalid;
    std::vector<uint64_t> bits(d.g.physical_units / 64 + 2, 0), trimmed((d.g.logical_units + 63) / 64, 0);
    for (uint64_t ppa = 0; ppa < d.g.physical_units; ++ppa)
      if (s.valid(uint32_t(ppa))) bits[ppa >> 6] |= uint64_t(1) << (ppa & 63);
    const std::string path =
        (std::filesystem::temp_directory_path() / ("ssdtlm_audit_" + std::to_string(::getpid()) + ".snap")).string();
    SnapshotArchive out = SnapshotArchive::save(path, "audit");
    out.section("map");
    out.io_all(l2p, bits, trimmed);
    out.finish();
    SnapshotArchive in = SnapshotArchive::load(path, "audit");
    in.section("map");
    s.snapshot_map(in);
    in.finish();
    std::filesystem::remove(path);
    CHECK(s.lookup(7) == kInvalid);
    CHECK_FALSE(s.audit_map(c, 1000));
    CHECK_THAT(c.first_error(), Contains("4 units marked valid for 3 mapped LPNs (a unit no LPN maps to is marked valid)"));
  }
  CHECK(c.errors() == 1);
}
