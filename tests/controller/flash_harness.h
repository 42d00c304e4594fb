// A harness (VCML style) around one ChannelController with FlashParams: owns the module under test and an
// initiator socket, issues NAND operations (each with a ready time) and keeps completions in order.
#pragma once
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>

#include <memory>

#include "config/config.h"
#include "config/params.h"
#include "common/payload_pool.h"
#include "common/sim_time.h"
#include "controller/channel_controller.h"

namespace ssdtlm {

struct FlashHarness : sc_core::sc_module {
  static constexpr double kTr = 60, kTprog = 700, kTerase = 3500, kMts = 400, kCmdNs = 20;
  tlm_utils::simple_initiator_socket<FlashHarness> isock{"isock"};
  Config cfg;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<ChannelController> dut;
  PayloadPool<FlashOp> pool;
  std::vector<FlashOp> done;  // completed ops, in completion order

  // `params` gets the harness's tR/tPROG/tBERS (kTr, kTprog, kTerase); FlashParams() = plain timing.
  FlashHarness(sc_core::sc_module_name n, FlashParams params, uint32_t dies_on_channel = 1, uint32_t planes = 1)
      : sc_module(n) {
    cfg.set("geometry.channels=1");
    cfg.set("geometry.planes_per_die=" + std::to_string(planes));
    cfg.set("geometry.dies_per_channel=" + std::to_string(dies_on_channel));
    cfg.set("geometry.blocks_per_plane=32");
    cfg.set("geometry.pages_per_block=6");
    g = read_geometry(cfg, 4);
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < dies_on_channel; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, true));
      raw.push_back(dies.back().get());
    }
    params.timing = DieTiming{us_to_ps(kTr), us_to_ps(kTprog), us_to_ps(kTerase)};
    dut = std::make_unique<ChannelController>("dut", g, 0, raw, Channel(kMts, 1, kCmdNs), params);
    isock.bind(dut->tsock);
    isock.register_nb_transport_bw(this, &FlashHarness::bw);
  }

  // Issues an operation now, ready `ready_us` later (firmware time: the controller sees it from then on);
  // slc: on a block in SLC mode.
  void issue(FlashCmd cmd, uint32_t die, uint32_t block, uint32_t page, double ready_us = 0, uint32_t mask = 1,
             bool slc = false) {
    tlm::tlm_generic_payload* gp = pool.acquire();
    FlashOp& op = PayloadPool<FlashOp>::ext(*gp);
    op.reset();
    op.payload = gp;
    op.cmd = cmd;
    op.die = die;
    op.block = block;
    op.page = page;
    op.slot_mask = cmd == FlashCmd::Read ? mask : 0;
    op.slc = slc;
    for (uint32_t s = 0; s < g.units_per_page; ++s) {
      op.lpn[s] = 100 * die + 10 * page + s;
      op.version[s] = 7;
    }
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = ps_time(us_to_ps(ready_us));
    REQUIRE(isock->nb_transport_fw(*gp, ph, t) == tlm::TLM_UPDATED);
    REQUIRE(ph == tlm::END_REQ);
  }

  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    REQUIRE(ph == tlm::BEGIN_RESP);
    done.push_back(PayloadPool<FlashOp>::ext(gp));
    gp.release();
    return tlm::TLM_COMPLETED;
  }

  // Completion time (ps) of the op of this kind on (die, block, page).
  uint64_t done_ps(FlashCmd c, uint32_t die, uint32_t block, uint32_t pg) const {
    for (auto& op : done)
      if (op.cmd == c && op.die == die && op.block == block && op.page == pg) return op.done_ps;
    FAIL("operation not completed");
    return 0;
  }
  // Completion time (us) of the op of this kind on (die, block, page).
  double at(FlashCmd c, uint32_t die, uint32_t block, uint32_t pg) const {
    for (auto& op : done)
      if (op.cmd == c && op.die == die && op.block == block && op.page == pg) return double(op.done_ps) / 1e6;
    FAIL("operation not completed");
    return 0.0;
  }
  // Position in completion order.
  size_t order(FlashCmd c, uint32_t die, uint32_t block, uint32_t pg) const {
    for (size_t i = 0; i < done.size(); ++i)
      if (done[i].cmd == c && done[i].die == die && done[i].block == block && done[i].page == pg) return i;
    FAIL("operation not completed");
    return 0;
  }

  static double bus_us(uint32_t bytes) { return kCmdNs / 1e3 + bytes / kMts; }  // MT/s x 1 byte = bytes per us
  double page_in_us() const { return bus_us(g.page_bytes); }
};

}  // namespace ssdtlm
