#include "controller/ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "wave/wave_signals.h"  // FtlWave::touch: the traced dies whose free blocks may have changed

namespace ssdtlm {

Ftl::Ftl(sc_core::sc_module_name name, const FtlParams& p, const FtlEngines& e, std::unique_ptr<WriteBuffer> buffer)
    : sc_module(name),
      dram("dram_isock"),
      p_(p),
      e_(e),
      g_(e.state.geometry()),
      streams_(e.streams),
      lifetimes_(e.streams.lifetimes()),
      buffer_(std::move(buffer)),
      checker_(e.checker),
      core_free_(p.cores, 0),
      cache_(e.map),
      ts_(e.translation),
      sched_(make_sched_policy(p.sched_policy)),
      high_units_(std::max<uint32_t>(g_.units_per_page, uint32_t(buffer_->capacity() * p.high_watermark))),
      low_units_(uint32_t(buffer_->capacity() * p.low_watermark)),
      host_(*this),
      flush_(*this),
      gc_(*this, e),
      map_(*this),
      zone_erase_(*this) {
  for (uint32_t ch = 0; ch < g_.channels; ++ch) {
    flash_isock.emplace_back(std::make_unique<tlm::tlm_initiator_socket<>>(("flash_isock_" + std::to_string(ch)).c_str()));
    flash_isock.back()->bind(*this);
  }
  if (p_.count_lpn_writes) lpn_writes_.assign(g_.logical_units, 0);
  if (p_.read_ahead.sequential) {  // span: cache.read_ahead_pages pages, 0 = one page of every die
    const uint32_t span = (p_.read_ahead.pages ? p_.read_ahead.pages : g_.dies) * g_.units_per_page;
    read_ahead_ = std::make_unique<ReadAhead>(p_.read_ahead.trigger, span, p_.read_ahead.bytes / kUnitBytes);
  }
  flush_.refresh_all();
  if (e_.slc) {
    SC_METHOD(on_idle_timer);
    sensitive << idle_timer_;
    dont_initialize();
  }
}

Ftl::~Ftl() = default;

uint64_t Ftl::cpu(uint64_t cost_ps) {
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  uint64_t start = std::max(*core, now_ps());
  *core = start + cost_ps;
  return *core;
}

uint64_t Ftl::buffer_work(uint64_t steps, uint64_t at_ps) {
  stats_.buffer_steps += steps;
  if (p_.buffer_step_ps == 0 || steps == 0) return at_ps;
  stats_.buffer_busy_ps += steps * p_.buffer_step_ps;
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  *core = std::max({*core, at_ps, now_ps()}) + steps * p_.buffer_step_ps;
  return *core;
}

FlashOp& Ftl::new_op(FlashCmd cmd, uint32_t die, FtlOpTag tag) {
  tlm::tlm_generic_payload* gp = ops_.acquire();
  FlashOp& op = PayloadPool<FlashOp>::ext(*gp);
  op.cmd = cmd;
  op.die = die;
  op.tag = tag;
  gp->set_command(cmd == FlashCmd::Read ? tlm::TLM_READ_COMMAND
                  : cmd == FlashCmd::Program ? tlm::TLM_WRITE_COMMAND
                                             : tlm::TLM_IGNORE_COMMAND);
  return op;
}

void Ftl::send(FlashOp& op, uint64_t not_before) {
  op.ready_ps = std::max(cpu(p_.flash_op_ps), not_before);
  op.payload->set_address(g_.ppa(op.die, op.block, op.page));
  const uint32_t gblock = op.die * g_.blocks_per_die + op.block;
  op.slc = e_.state.blocks().is_slc(gblock);  // SLC-mode timing (slc.*)
  if (Reliability* rel = e_.reliability) {  // reliability.*: what this read costs; wear and age bookkeeping
    if (op.cmd == FlashCmd::Read) {
      const ReadOutcome o = rel->on_read(gblock, op.page, e_.state.die(op.die).erase_count(op.block), op.slc, now_ps());
      op.extra_reads = o.extra_reads;
      op.retries = o.retries;
      op.soft_tier = o.soft_tier;
      op.uncorrectable = o.uncorrectable;
      op.decode_ps = o.decode_ps;
    } else if (op.cmd == FlashCmd::Program) {
      rel->on_program(gblock, op.page, now_ps());
    } else {
      rel->on_erase(gblock);
    }
  }
  // Hints: the page's out-of-band data is written when a program ends and read when a read's tR ends (for the
  // FTL, as a controller reads the OOB with the data): fetched from memory meanwhile.
  if (op.cmd == FlashCmd::Program) e_.state.die(op.die).prefetch_program(op.block, op.page);
  else if (op.cmd == FlashCmd::Read) e_.state.die(op.die).prefetch_oob((op.block * g_.pages_per_block + op.page) * g_.units_per_page);
  if (wave_ && op.cmd != FlashCmd::Read) wave_->touch(op.die);  // may have opened a block
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*flash_isock[g_.channel_of_die(op.die)])->nb_transport_fw(*op.payload, phase, delay);
}

