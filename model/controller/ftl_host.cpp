// The FTL's host path (ftl_parts.h): reads from the buffer or flash, writes into the buffer (after any
// read-modify-write of partial units), trims, and the admission of writes waiting for buffer room or held
// by the scheduling policy.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

uint64_t HostPath::waiting_units() const {
  uint64_t n = 0;
  for (const NvmeCommand* c = wait_head_; c; c = c->next) n += c->units;
  return n;
}

void HostPath::start(NvmeCommand& cmd) {
  if (cmd.op == IoOp::Read) {
    if (f_.streams_.zns() && offline_read(cmd)) return;
    read(cmd);
  } else if (cmd.op == IoOp::Flush) {
    flush(cmd);
  } else if (cmd.op == IoOp::Trim) {
    // A zone management command goes behind zoned writes waiting for a stream slot (it may name their zone).
    if (slot_head_ && cmd.zone_action != ZoneAction::None && f_.streams_.zns()) return park(cmd);
    trim(cmd);
  } else {
    if (f_.streams_.zns()) {
      if (slot_head_) retry_slot_waits();
      // Behind writes that wait for a stream slot (their order is their zones' write order), or on its own.
      if (slot_head_ || zoned_check(cmd) == Zoned::Waits) return park(cmd);
      if (cmd.status) return;  // failed with its zoned status
    }
    start_write(cmd);
  }
}

// Zoned: at the write pointer, or fail with the zoned status (the command completes with it), or wait for a stream
// slot (ZnsNamespace::kWaitForSlot; a reset zone with nothing buffered gives its slot back at once).
HostPath::Zoned HostPath::zoned_check(NvmeCommand& cmd) {
  ZnsNamespace& z = *f_.streams_.zns();
  uint16_t slot = 0;
  auto admit = [&] {
    return cmd.partial ? uint16_t(kInvalidField) : z.admit_write(&cmd.lpn, cmd.units, cmd.append, &slot, f_.e_.state.blocks());
  };
  cmd.status = admit();
  if (cmd.status == ZnsNamespace::kWaitForSlot && z.drain(*f_.buffer_, f_.e_.state.blocks(), true)) cmd.status = admit();
  if (cmd.status == ZnsNamespace::kWaitForSlot) return Zoned::Waits;
  if (cmd.status) {
    ++f_.stats_.zns_failed_writes;
    f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
    return Zoned::Done;
  }
  cmd.result_lpn = cmd.lpn;
  cmd.stream = slot;
  return Zoned::Done;
}

void HostPath::park(NvmeCommand& cmd) {
  cmd.next = nullptr;
  (slot_tail_ ? slot_tail_->next : slot_head_) = &cmd;
  slot_tail_ = &cmd;
  if (cmd.op != IoOp::Trim) f_.streams_.zns()->waited();
  f_.flush_.pump();  // the draining zones' units are flushed first (FlushScheduler::pump)
}

void HostPath::retry_slot_waits() {
  if (retrying_) return;
  retrying_ = true;
  while (slot_head_ && (slot_head_->op == IoOp::Trim || zoned_check(*slot_head_) == Zoned::Done)) {
    NvmeCommand& cmd = *slot_head_;
    slot_head_ = cmd.next;
    if (!slot_head_) slot_tail_ = nullptr;
    if (cmd.op == IoOp::Trim) trim(cmd);
    else if (!cmd.status) start_write(cmd);
  }
  retrying_ = false;
}

void HostPath::start_write(NvmeCommand& cmd) {
  // A unit the write covers only in part needs its old contents: merged in DRAM when buffered, read from
  // flash first (read-modify-write) when not; a never-written unit is taken as zeros.
  cmd.pending = 1;
  for (int end = 0; end < 2; ++end) {
    if (!(cmd.partial & (1 << end)) || (end == 1 && cmd.units == 1 && (cmd.partial & 1))) continue;
    uint32_t lpn = cmd.lpn + (end ? cmd.units - 1 : 0), version;
    if (f_.buffer_->lookup(lpn, &version)) {
      ++f_.stats_.subpage_merged;
      continue;
    }
    uint32_t ppa = f_.e_.state.lookup(lpn);
    if (ppa == kInvalid) continue;
    ++f_.stats_.subpage_rmw;
    const UnitAddress a = f_.g_.decode(ppa);
    FlashOp& op = open_user_read(a, kRmwRead);
    op.slot_mask = 1u << a.slot;
    op.owner = &cmd;
    ++cmd.pending;
    f_.send(op, cmd.ready_ps);
  }
  if (--cmd.pending == 0) write(cmd);
}

void HostPath::on_rmw_read(FlashOp& op) {
  auto& cmd = *static_cast<NvmeCommand*>(op.owner);
  cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
  if (--cmd.pending == 0) write(cmd);
}

