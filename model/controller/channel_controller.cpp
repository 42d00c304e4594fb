#include "controller/channel_controller.h"

#include <algorithm>

#include "common/sim_time.h"
#include "power/power_budget.h"
#include "wave/wave_signals.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

ChannelController::ChannelController(sc_core::sc_module_name name, const Geometry& g, uint32_t channel,
                                     std::vector<Die*> dies, const Channel& bus, const DieTiming& timing)
    : ChannelController(name, g, channel, std::move(dies), bus, FlashParams::plain(timing)) {}

ChannelController::ChannelController(sc_core::sc_module_name name, const Geometry& g, uint32_t channel,
                                     std::vector<Die*> dies, const Channel& bus, const FlashParams& params)
    : sc_module(name),
      tsock("tsock"),
      dram("dram_isock"),
      g_(g),
      channel_(channel),
      bus_(bus),
      params_(params),
      timing_(g_, params_, bus_),
      dies_(dies.size()),
      array_done_(dies.size(), kNever) {
  for (size_t i = 0; i < dies.size(); ++i) {
    dies_[i].die = dies[i];
    dies_[i].queue.configure(params_.die_sched == DieSched::ReadFirst, params_.read_first_limit);
  }
  stats_.die_array_ps.assign(dies.size(), 0);
  tsock.bind(*this);
  SC_HAS_PROCESS(ChannelController);
  SC_METHOD(on_wake);
  sensitive << wake_;
  dont_initialize();
}

void ChannelController::trace(WaveTracer& w) {
  // Names carry the channel and the die's index on it (global die index = k * channels + channel).
  const int die_table = w.add_enum(wave_die_state_table()), bus_table = w.add_enum(wave_bus_dir_table());
  const std::string ch = "ch" + std::to_string(channel_);
  const uint32_t n = uint32_t(dies_.size());
  WaveGroup group;
  group.name = ch;
  group.fold = true;
  wave_owner_ = w.add(ch + ".bus.owner", std::max(2u, wave_bits(n - 1)), WaveStyle::Number, kWaveZ, -1,
                      "die (index on the channel) whose transfer holds the bus; z when the bus is idle");
  wave_dir_ = w.add(ch + ".bus.dir", kBusDirBits, WaveStyle::Enum, kBusIdle, bus_table,
                    "transfer on the bus: out (read data-out) or in (program data-in), for user, map or GC work");
  w.set_boundary(wave_owner_, kWaveZ);
  w.set_boundary(wave_dir_, kBusIdle);
  w.pair(wave_owner_, wave_dir_);  // one record carries both
  group.rows.push_back({wave_dir_, 1});
  group.rows.push_back({wave_owner_, 1});
  for (uint32_t k = 0; k < n; ++k) {
    const uint32_t s = w.add(ch + ".die" + std::to_string(k) + ".state", kDieStateBits, WaveStyle::Enum, kDieIdle,
                             die_table, "array operation of the die (tR, tPROG, tBERS) and whose work it is");
    w.set_boundary(s, kDieIdle);
    if (k == 0) wave_state_ = s;
    group.rows.push_back({s, 1});
  }
  w.layout().groups.push_back(std::move(group));
  wave_ = &w;
}

tlm::tlm_sync_enum ChannelController::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                      sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  FlashOp* op = gp.get_extension<FlashOp>();
  op->ready_ps = std::max<uint64_t>(op->ready_ps, now_ps() + delay.value());
  op->next = nullptr;
  const uint32_t k = op->die / g_.channels;
  DieState& d = dies_[k];
  d.queue.push(op);
  phase = tlm::END_REQ;
  if (d.queue.front() == op) {  // an op behind others changes nothing until they leave
    kick_ |= uint64_t(1) << k;
    step();
  }
  return tlm::TLM_UPDATED;
}