void Ftl::submit(NvmeCommand& cmd, uint64_t arrival_ps) {
  // The host's look-ahead hint (no effect on behaviour): start loading what the next command reads at once
  // on arrival, a write its LPN's write count (stream assignment), a read its map entry, either the checker's
  // entry, so that the cache miss overlaps this command.
  if (cmd.next_lpn != NvmeCommand::kNoNextLpn) {
    if (cmd.next_op == IoOp::Write) streams_.prefetch(cmd.next_lpn);
    else if (cmd.next_op == IoOp::Read) e_.state.prefetch_map(cmd.next_lpn);
    if (checker_) checker_->prefetch(cmd.next_lpn);  // its expected version (check.integrity)
    buffer_->prefetch(cmd.next_lpn);  // reads and writes look the buffer's index up first
  }
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  *core = std::max(*core, arrival_ps) + p_.cmd_ps + (cmd.op == IoOp::Write ? p_.write_cmd_ps : 0);
  cmd.ready_ps = *core;
  if (cmd.op == IoOp::Read) host_.read_taken();
  if (cmd.zone_action != ZoneAction::None) {  // a zone command names one zone by its start: a reset drops all of it
    if (const ZnsNamespace* z = streams_.zns()) cmd.units = uint32_t(z->layout().zones.zone_units), cmd.partial = 0;
  }
  ++arrivals_;
  if (SlcCache* slc = e_.slc) slc->set_idle(false);  // a command: the host is not idle (slc.*)
  if (!started_) {  // the first command: the dies as preconditioning left them
    started_ = true;
    flush_.refresh_all();
  }
  if (!map_.map_phase(cmd)) host_.start(cmd);
  flush_.wake();
  if (wave_) trace_sample();
}

void Ftl::complete(NvmeCommand& cmd, uint64_t t) {
  last_done_ps_ = std::max(last_done_ps_, frontend_->complete(cmd, t));  // when the host sees it
}

void Ftl::host_idle_check() {
  if (!e_.slc) return;
  if (!host_.idle()) return gc_.host_idle(false);
  // The host is idle once it has seen its last completion (which may lie ahead: the data transfer and the entry
  // post after the FTL hands the command back; the command is in the drive until then), and folding waits
  // slc.fold_idle_us more, at least 1 ps: strictly after that instant, whatever else happens at it (the host's
  // next command, or the run's end). A command before then cancels the timer.
  const uint64_t now = now_ps();
  fold_start_ps_ = std::max(now, last_done_ps_) + std::max<uint64_t>(p_.slc_idle_ps, 1);
  idle_arrivals_ = arrivals_;
  if (fold_start_ps_ <= now) return gc_.host_idle(true);
  idle_timer_.notify(ps_time(fold_start_ps_ - now));
}

void Ftl::on_idle_timer() {
  if (arrivals_ != idle_arrivals_ || !host_.idle()) return;  // a command came since: its end arms it again
  const uint64_t now = now_ps();
  if (now < fold_start_ps_) return idle_timer_.notify(ps_time(fold_start_ps_ - now));  // an earlier arming's event
  gc_.host_idle(true);
  if (wave_) trace_sample();
}

