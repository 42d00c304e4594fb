#include "controller/ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "sim/wave_signals.h"

namespace ssdtlm {

Ftl::Ftl(sc_core::sc_module_name name, const FtlParams& p, PageFtl& ftl, std::unique_ptr<WriteBuffer> buffer,
         IntegrityChecker* checker)
    : sc_module(name),
      dram("dram_isock"),
      p_(p),
      ftl_(ftl),
      g_(ftl.geometry()),
      streams_(ftl.streams()),
      lifetimes_(ftl.streams().lifetimes()),
      buffer_(std::move(buffer)),
      checker_(checker),
      core_free_(p.cores, 0),
      flush_inflight_(g_.dies, 0),
      gc_(g_.dies),
      flushable_((g_.dies + 63) / 64, 0),
      cache_(ftl.map_cache()),
      ts_(ftl.translation()) {
  if (ts_) loading_.assign(ts_->segments(), nullptr);
  for (GcJob& j : gc_) j.stage.resize(ftl.blocks().layout().gc);
  die_streams_.assign(g_.dies, 0);
  stream_dies_.assign(streams_.user_streams(), 0);
  for (uint32_t ch = 0; ch < g_.channels; ++ch) {
    flash_isock.emplace_back(
        std::make_unique<tlm_utils::simple_initiator_socket_tagged<Ftl>>(("flash_isock_" + std::to_string(ch)).c_str()));
    flash_isock.back()->register_nb_transport_bw(this, &Ftl::nb_transport_bw, int(ch));
  }
  if (p_.count_lpn_writes) lpn_writes_.assign(g_.logical_units, 0);
  for (uint32_t d = 0; d < g_.dies; ++d) refresh(d);
}

Ftl::~Ftl() = default;

void Ftl::trace(WaveTracer& w) {
  auto t = std::make_unique<FtlWave>(g_.dies, g_.blocks_per_die);
  t->w = &w;
  const BlockManager& b = ftl_.blocks();
  uint64_t min = g_.blocks_per_die;
  for (uint32_t d = 0; d < g_.dies; ++d) min = std::min<uint64_t>(min, b.free_blocks(d));
  const uint64_t all = uint64_t(g_.blocks_per_die) * g_.dies;
  auto add = [&](WaveValue& v, const std::string& path, uint64_t max, uint64_t initial, const char* help) {
    v.signal = w.add(path, wave_bits(max), WaveStyle::Counter, initial, -1, help);
    v.last = initial;
  };
  add(t->buffer, "ftl.buffer_units", buffer_->capacity(), buffer_->occupied(),
      "4 KiB units held in the DRAM write buffer");
  add(t->free_min, "ftl.free_blocks_min", g_.blocks_per_die, min, "free blocks of the die with the fewest");
  add(t->free_total, "ftl.free_blocks", all, b.total_free_blocks(), "free blocks, all dies");
  add(t->gc_active, "ftl.gc_active_dies", g_.dies, gc_active_, "dies collecting garbage");
  WaveGroup group;
  group.name = "ftl";
  group.rows = {{t->buffer.signal, 3}, {t->free_min.signal, 2}, {t->gc_active.signal, 2}};
  t->map = ts_ != nullptr;  // the map reaches flash: its DRAM cache holds dirty segments
  if (t->map) {
    add(t->map_dirty, "ftl.map_dirty_segments", cache_.params().segments(), cache_.dirty_segments(),
        "map segments (translation pages) dirty in the DRAM map cache");
    group.rows.push_back({t->map_dirty.signal, 2});
  }
  WaveGroup dies;
  dies.name = "free blocks per die";
  dies.closed = true;
  dies.rows.push_back({t->free_total.signal, 2});
  for (uint32_t ch = 0; ch < g_.channels; ++ch)
    for (uint32_t k = 0; k < g_.dies_per_channel; ++k) {  // die k of channel ch is die k * channels + ch
      const uint32_t d = k * g_.channels + ch;
      const std::string name = "ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".free_blocks";
      add(t->die_free[d], name, g_.blocks_per_die, b.free_blocks(d), "free blocks of the die");
      t->min.set(d, b.free_blocks(d));
      dies.rows.push_back({t->die_free[d].signal, 1});
    }
  group.groups.push_back(std::move(dies));
  w.layout().groups.push_back(std::move(group));
  wave_ = std::move(t);
}

void Ftl::trace_sample() {
  FtlWave& t = *wave_;
  WaveTracer& w = *t.w;
  const uint64_t now = now_ps();
  if (!t.dirty.empty()) {
    const BlockManager& b = ftl_.blocks();
    for (uint32_t d : t.dirty) {
      t.touched[d] = 0;
      const uint64_t f = b.free_blocks(d);
      t.die_free[d].set(w, now, f);
      t.min.set(d, f);
    }
    t.dirty.clear();
    t.free_min.set(w, now, t.min.min());
    t.free_total.set(w, now, b.total_free_blocks());
  }
  t.buffer.set(w, now, buffer_->occupied());
  t.gc_active.set(w, now, gc_active_);
  if (t.map) t.map_dirty.set(w, now, cache_.dirty_segments());
}

uint64_t Ftl::cpu(uint64_t cost_ps) {
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  uint64_t start = std::max(*core, now_ps());
  *core = start + cost_ps;
  return *core;
}

FlashOp& Ftl::new_op(FlashCmd cmd, uint32_t die, Tag tag) {
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
  if (wave_ && op.cmd != FlashCmd::Read) wave_->touch(op.die);  // may have opened a block
  tlm::tlm_phase phase = tlm::BEGIN_REQ;
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  (*flash_isock[g_.channel_of_die(op.die)])->nb_transport_fw(*op.payload, phase, delay);
}

// ---------------------------------------------------------------- host commands

void Ftl::submit(NvmeCommand& cmd, uint64_t arrival_ps) {
  // The host's look-ahead hint (no effect on behaviour): start loading what the next command reads at once
  // on arrival, a write its LPN's write count (stream assignment), a read its map entry, so that the cache
  // miss overlaps this command.
  if (cmd.next_lpn != NvmeCommand::kNoNextLpn) {
    if (cmd.next_op == IoOp::Write) streams_.prefetch(cmd.next_lpn);
    else if (cmd.next_op == IoOp::Read) ftl_.prefetch_map(cmd.next_lpn);
  }
  auto core = std::min_element(core_free_.begin(), core_free_.end());
  *core = std::max(*core, arrival_ps) + p_.cmd_ps;
  uint64_t t = *core;
  cmd.ready_ps = t;
  if (cmd.op == IoOp::Read) ++reads_outstanding_;
  if (!started_) {  // the first command: the dies as preconditioning left them
    started_ = true;
    for (uint32_t d = 0; d < g_.dies; ++d) refresh(d);
  }
  if (!map_phase(cmd)) continue_cmd(cmd);
  if (wave_) trace_sample();
}

void Ftl::continue_cmd(NvmeCommand& cmd) {
  if (cmd.op == IoOp::Read) {
    read(cmd, cmd.ready_ps);
  } else if (cmd.op == IoOp::Trim) {
    trim(cmd, cmd.ready_ps);
  } else {
    // A unit the write covers only in part needs its old contents: merged in DRAM when buffered, read from
    // flash first (read-modify-write) when not; a never-written unit is taken as zeros.
    cmd.pending = 1;
    for (int end = 0; end < 2; ++end) {
      if (!(cmd.partial & (1 << end)) || (end == 1 && cmd.units == 1 && (cmd.partial & 1))) continue;
      uint32_t lpn = cmd.lpn + (end ? cmd.units - 1 : 0), version;
      if (buffer_->lookup(lpn, &version)) {
        ++stats_.subpage_merged;
        continue;
      }
      uint32_t ppa = ftl_.lookup(lpn);
      if (ppa == kInvalid) continue;
      ++stats_.subpage_rmw;
      FlashOp& op = new_op(FlashCmd::Read, g_.die_of(ppa), kRmwRead);
      op.block = g_.block_of(ppa);
      op.page = g_.page_of(ppa);
      op.slot_mask = 1u << g_.slot_of(ppa);
      op.owner = &cmd;
      ++cmd.pending;
      ++ftl_.counters().reads[uint32_t(ReadKind::User)];
      send(op, cmd.ready_ps);
    }
    if (--cmd.pending == 0) write(cmd);
  }
}

void Ftl::read(NvmeCommand& cmd, uint64_t t) {
  cmd.pending = 1;  // guard until every part is issued
  // The units' map entries come from DRAM, one burst each, issued together.
  cmd.ready_ps = dram.read(cmd.ready_ps, cmd.units * kDramBurstBytes);
  if (checker_) cmd.expect.resize(cmd.units);
  FlashOp* cur = nullptr;
  bool gc_wait = false;
  for (uint32_t i = 0; i < cmd.units; ++i) {
    uint32_t lpn = cmd.lpn + i;
    uint32_t want = checker_ ? checker_->expected(lpn) : 0;
    if (checker_) cmd.expect[i] = want;
    uint32_t version;
    if (buffer_->lookup(lpn, &version)) {
      ++stats_.buffer_read_hits;
      if (checker_) checker_->check(lpn, want, lpn, version, now_ps());
      continue;
    }
    uint32_t ppa = ftl_.lookup(lpn);
    if (ppa == kInvalid) {
      ++stats_.unmapped_reads;
      if (checker_) checker_->check(lpn, want, kInvalid, 0, now_ps());
      continue;
    }
    uint32_t die = g_.die_of(ppa), block = g_.block_of(ppa), page = g_.page_of(ppa), slot = g_.slot_of(ppa);
    if (!cur || cur->die != die || cur->block != block || cur->page != page) {
      if (cur) send(*cur, cmd.ready_ps);
      gc_wait |= gc_[die].reads + gc_[die].programs + gc_[die].erases > 0;  // GC work queued on the die
      cur = &new_op(FlashCmd::Read, die, kHostRead);
      cur->block = block;
      cur->page = page;
      cur->read_kind = ReadKind::User;
      cur->owner = &cmd;
      ++cmd.pending;
      ++ftl_.counters().reads[uint32_t(ReadKind::User)];
    }
    cur->slot_mask |= 1u << slot;
    cur->aux[slot] = i;
  }
  if (cur) send(*cur, cmd.ready_ps);
  if (cmd.path == ReadPath::Buffer && cur) cmd.path = gc_wait ? ReadPath::GcWait : ReadPath::Data;
  if (--cmd.pending == 0) finish_read(cmd);
}

void Ftl::finish_read(NvmeCommand& cmd) {
  --reads_outstanding_;
  frontend_->complete(cmd, std::max(cmd.ready_ps, now_ps()));
  if (write_stop_) stop_or_resume_writes();
}

void Ftl::on_host_read(FlashOp& op) {
  auto& cmd = *static_cast<NvmeCommand*>(op.owner);
  if (checker_)
    for (uint32_t m = op.slot_mask; m; m &= m - 1) {
      uint32_t s = uint32_t(__builtin_ctz(m)), i = op.aux[s];
      checker_->check(cmd.lpn + i, cmd.expect[i], op.lpn[s], op.version[s], op.done_ps);
    }
  cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
  if (--cmd.pending == 0) finish_read(cmd);
}

void Ftl::write(NvmeCommand& cmd) {
  if (p_.read_priority && !write_stop_) {
    // Write-stop (seed 001 III-B): the write that would make the buffer flush waits, with every write
    // after it, until queued reads are served and the flush is over.
    const uint32_t high = std::max<uint32_t>(g_.units_per_page, uint32_t(buffer_->capacity() * p_.high_watermark));
    if (buffer_->dirty() > 0 && buffer_->dirty() + cmd.units >= high) {  // nothing to flush: no stop
      write_stop_ = true;
      ++stats_.write_stops;
    }
  }
  if (!wait_head_ && !write_stop_ && buffer_->free_units() >= cmd.units) {
    accept_write(cmd, cmd.ready_ps);
    return;
  }
  ++stats_.write_stalls;
  cmd.next = nullptr;
  (wait_tail_ ? wait_tail_->next : wait_head_) = &cmd;
  wait_tail_ = &cmd;
  if (write_stop_) stop_or_resume_writes();
  else pump();
}

void Ftl::stop_or_resume_writes() {
  // Flush once no read is left to serve; let the held writes in once the flush has landed.
  if (!write_stop_) return;
  if (!flush_phase_) {
    if (reads_outstanding_) return;
    flush_phase_ = flushing_ = true;
    pump();
  }
  if (flush_phase_ && !flushing_ && flushes_pending_ == 0) {
    write_stop_ = flush_phase_ = false;
    admit_writes();
  }
}

void Ftl::trim(NvmeCommand& cmd, uint64_t t) {
  const uint32_t first = cmd.lpn + ((cmd.partial & 1) ? 1 : 0);
  const uint32_t last = cmd.lpn + cmd.units - ((cmd.partial & 2) ? 1 : 0);  // units fully covered: [first, last)
  for (uint32_t lpn = first; lpn < last; ++lpn) {
    buffer_->discard(lpn);
    ftl_.unmap(lpn);
    if (checker_) checker_->trimmed(lpn);
    if (lifetimes_) lifetimes_->trim(lpn, now_ps());
    ++stats_.trimmed_units;
  }
  if (last > first) streams_.trim(first, last - first);
  frontend_->complete(cmd, std::max(t, now_ps()));
}

void Ftl::accept_write(NvmeCommand& cmd, uint64_t t) {
  // The stream policy sees the command once, in arrival order; each unit keeps its stream in the buffer.
  if (unit_stream_.size() < cmd.units) unit_stream_.resize(cmd.units);
  streams_.assign(cmd.lpn, cmd.units, WriteTag{cmd.stream, cmd.pc, cmd.proc, cmd.proc_slot, cmd.run}, unit_stream_.data());
  for (uint32_t i = 0; i < cmd.units; ++i) {
    uint32_t lpn = cmd.lpn + i;
    uint32_t version = checker_ ? checker_->next_version(lpn) : 0;
    if (buffer_->write(lpn, version, t, unit_stream_[i])) ++stats_.buffer_absorbed;
    if (!lpn_writes_.empty()) ++lpn_writes_[lpn];
    if (lifetimes_) lifetimes_->write(lpn, unit_stream_[i], now_ps());
  }
  stats_.host_units_written += cmd.units;
  frontend_->complete(cmd, std::max(t, now_ps()));
  pump();
}

void Ftl::admit_writes() {
  while (wait_head_ && !write_stop_ && buffer_->free_units() >= wait_head_->units) {
    NvmeCommand* cmd = wait_head_;
    if (p_.read_priority &&
        buffer_->dirty() > 0 &&
        buffer_->dirty() + cmd->units >= std::max<uint32_t>(g_.units_per_page, uint32_t(buffer_->capacity() * p_.high_watermark))) {
      write_stop_ = true;  // this write triggers the next flush
      ++stats_.write_stops;
      stop_or_resume_writes();
      return;
    }
    wait_head_ = cmd->next;
    if (!wait_head_) wait_tail_ = nullptr;
    accept_write(*cmd, cmd->ready_ps);
  }
}

// ---------------------------------------------------------------- buffer flushing

void Ftl::pump() {
  const uint32_t cap = buffer_->capacity();
  const uint32_t high = std::max<uint32_t>(g_.units_per_page, uint32_t(cap * p_.high_watermark));
  const uint32_t low = uint32_t(cap * p_.low_watermark);
  if (!p_.read_priority && (buffer_->dirty() >= high || wait_head_)) flushing_ = true;  // read_priority: on write-stop
  while (flushing_) {
    // read_priority flushes below the low watermark if the write that stopped the others would not fit
    // under the high one yet (a write of more than the gap between them).
    const bool head_blocked = p_.read_priority && wait_head_ && buffer_->dirty() + wait_head_->units >= high;
    // Forced: a write waits and no flush in flight will free room, so a partial page is better than none.
    const bool forced = wait_head_ && flushes_pending_ == 0;
    const uint32_t stream = buffer_->dirty() <= low && (!wait_head_ || p_.read_priority) && !head_blocked
                                ? kInvalid
                                : buffer_->flush_stream(now_ps(), g_.units_per_page, p_.max_age_ps, forced);
    if (stream == kInvalid) {
      flushing_ = false;
      if (write_stop_) stop_or_resume_writes();
      break;
    }
    // The stream: the buffer's choice among the streams some die may take now; the die: the next one round
    // robin that may take it (a die short of free blocks takes only streams whose open block has room).
    const uint32_t s = streams_.user_streams() == 1
                           ? stream
                           : buffer_->flush_stream(now_ps(), g_.units_per_page, p_.max_age_ps, forced, takeable_);
    const uint32_t die = s == kInvalid ? kInvalid : pick_flush_die(s);
    if (die == kInvalid) break;
    flush_page(die, s);
  }
}

uint64_t Ftl::user_streams_of(uint32_t d) const {
  const BlockManager& b = ftl_.blocks();
  const uint32_t n = streams_.user_streams();
  if (b.free_blocks(d) > b.gc_reserve()) return n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  // GC into the user frontiers: a die collecting a victim may need every page left in its frontiers (in
  // superblock mode its block of the line is free again only once every die has erased theirs), so with no
  // block to spare its host writes wait for GC.
  if (b.layout().gc_in_user && gc_[d].active) return 0;
  uint64_t mask = 0;
  for (uint32_t s = 0; s < n; ++s) mask |= uint64_t(!b.frontier_full(d, b.layout().user_frontier(s))) << s;
  return mask;
}

void Ftl::refresh(uint32_t d) {
  // A die takes a flush while it has queue room, can open a user block without taking the blocks its GC
  // frontiers need (or has user frontiers with room: then of those streams only), and (while it collects)
  // has GC credit. die_streams_[d] holds the user streams it may take; takeable_ the streams some die may.
  const bool ready = flush_inflight_[d] < p_.die_queue_depth && !(gc_[d].active && gc_[d].credit < 1.0);
  const uint64_t now = ready ? user_streams_of(d) : 0, before = die_streams_[d];
  const bool ok = now != 0;
  if (now != before) {
    die_streams_[d] = now;
    for (uint64_t x = now ^ before; x; x &= x - 1) {
      const uint32_t s = uint32_t(__builtin_ctzll(x));
      const uint32_t n = now >> s & 1 ? stream_dies_[s]++ : --stream_dies_[s];
      if (n == 0) takeable_ ^= uint64_t(1) << s;  // the first die to take it, or the last to stop
    }
  }
  const uint64_t bit = uint64_t(1) << (d & 63);
  const bool was = flushable_[d >> 6] & bit;
  flushable_[d >> 6] = ok ? flushable_[d >> 6] | bit : flushable_[d >> 6] & ~bit;
  if (ok && !was && wb_head_) retry_map_writes();  // map write-backs waiting for a ready die
}

uint32_t Ftl::pick_flush_die(uint32_t stream) {
  // The next flushable die at or after the cursor that may take the stream (dies are numbered
  // channel-first, so consecutive flushes go to different channels first).
  const uint32_t words = uint32_t(flushable_.size());
  for (uint32_t i = 0; i <= words; ++i) {
    uint32_t w = ((flush_cursor_ >> 6) + i) % words;
    uint64_t bits = flushable_[w];
    if (i == 0) bits &= ~uint64_t(0) << (flush_cursor_ & 63);
    if (i == words) bits &= (flush_cursor_ & 63) ? ~(~uint64_t(0) << (flush_cursor_ & 63)) : 0;
    for (; bits; bits &= bits - 1) {
      uint32_t d = w * 64 + uint32_t(__builtin_ctzll(bits));
      if (!(die_streams_[d] >> stream & 1)) continue;
      flush_cursor_ = d + 1 == g_.dies ? 0 : d + 1;
      return d;
    }
  }
  return kInvalid;
}

void Ftl::flush_page(uint32_t die, uint32_t stream) {
  uint32_t ppa = ftl_.blocks().allocate_page(die, ftl_.blocks().layout().user_frontier(stream));
  FlashOp& op = new_op(FlashCmd::Program, die, kFlush);
  op.block = g_.block_of(ppa);
  op.page = g_.page_of(ppa);
  op.kind = UnitKind::UD;
  op.stream = uint8_t(stream);
  // The page's units first, then their map updates: the map entries are fetched from memory together.
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    uint32_t slot = buffer_->take(stream, &op.lpn[s], &op.version[s], now_ps());
    op.aux[s] = slot;
    if (slot == kInvalid) {
      op.lpn[s] = kInvalid;
      ++streams_.stats().user_padding;
    } else {
      ftl_.prefetch_map(op.lpn[s]);
    }
  }
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    if (op.lpn[s] == kInvalid) continue;
    ftl_.map(op.lpn[s], ppa + s);
    ++stats_.flushed_units;
  }
  ++flushes_pending_;
  ++ftl_.counters().programs[uint32_t(UnitKind::UD)];
  ++flush_inflight_[die];
  if (gc_[die].active) gc_[die].credit -= 1.0;
  // The page's map entries are read and written back in DRAM, a burst each way per unit: DRAM bandwidth,
  // beside the program (which does not wait for them), charged a quantum at a time (one access per 4 KiB).
  map_update_bytes_ += 2 * g_.units_per_page * kDramBurstBytes;
  if (map_update_bytes_ >= kMapUpdateQuantum) {
    dram.write(now_ps(), map_update_bytes_);
    map_update_bytes_ = 0;
  }
  send(op);
  // The map updates go through the cache; the buffer slots stay until their flash work is done too. (After
  // the send: issuing map work lets the channels complete operations, which may flush the die's next page.
  // The program itself cannot complete before its tPROG, so its wait count is complete by then.)
  map_updates(op.lpn, g_.units_per_page, Waiter{Waiter::Flush, &op, die}, &op.waits);
  gc_kick(die);
  refresh(die);
}