uint64_t ChannelController::transfer_end(const FlashOp& op, uint64_t start) {
  const uint32_t bytes = timing_.bytes_of(op);
  const bool program = op.cmd == FlashCmd::Program;
  if (bytes != xfer_bytes_[program]) xfer_bytes_[program] = bytes, xfer_ps_[program] = timing_.transfer_ps(bytes);
  const uint64_t t = xfer_ps_[program];
  stats_.bus_busy_ps += t;
  stats_.bus_bytes += bytes;
  const uint64_t d = program ? dram.read(start, bytes, t) : dram.write(start, bytes, t);
  return std::max(start + t, d);
}

const ChannelStats& ChannelController::stats() const {
  stats_.read_overtakes = 0;
  for (const DieState& d : dies_) stats_.read_overtakes += d.queue.overtakes();
  return stats_;
}

// next_done_ stays the least end: a new end below it lowers it; an end replaced by a later one (a suspending
// read that outlasts the program it suspends) can only raise it if it was the least, and then it is searched.
void ChannelController::set_done(uint32_t k, uint64_t t) {
  const uint64_t old = array_done_[k];
  array_done_[k] = t;
  if (t < next_done_) {
    next_done_ = t;
  } else if (old == next_done_ && t > old) {
    next_done_ = kNever;
    for (uint64_t e : array_done_) next_done_ = e < next_done_ ? e : next_done_;
  }
}

void ChannelController::start_array(uint32_t k, FlashOp* op, uint64_t start, uint64_t duration, uint64_t t) {
  DieState& d = dies_[k];
  d.array_op = op;
  set_done(k, start + duration);
  d.array_from = start + duration - t;
  if (!d.suspended) d.suspends = 0;  // a new operation (not a read within a suspension)
  stats_.die_array_busy_ps += t;
  stats_.die_array_ps[k] += t;
  stats_.array_ps[uint32_t(op->cmd)] += t;
  if (op->slc) stats_.slc_array_ps[uint32_t(op->cmd)] += t;
  // The array works during the last t of the piece (a program started by grant() has its data-in first).
  if (wave_) wave_->interval(wave_state_ + k, start + duration - t, start + duration, wave_die_state(*op), kDieIdle);
}

bool ChannelController::try_suspend(uint32_t k, uint64_t now) {
  DieState& d = dies_[k];
  FlashOp* op = d.array_op;
  FlashOp* read = d.queue.front();
  if (op->cmd == FlashCmd::Read || (op->cmd == FlashCmd::Erase && params_.suspend != SuspendMode::ProgramErase)) return false;
  // The suspension starts when the read is ready and the array is in its own array time (not in data-in).
  const uint64_t at = std::max({now, read->ready_ps, d.array_from});
  if (at >= array_done_[k] || d.suspends >= params_.max_suspends) return false;
  d.suspended = op;
  d.remaining = array_done_[k] - at;
  d.suspended_at = at;
  ++d.suspends;
  ++stats_.suspends[uint32_t(op->cmd)];
  const uint64_t ts = params_.t_suspend_ps;
  stats_.die_array_busy_ps += ts;
  stats_.die_array_ps[k] += ts;
  stats_.array_ps[uint32_t(op->cmd)] += ts;
  if (op->slc) stats_.slc_array_ps[uint32_t(op->cmd)] += ts;
  if (wave_) {
    wave_->retract(wave_state_ + k, at);
    wave_->interval(wave_state_ + k, at, at + ts, kDieSuspended, kDieIdle);
  }
  d.queue.pop();
  ++stats_.suspended_reads;
  count_planes(timing_.plane_mask(*read));
  const uint64_t t = timing_.array_ps(*read);
  start_array(k, read, at, ts + t, t);
  return true;
}

