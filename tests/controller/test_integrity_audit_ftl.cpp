// The end-of-run audit (Ftl::audit) on the Ftl alone (ftl_harness.h): every logical unit holds the version the
// integrity checker expects, in the buffer or on flash, whether or not a read ever touched it. The map audit alone
// passes each fault below: the map and the valid bits still agree.
#include <catch2/catch.hpp>

#include <memory>

#include "controller/ftl_harness.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("ftl module: the end-of-run audit finds a lost or stale unit no read touched", "[module][ftl][integrity]") {
  FtlHarness h("h", {"geometry.channels=2", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=64",
                     "geometry.pages_per_block=16", "buffer.bytes=65536"});
  h.script = [&](FtlHarness& h) {
    for (uint32_t lpn = 0; lpn < 64; ++lpn) h.wait_done(h.submit(IoOp::Write, lpn));  // 4x the buffer
    h.wait_done(h.submit(IoOp::Trim, 3));  // unit 3: nothing expected
  };
  sc_core::sc_start();
  const IntegrityChecker& run = *h.checker;
  // A checker holding the run's expectations with `lpn` expecting `version` instead: its first error is the audit's.
  const auto audit_with = [&](uint32_t lpn, uint32_t version) {
    auto c = std::make_unique<IntegrityChecker>(run.logical_units());
    for (uint32_t u = 0; u < run.logical_units(); ++u) c->recovered(u, run.expected(u));
    c->recovered(lpn, version);
    CHECK_FALSE(h.dut->audit(*c, 1000));
    CHECK(c->errors() == 1);
    return c->first_error();
  };
  uint32_t on_flash = kInvalid, buffered = kInvalid, version;
  for (uint32_t lpn = 4; lpn < 64; ++lpn) {
    if (h.dut->buffer().lookup(lpn, &version)) buffered = lpn;
    else if (h.pftl->state().lookup(lpn) != kInvalid && on_flash == kInvalid) on_flash = lpn;
  }
  REQUIRE(on_flash != kInvalid);
  REQUIRE(buffered != kInvalid);
  CHECK(h.dut->audit(*h.checker, now_ps()));
  CHECK(run.errors() == 0);
  CHECK(run.checked() == 0);  // no read: only the audit looked

  // A write the drive never received, of a unit on flash, of a buffered unit; a trim it never received.
  const std::string f = std::to_string(on_flash), b = std::to_string(buffered);
  const uint32_t vf = run.expected(on_flash), vb = run.expected(buffered);
  CHECK_THAT(audit_with(on_flash, vf + 100),
             Contains("end-of-run audit: LPN " + f + " expected version " + std::to_string(vf + 100)) &&
                 Contains("flash holds LPN " + f + " version " + std::to_string(vf)));
  CHECK_THAT(audit_with(buffered, vb + 100),
             Contains("LPN " + b + " expected version") &&
                 Contains("the buffer holds LPN " + b + " version " + std::to_string(vb)));
  CHECK_THAT(audit_with(on_flash, 0), Contains("LPN " + f + " expected version 0, flash holds LPN " + f));
  CHECK_THAT(audit_with(3, 1), Contains("LPN 3 expected version 1, flash holds LPN none"));  // trimmed

  // A unit the FTL dropped, map and valid bit together: the map audit passes, the end-of-run audit does not.
  h.pftl->state().unmap(on_flash);
  CHECK(h.pftl->state().audit_map(*h.checker, 0));
  CHECK_FALSE(h.dut->audit(*h.checker, 1000));
  CHECK_THAT(run.first_error(),
             Contains("LPN " + f + " expected version") && Contains("flash holds LPN none version 0"));
}