void HostPath::read(NvmeCommand& cmd) {
  const Geometry& g = f_.g_;
  IntegrityChecker* checker = f_.checker_;
  cmd.pending = 1;  // guard until every part is issued
  // The buffer's index is searched for every unit (buffer/buffer_cost.h), then the units' map entries come
  // from DRAM, one burst each, issued together.
  cmd.ready_ps = f_.buffer_work(uint64_t(cmd.units) * f_.buffer_->index_steps(), cmd.ready_ps);
  cmd.ready_ps = f_.dram.read(cmd.ready_ps, cmd.units * kDramBurstBytes);
  if (checker) cmd.expect.resize(cmd.units);
  FlashOp* cur = nullptr;
  bool gc_wait = false;
  for (uint32_t i = 0; i < cmd.units; ++i) {
    uint32_t lpn = cmd.lpn + i;
    uint32_t want = checker ? checker->expected(lpn) : 0;
    if (checker) cmd.expect[i] = want;
    uint32_t version;
    if (f_.buffer_->lookup(lpn, &version)) {
      ++f_.stats_.buffer_read_hits;
      if (checker) checker->check(lpn, want, lpn, version, now_ps());
      continue;
    }
    if (f_.read_ahead_ && read_ahead_hit(cmd, i)) continue;
    uint32_t ppa = f_.e_.state.lookup(lpn);
    if (ppa == kInvalid) {
      ++f_.stats_.unmapped_reads;
      if (checker) checker->check(lpn, want, kInvalid, 0, now_ps());
      continue;
    }
    const UnitAddress a = g.decode(ppa);
    if (!cur || cur->die != a.die || cur->block != a.block || cur->page != a.page) {
      if (cur) f_.send(*cur, cmd.ready_ps);
      gc_wait |= f_.e_.gc.busy(a.die);  // GC work queued on the die
      cur = &open_user_read(a, kHostRead);
      cur->owner = &cmd;
      ++cmd.pending;
    }
    cur->slot_mask |= 1u << a.slot;
    cur->aux[a.slot] = i;
  }
  if (cur) f_.send(*cur, cmd.ready_ps);
  if (f_.read_ahead_) read_ahead(cmd);
  if (cmd.path == ReadPath::Buffer && cur) cmd.path = gc_wait ? ReadPath::GcWait : ReadPath::Data;
  if (--cmd.pending == 0) finish_read(cmd);
}

namespace {
// NVMe status of a read the ECC could not correct (Media and Data Integrity Errors: Unrecovered Read Error).
constexpr uint16_t kUnrecoveredReadError = 0x281;
}  // namespace

void HostPath::finish_read(NvmeCommand& cmd) {
  --reads_outstanding_;
  // reliability.*: a read the ECC could not correct completes with Unrecovered Read Error (its data is not
  // delivered; the host counts it failed).
  if (cmd.uncorrectable) cmd.status = kUnrecoveredReadError;
  f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
  if (write_stop_) stop_or_resume_writes();
  if (reads_outstanding_ == 0) f_.host_idle_check();
}

bool HostPath::idle() const {
  return reads_outstanding_ == 0 && !wait_head_ && !slot_head_ && !f_.flush_.flushing() && barrier_waits_.empty();
}

// NVMe Flush (NVM Command Set 1.0, 3.2.1: "commit data and metadata associated with the specified namespace(s) to
// non-volatile media"): with a volatile write cache, once every unit buffered when it arrived is programmed (the
// flush scheduler flushes them all, partial pages padded, while it waits); without one (buffer.power_protected),
// at once: the capacitors make what is buffered non-volatile.
void HostPath::flush(NvmeCommand& cmd) {
  ++f_.stats_.flush_commands;
  if (!f_.p_.volatile_cache) return f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
  wait_barrier(cmd, cmd.ready_ps);
}

void HostPath::wait_barrier(NvmeCommand& cmd, uint64_t t) {
  barrier_waits_.push_back(BarrierWait{&cmd, f_.buffer_->add_barrier(), t});
  barriers_progress();
  if (!barrier_waits_.empty()) f_.flush_.pump();
}

void HostPath::barriers_progress() {
  WriteBuffer& b = *f_.buffer_;
  while (!barrier_waits_.empty()) {
    uint64_t id;
    if (b.barrier_left(&id) > 0) return;
    b.pop_barrier();
    const BarrierWait w = barrier_waits_.front();
    barrier_waits_.erase(barrier_waits_.begin());
    f_.complete(*w.cmd, std::max(w.ready_ps, now_ps()));
  }
}

