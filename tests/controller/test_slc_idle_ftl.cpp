// The SLC cache's background folding on the Ftl alone (ftl_harness.h): the host is idle only once it has seen its
// last completion (the front end's data transfer and entry post after the FTL hands the command back), and folding
// starts strictly after that instant plus slc.fold_idle_us. (The FTL tests idleness when a flash program or a read
// ends, as before: the fold starts at the first such test after that instant.)
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "controller/ftl_harness.h"

using namespace ssdtlm;

namespace {

// The first fold read's issue time, or kNever (fold reads are GC reads: an SLC cache and no GC victim otherwise).
uint64_t first_fold_read(const FtlHarness& h) {
  for (const FlashRecord& r : h.flash)
    if (r.cmd == FlashCmd::Read && r.read_kind == ReadKind::Gc) return r.issued_ps;
  return kNever;
}

uint64_t fold_start_after_writes(double idle_us, uint64_t post_ps, uint64_t* last_seen) {
  FtlHarness h("h", {"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=64",
                     "geometry.pages_per_block=12", "flash.cell=tlc", "slc.mode=dynamic", "buffer.bytes=65536",
                     "slc.fold_idle_us=" + std::to_string(idle_us)});
  h.post_ps = post_ps;
  h.script = [&](FtlHarness& h) {
    for (uint32_t lpn = 0; lpn < 96; ++lpn) h.wait_done(h.submit(IoOp::Write, lpn));
    h.wait_done(h.submit(IoOp::Flush, 0, 0));
  };
  sc_core::sc_start();
  CHECK(h.checker->errors() == 0);
  *last_seen = 0;
  for (uint64_t t : h.done_ps) *last_seen = std::max(*last_seen, t + post_ps);
  return first_fold_read(h);
}

}  // namespace

TEST_CASE("ftl module: SLC folding starts after the host has seen its last completion", "[module][ftl][slc]") {
  uint64_t last_seen = 0;
  // The front end's post takes 1 ms: longer than the FTL waits, after the flush, for the next flash program to end
  // (when it tests idleness), so a fold started from the FTL's own hand-back time would start before the host saw it.
  const uint64_t start = fold_start_after_writes(0, us_to_ps(1000), &last_seen);
  REQUIRE(start != kNever);  // full SLC blocks were folded once the host went idle
  CHECK(start > last_seen);  // not while the flush's completion was still on its way to the host
}

TEST_CASE("ftl module: slc.fold_idle_us delays background folding past the last completion", "[module][ftl][slc]") {
  uint64_t last_seen = 0;
  const uint64_t start = fold_start_after_writes(2000, 0, &last_seen);
  REQUIRE(start != kNever);
  CHECK(start >= last_seen + us_to_ps(2000));
}
