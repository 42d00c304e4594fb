// Module test of ChannelController with a harness (VCML style): the harness owns the module under test and
// an initiator socket, drives NAND operations and checks their completion times against ONFI arithmetic.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>

#include "common/config.h"
#include "common/payload_pool.h"
#include "common/sim_time.h"
#include "controller/channel_controller.h"

using namespace ssdtlm;

namespace {

constexpr double kTr = 60, kTprog = 700, kTerase = 3500, kMts = 400, kCmdNs = 20;

struct Harness : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Harness> isock{"isock"};
  Config cfg;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<ChannelController> dut;
  PayloadPool<FlashOp> pool;
  std::vector<FlashOp> done;  // completed ops, in completion order

  explicit Harness(sc_core::sc_module_name n) : sc_module(n) {
    cfg.set("geometry.channels=1");
    cfg.set("geometry.dies_per_channel=2");
    cfg.set("geometry.blocks_per_plane=32");
    cfg.set("geometry.pages_per_block=4");
    g = Geometry::from_config(cfg, 4);
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < 2; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, true));
      raw.push_back(dies.back().get());
    }
    dut = std::make_unique<ChannelController>("dut", g, 0, raw, Channel(kMts, 1, kCmdNs),
                                              DieTiming{us_to_ps(kTr), us_to_ps(kTprog), us_to_ps(kTerase)});
    isock.bind(dut->tsock);
    isock.register_nb_transport_bw(this, &Harness::bw);
  }

  void issue(FlashCmd cmd, uint32_t die, uint32_t block, uint32_t page, uint32_t mask = 0) {
    tlm::tlm_generic_payload* gp = pool.acquire();
    FlashOp& op = PayloadPool<FlashOp>::ext(*gp);
    op.cmd = cmd;
    op.die = die;
    op.block = block;
    op.page = page;
    op.slot_mask = mask;
    for (uint32_t s = 0; s < g.units_per_page; ++s) {
      op.lpn[s] = 100 * die + 10 * page + s;
      op.version[s] = 7;
    }
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    REQUIRE(isock->nb_transport_fw(*gp, ph, t) == tlm::TLM_UPDATED);
    REQUIRE(ph == tlm::END_REQ);
  }

  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    REQUIRE(ph == tlm::BEGIN_RESP);
    done.push_back(PayloadPool<FlashOp>::ext(gp));
    gp.release();
    return tlm::TLM_COMPLETED;
  }
};

double bus_us(uint32_t bytes) { return kCmdNs / 1e3 + bytes / kMts; }  // MT/s x 1 byte = bytes per us

}  // namespace

TEST_CASE("channel controller follows ONFI timing with die overlap and cache program", "[module][flash]") {
  Harness h("harness");
  const uint32_t page = h.g.page_bytes;
  // Two programs to die 0 (cache program overlaps the second data-in with the first tPROG),
  // one program to die 1 (waits only for the bus), then a partial read of die 0 page 0, and an erase of die 1.
  h.issue(FlashCmd::Program, 0, 0, 0);
  h.issue(FlashCmd::Program, 0, 0, 1);
  h.issue(FlashCmd::Program, 1, 0, 0);
  h.issue(FlashCmd::Read, 0, 0, 0, 0b10);
  sc_core::sc_start();
  REQUIRE(h.done.size() == 4);
  auto at = [&](FlashCmd c, uint32_t die, uint32_t pg) {
    for (auto& op : h.done)
      if (op.cmd == c && op.die == die && op.page == pg) return double(op.done_ps) / 1e6;
    FAIL("operation not completed");
    return 0.0;
  };
  const double in = bus_us(page);
  // die 0, page 0: data-in then tPROG
  CHECK(at(FlashCmd::Program, 0, 0) == Approx(in + kTprog).margin(1e-3));
  // die 1: the bus is first come, first served; die 0's second (cache) program asked first, so die 1's
  // data-in takes the third slot
  CHECK(at(FlashCmd::Program, 1, 0) == Approx(3 * in + kTprog).margin(1e-3));
  // die 0, page 1: data-in during the first tPROG (cache register), tPROG starts when the array is free
  CHECK(at(FlashCmd::Program, 0, 1) == Approx(in + 2 * kTprog).margin(1e-3));
  // read waits for die 0's array, then tR, then 4 KiB of data-out
  CHECK(at(FlashCmd::Read, 0, 0) == Approx(in + 2 * kTprog + kTr + bus_us(4096)).margin(1e-3));
  for (auto& op : h.done)
    if (op.cmd == FlashCmd::Read) {
      CHECK(op.lpn[1] == 1);  // OOB of die 0, page 0, slot 1
      CHECK(op.version[1] == 7);
    }
  CHECK(h.dies[0]->kind(1) == UnitKind::UD);
  CHECK(h.dies[0]->programmed(0, 1));
  CHECK(!h.dies[0]->programmed(0, 2));
}

TEST_CASE("die enforces NAND rules", "[flash]") {
  Config c;
  c.set("geometry.channels=1");
  c.set("geometry.dies_per_channel=1");
  c.set("geometry.blocks_per_plane=32");
  c.set("geometry.pages_per_block=4");
  Geometry g = Geometry::from_config(c, 4);
  Die d(g, 0, false);
  uint32_t lpns[2] = {1, 2};
  d.program(0, 0, lpns, nullptr, UnitKind::UD);
  CHECK_THROWS_AS(d.program(0, 2, lpns, nullptr, UnitKind::UD), NandRuleViolation);  // skips page 1
  CHECK_THROWS_AS(d.program(0, 0, lpns, nullptr, UnitKind::UD), NandRuleViolation);  // reprogram
  d.erase(0);
  CHECK(d.erase_count(0) == 1);
  CHECK(d.lpn(0) == kInvalid);
  CHECK_NOTHROW(d.program(0, 0, lpns, nullptr, UnitKind::UD));
}