void HostPath::on_read(FlashOp& op) {
  auto& cmd = *static_cast<NvmeCommand*>(op.owner);
  if (IntegrityChecker* checker = f_.checker_; checker && !op.uncorrectable)  // (an uncorrectable read is not delivered)
    for (uint32_t m = op.slot_mask; m; m &= m - 1) {
      uint32_t s = uint32_t(__builtin_ctz(m)), i = op.aux[s];
      checker->check(cmd.lpn + i, cmd.expect[i], op.lpn[s], op.version[s], op.done_ps);
    }
  cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
  cmd.retries = std::max(cmd.retries, op.retries);
  cmd.soft_tier = std::max(cmd.soft_tier, op.soft_tier);
  cmd.uncorrectable = cmd.uncorrectable || op.uncorrectable;
  if (--cmd.pending == 0) finish_read(cmd);
}

bool HostPath::hold(uint32_t units) {
  if (!f_.sched_->hold_writes(f_.buffer_->dirty(), units, f_.high_units())) return false;
  write_stop_ = true;  // this write triggers the next flush
  ++f_.stats_.write_stops;
  return true;
}

void HostPath::write(NvmeCommand& cmd) {
  if (!write_stop_) hold(cmd.units);
  if (!wait_head_ && !write_stop_ && f_.buffer_->free_units() >= cmd.units) {
    accept_write(cmd, cmd.ready_ps);
    return;
  }
  ++f_.stats_.write_stalls;
  cmd.next = nullptr;
  (wait_tail_ ? wait_tail_->next : wait_head_) = &cmd;
  wait_tail_ = &cmd;
  if (write_stop_) stop_or_resume_writes();
  else f_.flush_.pump();
}

void HostPath::stop_or_resume_writes() {
  // Flush once no read is left to serve; let the held writes in once the flush has landed.
  if (!write_stop_) return;
  if (!flush_phase_) {
    if (reads_outstanding_) return;
    flush_phase_ = true;
    f_.flush_.start_phase();
    f_.flush_.pump();
  }
  if (flush_phase_ && !f_.flush_.flushing() && f_.flush_.pending() == 0) {
    write_stop_ = flush_phase_ = false;
    admit_writes();
  }
}

void HostPath::trim(NvmeCommand& cmd) {
  // Zoned: a trim is a reset of whole zones and every zone action is a Zone Management Send; a zone's data is dropped
  // there, once its reset or offline succeeded (a read-only zone's reset or a trim that is not whole zones fails and
  // keeps it).
  if (f_.streams_.zns()) return zone_send(cmd);
  const uint32_t first = cmd.lpn + ((cmd.partial & 1) ? 1 : 0);
  const uint32_t last = cmd.lpn + cmd.units - ((cmd.partial & 2) ? 1 : 0);  // units fully covered: [first, last)
  if (last > first) {
    drop_units(cmd, first, last - first);
    f_.stats_.trimmed_units += last - first;
  }
  f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
}

void HostPath::drop_units(NvmeCommand& cmd, uint32_t first, uint64_t units) {
  cmd.ready_ps = f_.buffer_work(units * f_.buffer_->index_steps(), cmd.ready_ps);
  for (uint32_t lpn = first; lpn < first + units; ++lpn) {
    f_.buffer_->discard(lpn);
    f_.e_.state.trim(lpn);
    if (f_.read_ahead_) f_.read_ahead_->invalidate(lpn);
    if (f_.checker_) f_.checker_->trimmed(lpn);
    if (f_.lifetimes_) f_.lifetimes_->trim(lpn, now_ps());
  }
  if (f_.streams_.measures_time()) f_.streams_.set_time(now_ps() / 1000);
  f_.streams_.trim(first, uint32_t(units));
  // Dropped units need not reach flash (units leave a barrier only here and when their program lands: nothing
  // else settles one).
  if (!barrier_waits_.empty()) barriers_progress();
}

