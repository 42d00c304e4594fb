// The GC job (controller/gc/gc_job.h) against a fake executor: no SystemC, no fast-forward. The fake is timed (the
// job resumes on each completion) and completes its operations when the test says, in issue order or newest first,
// so the job's sequencing is checked on its own: every victim's live units land elsewhere, victims erase only once
// emptied, the job ends, and the integrity checks hold.
#include <catch2/catch.hpp>

#include "fake_gc_exec.h"

using namespace ssdtlm;

TEST_CASE("GC job: a timed run against a fake executor collects, lands every live unit and erases", "[gc][job]") {
  const bool newest_first = GENERATE(false, true);
  FfDrive d(gc_drive_settings());
  fill_until_gc(d);
  REQUIRE(d.ftl->gc_needed(0));
  std::vector<uint32_t> expected(d.g.logical_units, kInvalid);  // each LPN's unit content before GC: its LPN
  for (uint32_t lpn = 0; lpn < d.g.logical_units; ++lpn)
    if (d.ftl->state().lookup(lpn) != kInvalid) expected[lpn] = lpn;

  IntegrityChecker checker(d.g.logical_units);
  FakeGcExec x(d, checker);
  GcEngine& gc = d.ftl->gc();
  x.job().kick(0);
  REQUIRE(gc.die(0).active);
  uint32_t max_reads = 0;
  while (x.complete(newest_first)) max_reads = std::max(max_reads, gc.die(0).reads);
  CHECK(max_reads <= 1);  // one GC read in flight per die
  CHECK_FALSE(gc.die(0).active);
  CHECK(x.ended == 1);
  CHECK(x.done[2] >= 1);                   // a victim erased
  CHECK(x.done[0] > 0);
  CHECK_FALSE(d.ftl->gc_needed(0));        // the die has its free blocks again
  CHECK_FALSE(gc.any_staged(0));           // no partial page left behind: padded once no victim was wanted
  CHECK(checker.errors() == 0);
  CHECK(d.ftl->state().audit_map(checker, 0));
  for (uint32_t lpn = 0; lpn < d.g.logical_units; ++lpn) {
    if (expected[lpn] == kInvalid) continue;
    const uint32_t ppa = d.ftl->state().lookup(lpn);
    REQUIRE(ppa != kInvalid);
    CHECK(d.dies[0]->lpn(ppa - d.g.ppa(0, 0, 0)) == lpn);
  }
}