bool Ftl::audit(IntegrityChecker& c, uint64_t time_ps) const {
  if (!e_.state.audit_map(c, time_ps)) return false;
  const Geometry& g = g_;
  const uint64_t units = std::min<uint64_t>(c.logical_units(), g.logical_units);
  for (uint32_t lpn = 0; lpn < units; ++lpn) {
    const uint32_t want = c.expected(lpn);
    uint32_t got_lpn = lpn, version = 0;
    const char* where = "the buffer";
    if (!buffer_->lookup(lpn, &version)) {
      where = "flash";
      const uint32_t ppa = e_.state.lookup(lpn);
      if (ppa == kInvalid) {
        got_lpn = kInvalid;
      } else {
        const Die& die = e_.state.die(g.die_of(ppa));
        const uint32_t unit = ppa - g.ppa(g.die_of(ppa), 0, 0);
        if (!die.programmed(g.block_of(ppa), g.page_of(ppa))) where = "an unprogrammed page";
        got_lpn = die.lpn(unit), version = die.version(unit);
      }
    }
    if (IntegrityChecker::matches(lpn, want, got_lpn, version)) continue;
    c.violation("end-of-run audit: LPN " + std::to_string(lpn) + " expected version " + std::to_string(want) + ", " +
                    where + " holds LPN " + (got_lpn == kInvalid ? std::string("none") : std::to_string(got_lpn)) +
                    " version " + std::to_string(version),
                time_ps);
    return false;
  }
  return true;
}

std::string Ftl::describe_state() const {
  std::string s = "buffer " + std::to_string(buffer_->occupied()) + "/" + std::to_string(buffer_->capacity()) +
                  " units (" + std::to_string(buffer_->dirty()) + " dirty); writes waiting for room: " +
                  std::to_string(host_.waiting_units()) + " units" + (host_.writes_held() ? " (held by sched.policy)" : "") +
                  "; flush programs pending: " + std::to_string(flush_.pending()) + (flush_.flushing() ? " (flushing)" : "");
  if (host_.slot_waiting()) s += "; zoned writes waiting for a stream slot";
  if (zone_erase_.waiting()) s += "; zone resets waiting for their blocks' erases (" + zone_erase_.describe() + ")";
  s += "; dies collecting: " + std::to_string(e_.gc.active_dies()) + "; " + map_.describe();
  s += ";" + flush_.describe();
  return s;
}

// ---------------------------------------------------------------- completions from the channels

tlm::tlm_sync_enum Ftl::nb_transport_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                        sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  FlashOp& op = PayloadPool<FlashOp>::ext(gp);
  op.done_ps += op.decode_ps;  // soft decoding on the controller (reliability.*)
  if (wave_ && op.cmd == FlashCmd::Erase) wave_->touch(op.die);  // a block freed
  bool release = true;
  // Read reclaim (reliability.*): a user read, the host's or one fetched ahead, finds the blocks read too often.
  auto reclaim = [&] {
    if (e_.reliability && e_.reliability->reclaim_due(op.die)) gc_.kick(op.die);
  };
  switch (FtlOpTag(op.tag)) {
    case kHostRead:
      host_.on_read(op);
      reclaim();
      break;
    case kRmwRead: host_.on_rmw_read(op); break;
    case kFlush: release = flush_.on_flush(op); break;
    case kGcRead: gc_.on_read(op); break;
    case kGcProgram: gc_.on_program(op); break;
    case kGcErase: gc_.on_erase(op); break;
    case kMapLoad:
    case kMapMerge:
    case kMapWrite: map_.on_op(op); break;
    case kGcMapRead: gc_.on_map_read(op); break;
    case kGcMapProgram: gc_.on_map_program(op); break;
    case kZoneErase: zone_erase_.on_erase(op); break;
    case kReadAhead:
      host_.on_read_ahead(op);
      reclaim();
      break;
  }
  if (release) gp.release();
  flush_.wake();  // a GC job that ended here lets the buffer flush to its die
  if (wave_) trace_sample();
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

}  // namespace ssdtlm
