// Offline Zone on the Ftl alone (ftl_harness.h): a Read Only zone taken offline drops its units from the buffer and
// the map and the integrity checker expects none of them any more (as after a trim); a zone in another state refuses
// the action and keeps its data.
#include <catch2/catch.hpp>

#include "controller/ftl_harness.h"
#include "controller/placement/zns.h"

using namespace ssdtlm;

TEST_CASE("ftl module: Offline Zone of a read-only zone drops its data with the checker told, not of another zone",
          "[module][ftl][zns]") {
  FtlHarness h("h", {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                     "geometry.pages_per_block=16", "buffer.bytes=1048576", "zns.enabled=true", "zns.max_open=4",
                     "zns.max_active=4"});
  uint64_t zu = 0;
  size_t bad = 0, good = 0;
  h.script = [&](FtlHarness& h) {
    ZoneManager& zm = h.pftl->streams().zns()->zones();
    zu = zm.config().zone_units;
    for (uint32_t i = 0; i < 3; ++i) h.wait_done(h.submit(IoOp::Write, uint32_t(i)));            // zone 0
    for (uint32_t i = 0; i < 2; ++i) h.wait_done(h.submit(IoOp::Write, uint32_t(zu + i)));       // zone 1
    zm.set_read_only(0);
    const auto offline = [&](uint64_t zone) {
      h.cmds.emplace_back();
      NvmeCommand& c = h.cmds.back();
      c.reset();
      c.op = IoOp::Trim, c.zone_action = ZoneAction::Offline, c.lpn = uint32_t(zone * zu), c.units = 1;
      h.index[&c] = h.cmds.size() - 1;
      h.done_ps.push_back(kNever);
      h.dut->submit(c, now_ps());
      h.wait_done(h.cmds.size() - 1);
      return h.cmds.size() - 1;
    };
    good = offline(0);
    bad = offline(1);  // implicitly open: Invalid Zone State Transition, its data kept
  };
  sc_core::sc_start();
  CHECK(h.cmds[good].status == 0);
  CHECK(h.cmds[bad].status == kInvalidZoneStateTransition);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(h.checker->expected(i) == 0);  // trimmed: nothing expected
    CHECK(h.pftl->lookup(i) == kInvalid);
  }
  CHECK(h.checker->expected(uint32_t(zu)) != 0);
  CHECK(h.checker->expected(uint32_t(zu + 1)) != 0);
  CHECK(h.checker->errors() == 0);
}
