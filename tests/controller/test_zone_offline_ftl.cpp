// Offline Zone and Reset Zone on the Ftl alone (ftl_harness.h): a Read Only zone taken offline, or a zone reset, drops
// its units from the buffer and the map and the integrity checker expects none of them any more (as after a trim); a
// zone action that fails (a zone in another state, a read-only zone's reset, a trim that is not whole zones) keeps
// its data.
#include <catch2/catch.hpp>

#include "controller/ftl_harness.h"
#include "controller/placement/zns.h"

using namespace ssdtlm;

namespace {

const std::vector<std::string> kZoned = {"geometry.channels=2", "geometry.dies_per_channel=2",
                                         "geometry.blocks_per_plane=64", "geometry.pages_per_block=16",
                                         "buffer.bytes=1048576", "zns.enabled=true", "zns.max_open=4",
                                         "zns.max_active=4"};

// A Zone Management Send (or, with ZoneAction::None, a plain trim) of [lpn, lpn + units), waited for; its index.
size_t zone_command(FtlHarness& h, ZoneAction a, uint32_t lpn, uint32_t units) {
  h.cmds.emplace_back();
  NvmeCommand& c = h.cmds.back();
  c.reset();
  c.op = IoOp::Trim, c.zone_action = a, c.lpn = lpn, c.units = units;
  h.index[&c] = h.cmds.size() - 1;
  h.done_ps.push_back(kNever);
  h.dut->submit(c, now_ps());
  h.wait_done(h.cmds.size() - 1);
  return h.cmds.size() - 1;
}

}  // namespace

TEST_CASE("ftl module: Offline Zone of a read-only zone drops its data with the checker told, not of another zone",
          "[module][ftl][zns]") {
  FtlHarness h("h", kZoned);
  uint64_t zu = 0;
  size_t bad = 0, good = 0;
  h.script = [&](FtlHarness& h) {
    const auto offline = [&](uint64_t zone) { return zone_command(h, ZoneAction::Offline, uint32_t(zone * zu), 1); };
    ZoneManager& zm = h.pftl->streams().zns()->zones();
    zu = zm.config().zone_units;
    for (uint32_t i = 0; i < 3; ++i) h.wait_done(h.submit(IoOp::Write, uint32_t(i)));            // zone 0
    for (uint32_t i = 0; i < 2; ++i) h.wait_done(h.submit(IoOp::Write, uint32_t(zu + i)));       // zone 1
    zm.set_read_only(0);
    good = offline(0);
    bad = offline(1);  // implicitly open: Invalid Zone State Transition, its data kept
  };
  sc_core::sc_start();
  CHECK(h.cmds[good].status == 0);
  CHECK(h.cmds[bad].status == kInvalidZoneStateTransition);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(h.checker->expected(i) == 0);  // trimmed: nothing expected
    CHECK(h.pftl->state().lookup(i) == kInvalid);
  }
  CHECK(h.checker->expected(uint32_t(zu)) != 0);
  CHECK(h.checker->expected(uint32_t(zu + 1)) != 0);
  CHECK(h.checker->errors() == 0);
}

TEST_CASE("ftl module: a failed reset or zoned trim keeps the zone's data, a reset drops all of it",
          "[module][ftl][zns]") {
  FtlHarness h("h", kZoned);
  uint64_t zu = 0;
  size_t read_only_reset = 0, part_trim = 0, reset = 0, whole_trim = 0;
  h.script = [&](FtlHarness& h) {
    ZoneManager& zm = h.pftl->streams().zns()->zones();
    zu = zm.config().zone_units;
    for (uint32_t z = 0; z < 4; ++z)
      for (uint32_t i = 0; i < 3; ++i) h.wait_done(h.submit(IoOp::Write, uint32_t(z * zu + i)));
    zm.set_read_only(0);
    read_only_reset = zone_command(h, ZoneAction::Reset, 0, 1);                    // Read Only allows Offline only
    part_trim = zone_command(h, ZoneAction::None, uint32_t(zu), 2);                 // not whole zones: Invalid Field
    reset = zone_command(h, ZoneAction::Reset, uint32_t(2 * zu), 1);                // as the endpoint sends it
    whole_trim = zone_command(h, ZoneAction::None, uint32_t(3 * zu), uint32_t(zu));  // a trim of the whole zone
  };
  sc_core::sc_start();
  CHECK(h.cmds[read_only_reset].status == kInvalidZoneStateTransition);
  CHECK(h.cmds[part_trim].status == kInvalidField);
  CHECK(h.cmds[reset].status == 0);
  CHECK(h.cmds[whole_trim].status == 0);
  for (uint32_t i = 0; i < 3; ++i) {
    CHECK(h.checker->expected(i) != 0);  // the read-only zone and the partly trimmed zone keep every unit
    CHECK(h.checker->expected(uint32_t(zu + i)) != 0);
    CHECK(h.checker->expected(uint32_t(2 * zu + i)) == 0);  // the reset zone: all of it, beyond its first unit
    CHECK(h.pftl->state().lookup(uint32_t(2 * zu + i)) == kInvalid);
    CHECK(h.checker->expected(uint32_t(3 * zu + i)) == 0);
  }
  CHECK(h.dut->stats().trimmed_units == 2 * zu);
  CHECK(h.checker->errors() == 0);
}
