// A harness (VCML style) around the Ftl module alone: the harness owns the module under test, one fake
// channel target per flash_isock[ch] and the completion sink the FTL answers to; a script (an SC_THREAD)
// submits host commands at chosen times. Each fake channel completes every FlashOp a fixed, named delay
// (kReadUs, kProgUs, kEraseUs) after its ready time or after the end of the die's previous op (a die works
// one op at a time, in arrival order, as ChannelController's die queues do), with BEGIN_RESP on the backward
// path, and applies it to the model's Die objects as ChannelController does (program and erase change the
// die; a read fills lpn[] and version[] of its slots), so the FTL's integrity checks and GC see real OOB
// data. No bus, no cache program, no suspend: an op ends at max(ready, die free) + delay, exact.
//
// The FTL is built by the platforms' own assembly code (controller/ftl_assembly.h) from the settings' typed
// parameters (build_ftl()), so the harness runs the FTL a platform runs.
#pragma once
#include <catch2/catch.hpp>

#include <tlm_utils/simple_target_socket.h>

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "config/config.h"
#include "config/params.h"
#include "common/sim_time.h"
#include "controller/ftl.h"
#include "controller/ftl_assembly.h"

namespace ssdtlm {

// One flash operation as a fake channel saw it.
struct FlashRecord {
  FlashCmd cmd;
  uint32_t die, block, page, slot_mask;
  UnitKind kind;        // programs
  ReadKind read_kind;   // reads
  uint64_t issued_ps;   // simulated time of the BEGIN_REQ
  uint64_t ready_ps;    // the FTL's firmware ready time (op.ready_ps)
  uint64_t done_ps;     // ready + the command's delay
  uint32_t free_blocks; // free blocks of the die when the op arrived (PageFtl's block manager)
  std::vector<uint32_t> lpn;  // per slot: programs, the OOB written; reads, the OOB read back (kInvalid: none)
};

struct FakeChannel : sc_core::sc_module {
  static constexpr double kReadUs = 50, kProgUs = 500, kEraseUs = 2000;  // per command, from the ready time
  static uint64_t delay_ps(FlashCmd c) {
    return us_to_ps(c == FlashCmd::Read ? kReadUs : c == FlashCmd::Program ? kProgUs : kEraseUs);
  }

  tlm_utils::simple_target_socket<FakeChannel> tsock{"tsock"};
  uint32_t channel;
  const Geometry& g;
  std::vector<std::unique_ptr<Die>>& dies;  // all dies, by global index
  std::vector<FlashRecord>& log;            // shared by the channels, in issue order
  std::function<uint32_t(uint32_t)> free_blocks;
  std::multimap<uint64_t, std::pair<FlashOp*, size_t>> pending;  // by done time, then arrival
  std::vector<uint64_t> die_free;  // by global die: its last op ends then
  sc_core::sc_event wake;

  FakeChannel(sc_core::sc_module_name n, uint32_t ch, const Geometry& geo, std::vector<std::unique_ptr<Die>>& d,
              std::vector<FlashRecord>& l, std::function<uint32_t(uint32_t)> fb)
      : sc_module(n), channel(ch), g(geo), dies(d), log(l), free_blocks(std::move(fb)), die_free(geo.dies, 0) {
    tsock.register_nb_transport_fw(this, &FakeChannel::fw);
    SC_HAS_PROCESS(FakeChannel);
    SC_METHOD(on_wake);
    sensitive << wake;
    dont_initialize();
  }

  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& delay) {
    if (ph != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
    FlashOp& op = *gp.get_extension<FlashOp>();
    CHECK(g.channel_of_die(op.die) == channel);  // the FTL routes each op to its die's channel
    // A die works one op at a time, in arrival order (the FTL relies on it: an erase it issued lands before
    // a later program can need the block).
    const uint64_t ready = std::max<uint64_t>(op.ready_ps, now_ps() + delay.value());
    uint64_t& free = die_free[op.die];
    const uint64_t done = std::max(ready, free) + delay_ps(op.cmd);
    free = done;
    log.push_back({op.cmd, op.die, op.block, op.page, op.slot_mask, op.kind, op.read_kind, now_ps(), op.ready_ps, done,
                   free_blocks(op.die), std::vector<uint32_t>(g.units_per_page, kInvalid)});
    if (op.cmd == FlashCmd::Program) log.back().lpn.assign(op.lpn, op.lpn + g.units_per_page);
    pending.emplace(done, std::make_pair(&op, log.size() - 1));
    wake.notify(ps_time(pending.begin()->first - now_ps()));
    ph = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  }

  void on_wake() {
    while (!pending.empty() && pending.begin()->first <= now_ps()) {
      FlashOp& op = *pending.begin()->second.first;
      FlashRecord& rec = log[pending.begin()->second.second];
      pending.erase(pending.begin());
      Die& d = *dies[op.die];
      switch (op.cmd) {  // as ChannelController::finish_array
        case FlashCmd::Read: {
          const uint32_t base = op.block * g.units_per_block + op.page * g.units_per_page;
          for (uint32_t m = op.slot_mask; m; m &= m - 1) {
            const uint32_t s = uint32_t(__builtin_ctz(m));
            op.lpn[s] = d.lpn(base + s);
            op.version[s] = d.version(base + s);
            rec.lpn[s] = op.lpn[s];
          }
        } break;
        case FlashCmd::Program: d.program(op.block, op.page, op.lpn, op.version, op.kind, op.stream); break;
        case FlashCmd::Erase: d.erase(op.block); break;
      }
      op.done_ps = now_ps();
      tlm::tlm_phase ph = tlm::BEGIN_RESP;
      sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
      tsock->nb_transport_bw(*op.payload, ph, zero);
    }
    if (!pending.empty()) wake.notify(ps_time(pending.begin()->first - now_ps()));
  }
};

struct FtlHarness : sc_core::sc_module, CompletionSink {
  static constexpr double kCmdNs = 300, kFlashOpNs = 100;  // firmware.cmd_ns, firmware.flash_op_ns
  Config cfg;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<IntegrityChecker> checker;
  std::unique_ptr<PageFtl> pftl;
  std::unique_ptr<Ftl> dut;
  std::vector<std::unique_ptr<FakeChannel>> channels;
  std::vector<FlashRecord> flash;  // every flash op, in issue order
  std::deque<NvmeCommand> cmds;    // submitted commands, by index
  std::vector<uint64_t> done_ps;   // per command: the completion time handed to the sink (kNever: not yet)
  std::unordered_map<const NvmeCommand*, size_t> index;
  std::function<void(FtlHarness&)> script;
  sc_core::sc_event completed;
  uint64_t post_ps = 0;  // the front end's own part of a completion (data transfer, entry post) after ready_ps