void ChannelController::resume(uint32_t k, uint64_t now) {
  DieState& d = dies_[k];
  FlashOp* op = d.suspended;
  const uint64_t at = std::max(now, d.free_at), tr = params_.t_resume_ps;  // after the last read's data-out
  d.suspended = nullptr;
  d.array_op = op;
  d.array_from = at + tr;
  set_done(k, at + tr + d.remaining);
  stats_.suspended_ps += at + tr - d.suspended_at;
  stats_.die_array_busy_ps += tr;
  stats_.die_array_ps[k] += tr;
  stats_.array_ps[uint32_t(op->cmd)] += tr;
  if (op->slc) stats_.slc_array_ps[uint32_t(op->cmd)] += tr;
  if (wave_) {
    wave_->interval(wave_state_ + k, at, at + tr, kDieSuspended, kDieIdle);
    wave_->interval(wave_state_ + k, at + tr, array_done_[k], wave_die_state(*op), kDieIdle);
  }
}

void ChannelController::trace_bus(uint32_t k, const FlashOp& op, uint64_t start, uint64_t end) {
  wave_->interval_pair(wave_owner_, start, end, k, wave_bus_dir(op), kWaveZ, kBusIdle);
}

void ChannelController::complete(FlashOp* op, uint64_t done) {
  op->done_ps = done;
  tlm::tlm_phase phase = tlm::BEGIN_RESP;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;  // done_ps may lie ahead: the completion time is annotated
  tsock->nb_transport_bw(*op->payload, phase, delay);
}

void ChannelController::finish_array(uint32_t k) {
  DieState& d = dies_[k];
  FlashOp* op = d.array_op;
  const uint64_t done = array_done_[k];
  d.array_op = nullptr;
  array_done_[k] = kNever;
  if (budget_ && !d.suspended) give_back(k);
  ++stats_.ops[uint32_t(op->cmd)];
  switch (op->cmd) {
    case FlashCmd::Read: {
      for (uint32_t i = 0; i <= d.joined_n; ++i) {  // op, then the reads that joined its tR
        FlashOp* r = i == 0 ? op : d.joined[i - 1];
        size_t base = size_t(r->block) * g_.units_per_block + size_t(r->page) * g_.units_per_page;
        for (uint32_t m = r->slot_mask; m; m &= m - 1) {
          uint32_t s = uint32_t(__builtin_ctz(m));
          r->lpn[s] = d.die->lpn(uint32_t(base + s));
          r->version[s] = d.die->version(uint32_t(base + s));
        }
        if (i) ++stats_.ops[uint32_t(FlashCmd::Read)];
      }
      d.read_out = op;  // sensed into the page register(s); needs the bus for data-out
    } break;
    case FlashCmd::Program:
      d.die->program(op->block, op->page, op->lpn, op->version, op->kind, op->stream);
      complete(op, done);
      break;
    case FlashCmd::Erase:
      d.die->erase(op->block);
      complete(op, done);
      break;
  }
}

std::string ChannelController::describe() const {
  static const char* const kCmd[] = {"read", "program", "erase"};
  std::string s;
  for (uint32_t k = 0; k < dies_.size(); ++k) {
    const DieState& d = dies_[k];
    const FlashOp* head = d.queue.front();
    if (!head && !d.array_op && !d.read_out && !d.staged && !d.suspended) continue;
    s += (s.empty() ? "" : "; ") + std::string("ch") + std::to_string(channel_) + ".die" + std::to_string(k) + ": " +
         std::to_string(d.queue.size()) + " queued";
    if (head)
      s += " (head: " + std::string(kCmd[uint32_t(head->cmd)]) + " of block " + std::to_string(head->block) +
           " page " + std::to_string(head->page) + ", ready at " + std::to_string(head->ready_ps / 1000000) + " us)";
    if (d.array_op) s += ", array: " + std::string(kCmd[uint32_t(d.array_op->cmd)]);
    if (d.read_out) s += ", a read waits for the bus";
    if (d.staged) s += ", a program staged";
    if (d.suspended) s += ", an operation suspended";
  }
  return s;
}