bool Ftl::on_flush(FlashOp& op) {
  ftl_.blocks().page_done(op.die * g_.blocks_per_die + op.block);
  --flush_inflight_[op.die];
  gc_kick(op.die);  // the page may have closed a block GC was waiting for
  refresh(op.die);
  if (op.waits) return false;  // its map updates are still waiting for flash work: keep the op
  release_flush(op);
  return true;
}

void Ftl::release_flush(FlashOp& op) {
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (op.aux[s] != kInvalid) buffer_->release(op.aux[s]);
  --flushes_pending_;
  admit_writes();
  pump();
  if (write_stop_) stop_or_resume_writes();
}

// ---------------------------------------------------------------- completions from the channels

tlm::tlm_sync_enum Ftl::nb_transport_bw(int, tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                        sc_core::sc_time&) {
  if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
  FlashOp& op = PayloadPool<FlashOp>::ext(gp);
  if (wave_ && op.cmd == FlashCmd::Erase) wave_->touch(op.die);  // a block freed
  bool release = true;
  switch (Tag(op.tag)) {
    case kHostRead: on_host_read(op); break;
    case kRmwRead: {
      auto& cmd = *static_cast<NvmeCommand*>(op.owner);
      cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
      if (--cmd.pending == 0) write(cmd);
    } break;
    case kFlush: release = on_flush(op); break;
    case kGcRead: on_gc_read(op); break;
    case kGcProgram: on_gc_program(op); break;
    case kGcErase: on_gc_erase(op); break;
    case kMapLoad:
    case kMapMerge:
    case kMapWrite: on_map_op(op); break;
    case kGcMapRead: on_gc_map_read(op); break;
    case kGcMapProgram: on_gc_map_program(op); break;
  }
  if (release) gp.release();
  if (wave_) trace_sample();
  phase = tlm::END_RESP;
  return tlm::TLM_COMPLETED;
}

}  // namespace ssdtlm