  // `settings`: config keys (geometry.*, buffer.*, ftl.*) on top of the harness's firmware times.
  FtlHarness(sc_core::sc_module_name n, const std::vector<std::string>& settings) : sc_module(n) {
    cfg.set("firmware.cmd_ns=" + std::to_string(kCmdNs));
    cfg.set("firmware.flash_op_ns=" + std::to_string(kFlashOpNs));
    for (const auto& s : settings) cfg.set(s);
    build_ftl();
    for (uint32_t ch = 0; ch < g.channels; ++ch) {
      channels.push_back(std::make_unique<FakeChannel>(("fake_ch" + std::to_string(ch)).c_str(), ch, g, dies, flash,
                                                       [this](uint32_t d) { return free_blocks(d); }));
      dut->flash_isock[ch]->bind(channels.back()->tsock);
    }
    dut->bind_frontend(this);
    SC_HAS_PROCESS(FtlHarness);
    SC_THREAD(run);
  }

  // The module under test, built as the platforms build it (by default: block-mode GC, one user and one GC
  // stream, page mapping, FIFO buffer).
  void build_ftl() {
    const Params p = read_params(cfg);  // (checks the geometry leaves the blocks the FTL reserves)
    g = p.geometry;
    checker = std::make_unique<IntegrityChecker>(g.logical_units);
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < g.dies; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, true));
      raw.push_back(dies.back().get());
    }
    pftl = build_page_ftl(p, g, raw, checker.get());
    dut = ssdtlm::build_ftl("ftl", p, *pftl);  // (the assembly's, not this method)
  }

  void run() {
    if (script) script(*this);
  }

  uint64_t complete(NvmeCommand& cmd, uint64_t ready_ps) override {
    auto it = index.find(&cmd);
    REQUIRE(it != index.end());
    CHECK(done_ps[it->second] == kNever);  // completed once
    CHECK(ready_ps >= now_ps());           // never in the past
    done_ps[it->second] = ready_ps;
    completed.notify(sc_core::SC_ZERO_TIME);
    return ready_ps + post_ps;  // when the host sees it
  }

  // Submits a command now (its fetch completes now); returns its index.
  size_t submit(IoOp op, uint32_t lpn, uint32_t units = 1) {
    cmds.emplace_back();
    NvmeCommand& c = cmds.back();
    c.reset();
    c.op = op;
    c.lpn = lpn;
    c.units = units;
    c.bytes = units * kUnitBytes;
    c.submit_ps = now_ps();
    index[&c] = cmds.size() - 1;
    done_ps.push_back(kNever);
    dut->submit(c, now_ps());
    return cmds.size() - 1;
  }
  // Script helpers (SC_THREAD only): wait until command i has completed and its completion time has come.
  void wait_done(size_t i) {
    while (done_ps[i] == kNever) sc_core::wait(completed);
    if (done_ps[i] > now_ps()) sc_core::wait(ps_time(done_ps[i] - now_ps()));
  }
  void wait_until_us(double t) {
    const uint64_t at = us_to_ps(t);
    if (at > now_ps()) sc_core::wait(ps_time(at - now_ps()));
  }

  double done_us(size_t i) const { return double(done_ps.at(i)) / 1e6; }
  // Module state the tests look at beyond Ftl::stats() (kept here, so that a new interface changes one place).
  uint32_t free_blocks(uint32_t die) const { return pftl->state().blocks().free_blocks(die); }
  uint32_t buffer_occupied() const { return dut->buffer().occupied(); }
  size_t count(FlashCmd c) const {
    size_t n = 0;
    for (auto& r : flash) n += r.cmd == c;
    return n;
  }
};

}  // namespace ssdtlm