void ChannelController::update(uint32_t k, uint64_t now) {
  DieState& d = dies_[k];
  const uint64_t bit = uint64_t(1) << k;
  // An idle array takes the staged program, else the read or erase at the head, starting when its firmware
  // time is over and the die's own data-out has ended (the head blocks the die's queue either way, so starting
  // it ahead of time changes nothing but the wake it saves).
  if (!d.array_op && !d.read_out) {
    FlashOp* head = d.queue.front();
    if (d.suspended) {  // within a suspension: the next read that was ready when it began, else resume
      if (head && head->cmd == FlashCmd::Read && head->ready_ps <= d.suspended_at) {
        d.queue.pop();
        ++stats_.suspended_reads;
        count_planes(timing_.plane_mask(*head));
        const uint64_t t = timing_.array_ps(*head);
        start_array(k, head, std::max({now, head->ready_ps, d.free_at}), t, t);
      } else {
        resume(k, now);
      }
    } else if (d.staged) {
      if (admit(k, *d.staged, std::max(now, d.staged_at))) {
        count_planes(timing_.plane_mask(*d.staged));
        const uint64_t t = timing_.array_ps(*d.staged);
        start_array(k, d.staged, std::max(now, d.staged_at), t, t);
        d.staged = nullptr;
      }
    } else if (head && head->cmd != FlashCmd::Program &&
               admit(k, *head, std::max({now, head->ready_ps, d.free_at}))) {
      FlashOp* op = d.queue.pop();
      const uint64_t start = std::max({now, op->ready_ps, d.free_at});
      if (op->cmd == FlashCmd::Read && params_.multiplane == MultiPlane::Opportunistic && g_.planes > 1) {
        const uint64_t t = join_reads(d, op, start);
        const uint64_t own = timing_.array_ps(*op);
        start_array(k, op, start, t, own);
        if (t != own) {  // the group's tR is a joined read's: the array's own time is t
          d.array_from = start;
          const uint64_t extra = t - own;
          stats_.die_array_busy_ps += extra;
          stats_.die_array_ps[k] += extra;
          stats_.array_ps[uint32_t(FlashCmd::Read)] += extra;
          if (op->slc) stats_.slc_array_ps[uint32_t(FlashCmd::Read)] += extra;
        }
      } else {
        count_planes(timing_.plane_mask(*op));
        const uint64_t t = timing_.array_ps(*op);
        start_array(k, op, start, t, t);
      }
    }
  } else if (params_.suspend != SuspendMode::None && d.array_op && !d.suspended && d.queue.front() &&
             d.queue.front()->cmd == FlashCmd::Read) {
    try_suspend(k, now);
  }
  // The bus: data-out of a sensed read, or data-in of a program (cache program while the array programs).
  // (A die's own data-out ends when the bus frees, so a granted program never overlaps it.)
  // A program ready by the time the bus frees (plus the lookahead) leaves no idle gap on the bus.
  // No data-in while an operation is suspended (the cache register is the suspended program's).
  const uint64_t horizon = std::max(now, bus_free_at_) + kLookaheadPs;  // where the next bus slot starts, + lookahead
  FlashOp* head = d.queue.front();
  const bool program = head && head->cmd == FlashCmd::Program && !d.staged && !d.suspended &&
                       (!d.array_op || d.array_op->cmd == FlashCmd::Program) && !(budget_waiting_ & bit);
  const bool want = d.read_out || (program && head->ready_ps <= horizon);
  bus_want_ = want ? bus_want_ | bit : bus_want_ & ~bit;
  if (program && head->ready_ps > horizon && head->ready_ps < ready_min_) ready_min_ = head->ready_ps;
}