// Zone Management Send of the zone at the command's LBA (a plain trim of whole zones: their reset), each zone in
// turn, the first failure ending it with its status. zns.reset_erase=reset: a reset completes once the blocks its
// zones filled are erased (the zone reset job, placement/zone_reset_job.h); lazy: at once, GC erasing them when the dies need free blocks.
void HostPath::zone_send(NvmeCommand& cmd) {
  ZnsNamespace& z = *f_.streams_.zns();
  const uint64_t zu = z.layout().zones.zone_units;
  const bool trim = cmd.zone_action == ZoneAction::None;
  const ZoneAction a = trim ? ZoneAction::Reset : cmd.zone_action;
  const uint64_t first = cmd.lpn / zu, n = trim ? cmd.units / zu : 1;
  const bool whole = cmd.lpn % zu == 0 && !(trim && (cmd.partial || cmd.units % zu || n == 0));
  cmd.status = whole ? uint16_t(kZnsOk) : uint16_t(kInvalidField);
  std::vector<uint32_t> erase;
  const bool drops = a == ZoneAction::Reset || a == ZoneAction::Offline;  // the zone's blocks hold nothing after it
  for (uint64_t zone = first; !cmd.status && zone < first + n; ++zone) {
    cmd.status = z.manage(a, zone, f_.e_.state.blocks());
    if (cmd.status || !drops) continue;
    // A reset or offline zone's data is gone (ZNS: a reset zone reads as deallocated, an offline zone's logical
    // blocks are no longer readable): its units are dropped as a trim's. An offline zone's blocks go as a reset's
    // (the model retires no media for it).
    drop_units(cmd, uint32_t(zone * zu), zu);
    if (a == ZoneAction::Reset) f_.stats_.trimmed_units += zu;
    std::vector<uint32_t> b = z.take_blocks(zone);
    if (z.layout().erase_at_reset) erase.insert(erase.end(), b.begin(), b.end());
  }
  if (cmd.status) ++f_.stats_.zns_failed_writes;
  if (drops || a == ZoneAction::Finish) z.drain(*f_.buffer_, f_.e_.state.blocks(), false);
  if (!cmd.status && drops && z.layout().erase_at_reset) return f_.zone_erase_.reset(cmd, erase);
  f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
}

bool HostPath::offline_read(NvmeCommand& cmd) {
  // A read of an offline zone's blocks fails with Zone Is Offline (ZNS Command Set 1.1: the zone's blocks cannot be
  // read), the whole command, before any flash is touched.
  const ZoneManager& zm = f_.streams_.zns()->zones();
  const uint64_t last = std::min<uint64_t>(cmd.lpn + std::max(cmd.units, 1u) - 1,
                                           zm.config().zones * zm.config().zone_units - 1);
  for (uint64_t zone = zm.zone_of(cmd.lpn); zone <= zm.zone_of(last); ++zone) {
    if (zm.state(zone) != ZoneState::Offline) continue;
    cmd.status = kZoneIsOffline;
    f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
    return true;
  }
  return false;
}

void HostPath::accept_write(NvmeCommand& cmd, uint64_t t) {
  // The stream policy sees the command once, in arrival order; each unit keeps its stream in the buffer.
  if (unit_stream_.size() < cmd.units) unit_stream_.resize(cmd.units);
  if (f_.streams_.measures_time()) f_.streams_.set_time(now_ps() / 1000);
  f_.streams_.assign(cmd.lpn, cmd.units, WriteTag{cmd.stream, cmd.pc, cmd.proc, cmd.proc_slot, cmd.run, cmd.dtype, cmd.dspec},
                     unit_stream_.data());
  uint64_t steps = 0;
  for (uint32_t i = 0; i < cmd.units; ++i) {
    uint32_t lpn = cmd.lpn + i;
    uint32_t version = f_.checker_ ? f_.checker_->next_version(lpn) : 0;
    // Firmware steps (buffer_cost.h): the index lookup, then for a new unit its index and order inserts.
    steps += f_.buffer_->index_steps();
    if (f_.buffer_->write(lpn, version, t, unit_stream_[i])) ++f_.stats_.buffer_absorbed;
    else steps += f_.buffer_->index_steps() + f_.buffer_->order_steps();
    if (!f_.lpn_writes_.empty()) ++f_.lpn_writes_[lpn];
    if (f_.lifetimes_) f_.lifetimes_->write(lpn, unit_stream_[i], now_ps());
    if (f_.read_ahead_) f_.read_ahead_->invalidate(lpn);  // the copy fetched ahead is stale
  }
  f_.stats_.host_units_written += cmd.units;
  t = f_.buffer_work(steps, t);
  if (ZnsNamespace* z = f_.streams_.zns()) z->accepted(cmd.stream);
  if (cmd.fua) ++f_.stats_.fua_writes;
  // Force Unit Access with a volatile cache: the write completes once it is on flash. The buffer programs in
  // arrival order (fifo), so it waits for the units buffered before it too: a barrier over the buffer.
  if (cmd.fua && f_.p_.volatile_cache) return wait_barrier(cmd, t);
  f_.complete(cmd, std::max(t, now_ps()));
  f_.flush_.pump();
}

void HostPath::admit_writes() {
  while (wait_head_ && !write_stop_ && f_.buffer_->free_units() >= wait_head_->units) {
    NvmeCommand* cmd = wait_head_;
    if (hold(cmd->units)) {
      stop_or_resume_writes();
      return;
    }
    wait_head_ = cmd->next;
    if (!wait_head_) wait_tail_ = nullptr;
    accept_write(*cmd, cmd->ready_ps);
  }
}

}  // namespace ssdtlm