void ChannelController::grant(uint32_t k, uint64_t now) {
  DieState& d = dies_[k];
  bus_want_ &= ~(uint64_t(1) << k);
  bus_die_ = k;
  rr_ = k + 1;
  const uint64_t at = std::max(now, bus_free_at_);  // the bus is a timeline reserved first come, first served
  if (d.read_out) {  // data-out: the read is done when it ends
    FlashOp* op = d.read_out;
    // The reads that joined its tR follow on the bus, one data-out each.
    d.read_out = d.joined_out < d.joined_n ? d.joined[d.joined_out++] : nullptr;
    if (!d.read_out) d.joined_n = d.joined_out = 0;
    bus_free_at_ = transfer_end(*op, at);
    if (wave_) trace_bus(k, *op, at, bus_free_at_);
    d.free_at = bus_free_at_;
    // Its next array op can be scheduled for free_at, a joined read wants the bus: update() decides. A die with
    // none of these (nothing queued, staged, suspended or sensed) has nothing to decide: no update.
    if (d.read_out || d.queue.front() || d.staged || d.suspended) kick_ |= uint64_t(1) << k;
    complete(op, bus_free_at_);
    return;
  }
  // A program onto an idle array starts its array work with its data-in: it needs the power budget now.
  if (!d.array_op && !admit(k, *d.queue.front(), std::max(at, d.queue.front()->ready_ps))) return;
  FlashOp* op = d.queue.pop();
  const uint64_t start = std::max(at, op->ready_ps);
  bus_free_at_ = transfer_end(*op, start);
  const uint64_t t = bus_free_at_ - start;
  if (wave_) trace_bus(k, *op, start, bus_free_at_);
  if (!d.array_op) {
    count_planes(timing_.plane_mask(*op));
    const uint64_t a = timing_.array_ps(*op);
    start_array(k, op, start, t + a, a);  // data-in then tPROG, as one piece
  } else {
    d.staged = op;  // cache program: in the cache register at bus_free_at_, programmed when the array frees
    d.staged_at = bus_free_at_;
  }
  kick_ |= uint64_t(1) << k;
}

void ChannelController::advance(uint64_t now) {
  // Array operations end (none before next_done_). Finishing one starts nothing here (a request it brings in
  // is queued: step() is not re-entered), so the ends left give the new least.
  const uint32_t n = uint32_t(dies_.size());
  if (next_done_ <= now) {
    uint64_t next = kNever;
    for (uint32_t k = 0; k < n; ++k) {
      if (array_done_[k] <= now) {
        finish_array(k);
        kick_ |= uint64_t(1) << k;
      } else if (array_done_[k] < next) {
        next = array_done_[k];
      }
    }
    next_done_ = next;
  }
  // Head ops whose firmware time has come (beyond the lookahead).
  if (ready_min_ <= now + kLookaheadPs) {
    ready_min_ = kNever;
    kick_ |= n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  }
  while (kick_ || bus_want_) {
    for (uint64_t m = kick_; m; m &= m - 1) update(uint32_t(__builtin_ctzll(m)), now);
    kick_ = 0;
    // Dies that want the bus take the next slots of its timeline, round-robin among those asking at once.
    if (bus_want_) {
      uint64_t later = rr_ < 64 ? bus_want_ & (~uint64_t(0) << rr_) : 0;
      grant(uint32_t(__builtin_ctzll(later ? later : bus_want_)), now);
    }
  }
}

void ChannelController::on_wake() {
  ++kernel_activations();
  step();
}

void ChannelController::step() {
  if (in_step_) {
    again_ = true;
    return;
  }
  in_step_ = true;
  const uint64_t now = now_ps();
  do {
    again_ = false;
    advance(now);
  } while (again_ || kick_);
  uint64_t next = next_done_;
  if (ready_min_ != kNever && ready_min_ - kLookaheadPs < next) next = std::max(now + 1, ready_min_ - kLookaheadPs);
  // An earlier pending wake already covers a later time (the step then reschedules); only move it forward.
  if (next != kNever && (next < scheduled_ || scheduled_ <= now)) {
    wake_.notify(ps_time(next - now));
    scheduled_ = next;
  }
  in_step_ = false;
  if (budget_) budget_->notify();  // power this step gave back (and did not take again) goes to waiting dies
}

}  // namespace ssdtlm
