// The FTL's flush scheduler (ftl_parts.h): when the buffer flushes (watermarks, waiting writes, the
// scheduling policy), which stream the next page takes (the buffer's flush policy, among the streams some die
// may take) and which die (round robin, channel-first), and which dies may take a page now; and the timed executor
// of the host page job (host_page_job.h), which sequences each page.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

FlushScheduler::FlushScheduler(Ftl& f)
    : f_(f),
      job_(f.e_, *this),
      inflight_(f.g_.dies, 0),
      flushable_((f.g_.dies + 63) / 64, 0),
      die_streams_(f.g_.dies, 0),
      stream_dies_(f.streams_.user_streams(), 0),
      die_mask_(f.g_.dies, ~uint64_t(0)),
      lines_hold_(f.e_.victims.pacing().lines_hold_host()),
      one_die_(f.streams_.zns() || f.e_.state.blocks().write_pointer().one_die()),
      group_units_(f.e_.state.blocks().unit().shared_by_group()),
      units_span_dies_(f.e_.state.blocks().pool().spans_dies()) {
  // FDP with several reclaim groups: a die takes only its RG's streams.
  const StreamParams& sp = f.streams_.params();
  // (ZNS: a zone's pages go to its die group's dies, ZnsNamespace::stripe_die, whatever its stream slot.)
  confined_ = sp.fdp_rgs > 1 || (sp.zns && sp.zns_layout.groups > 1);
  if (sp.fdp_rgs > 1)
    for (uint32_t d = 0; d < f.g_.dies; ++d) {
      die_mask_[d] = 0;
      for (uint32_t s = 0; s < sp.user_streams(); ++s) die_mask_[d] |= uint64_t(sp.allowed_on(s, d, f.g_.dies)) << s;
    }
}

std::string FlushScheduler::describe() const {
  std::string s;
  const BlockManager& b = f_.e_.state.blocks();
  for (uint32_t d = 0; d < f_.g_.dies; ++d)
    s += " die " + std::to_string(d) + ": streams 0x" + std::to_string(die_streams_[d]) + " inflight " +
         std::to_string(inflight_[d]) + " free " + std::to_string(b.free_blocks(d)) + ";";
  if (b.write_pointer().one_die())
    for (uint32_t st = 0; st < f_.streams_.user_streams(); ++st) {
      const uint32_t d = b.write_pointer().next_die(b.layout().user_frontier(st), f_.streams_.params().rg_of(st));
      s += " stream " + std::to_string(st) + " -> die " + std::to_string(d) + (b.frontier_full(d, st) ? " (full)" : "");
    }
  return s;
}

void FlushScheduler::refresh_all() {
  for (uint32_t d = 0; d < f_.g_.dies; ++d) refresh(d);
}

void FlushScheduler::refresh_group(uint32_t die) {
  uint32_t first, last;
  f_.e_.state.blocks().pool().unit_dies(die, &first, &last);
  for (uint32_t d = first; d < last; ++d) refresh(d);
}

void FlushScheduler::pump() {
  woken_ = false;
  WriteBuffer& buffer = *f_.buffer_;
  const uint32_t upp = f_.g_.units_per_page;
  const uint32_t high = f_.high_units(), low = f_.low_units();
  const SchedPolicy& sched = *f_.sched_;
  const HostPath& host = f_.host_;
  if (sched.flush_at_watermark() && (buffer.dirty() >= high || host.waiting())) flushing_ = true;
  // An NVMe Flush (or a FUA write) waits for the buffered data: every dirty unit goes, partial pages padded.
  const bool drain = host.flush_waiting();
  if (drain) flushing_ = true;
  // Zoned writes waiting for a stream slot, or zone resets waiting for their blocks to close: the units of the zones
  // that are full or reset (holding slots and open blocks until they leave the buffer) are flushed first, partial
  // pages too, whatever the watermarks. (Units of a reset zone reach the buffer after its reset when their writes
  // were admitted before it: a host that writes a zone again without waiting for its reset.)
  if (host.slot_waiting() || f_.zone_erase_.waiting()) {
    const ZnsNamespace& z = *f_.streams_.zns();
    for (uint64_t draining; (draining = z.draining_streams() & takeable_) != 0;) {
      uint32_t die;
      const uint32_t s = choose(draining, true, &die);
      if (s == kInvalid) break;
      flush_page(die, s);
    }
  }
  while (flushing_) {
    const uint32_t head_units = host.waiting() ? host.waiting()->units : 0;
    // Forced: a write waits and no flush in flight will free room, so a partial page is better than none.
    const bool forced = (host.waiting() && flushes_pending_ == 0) || drain;
    const uint32_t stream = buffer.dirty() <= low && !drain && !sched.flush_below_low(buffer.dirty(), head_units, high)
                                ? kInvalid
                                : buffer.flush_stream(now_ps(), upp, f_.p_.max_age_ps, forced);
    if (stream == kInvalid) {
      flushing_ = false;
      if (host.writes_held()) f_.host_.stop_or_resume_writes();
      break;
    }
    // The stream: the buffer's choice among the streams some die may take now; the die: the next one round
    // robin that may take it (a die short of free blocks takes only streams whose open block has room).
    uint32_t die = kInvalid;
    const uint32_t s = f_.streams_.user_streams() == 1 ? stream : choose(takeable_, forced, &die);
    if (f_.streams_.user_streams() == 1) die = pick_die(s);
    if (die == kInvalid) break;
    flush_page(die, s);
  }
}

uint64_t FlushScheduler::user_streams_of(uint32_t d) const {
  const BlockManager& b = f_.e_.state.blocks();
  const uint32_t n = f_.streams_.user_streams();
  // slc.when_full=fold: with the SLC cache full, host writes wait for a fold, unless their frontier has room.
  const SlcCache* slc = f_.e_.slc;
  const bool wait_fold = slc && slc->host_waits(d, b.free_blocks(d));
  if (b.free_blocks(d) > b.gc_reserve() && !wait_fold) return n == 64 ? ~uint64_t(0) : (uint64_t(1) << n) - 1;
  // GC into the user frontiers: a die collecting a victim may need every page left in its frontiers (in
  // superblock mode its block of the line is free again only once every die has erased theirs), so with no
  // block to spare its host writes wait for GC.
  if (b.layout().gc_in_user && f_.e_.gc.die(d).active) return 0;
  uint64_t mask = 0;
  if (group_units_) {  // FDP: an open RU may have blocks left on the die besides its open one
    for (uint32_t s = 0; s < n; ++s) mask |= uint64_t(b.can_allocate(d, b.layout().user_frontier(s), b.gc_reserve())) << s;
    return mask;
  }
  for (uint32_t s = 0; s < n; ++s) mask |= uint64_t(!b.frontier_full(d, b.layout().user_frontier(s))) << s;
  return mask;
}

void FlushScheduler::refresh(uint32_t d) {
  // A die takes a flush while it has queue room, can open a user block without taking the blocks its GC
  // frontiers need (or has user frontiers with room: then of those streams only), and (while it collects)
  // has GC credit. die_streams_[d] holds the user streams it may take; takeable_ the streams some die may.
  // A pacing whose victim lines hold the host (gc_first: FEMU bbssd's FTL thread collects a whole line before it serves
  // the next request): no die takes host data while a victim line is being collected (GcDriver refreshes all at the
  // edges).
  const GcDie& gc = f_.e_.gc.die(d);
  const bool line_hold = lines_hold_ && f_.e_.state.blocks().pool().units_in_gc() > 0;
  const bool ready = inflight_[d] < f_.p_.die_queue_depth && !(gc.active && gc.credit < 1.0) && !line_hold;
  const uint64_t now = ready ? user_streams_of(d) & die_mask_[d] : 0, before = die_streams_[d];
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
  if (ok && !was && f_.map_.writes_waiting()) f_.map_.retry();  // map write-backs waiting for a ready die
}

uint32_t FlushScheduler::choose(uint64_t allowed, bool forced, uint32_t* die) {
  const uint32_t upp = f_.g_.units_per_page;
  uint32_t s = f_.buffer_->flush_stream(now_ps(), upp, f_.p_.max_age_ps, forced, allowed);
  *die = s == kInvalid ? kInvalid : pick_die(s);
  // Zoned: a zone's next page has one die (ZnsNamespace::stripe_die), and with a write pointer that names it (striped)
  // a frontier's next page; while that die is busy, another zone's or stream's.
  while (*die == kInvalid && s != kInvalid && one_die_ && (allowed &= ~(uint64_t(1) << s)) != 0) {
    s = f_.buffer_->flush_stream(now_ps(), upp, f_.p_.max_age_ps, forced, allowed);
    *die = s == kInvalid ? kInvalid : pick_die(s);
  }
  return *die == kInvalid ? kInvalid : s;
}

uint32_t FlushScheduler::pick_die(uint32_t stream) {
  // One die for the stream's next page, taken if it may take it now: zoned, the die of the zone's next page; a
  // write pointer that names the die of the frontier's next page (striped, FEMU bbssd), that die.
  // No die may take the stream now (takeable_, kept by refresh with die_streams_): the answer of every branch
  // below, known without a scan (a writer that finds the buffer full asks this after every operation end).
  if (!(takeable_ >> stream & 1)) return kInvalid;
  const BlockManager& b = f_.e_.state.blocks();
  const ZnsNamespace* z = f_.streams_.zns();
  if (one_die_) {
    const uint32_t d = z ? z->stripe_die(uint16_t(stream))
                         : b.write_pointer().next_die(b.layout().user_frontier(stream), f_.streams_.params().rg_of(stream));
    return die_streams_[d] >> stream & 1 ? d : kInvalid;
  }
  // The next flushable die at or after the cursor that may take the stream (dies are numbered
  // channel-first, so consecutive flushes go to different channels first). Units over several dies (superblock
  // GC): a die a whole unit ahead of the others in the stream's units takes the page only when no other die may
  // (UnitPool::ahead, LinePool::line_ahead: it would retire the oldest line, cutting the blocks of the dies
  // behind).
  if (units_span_dies_) {
    const uint32_t frontier = b.layout().user_frontier(stream);
    const UnitPool& pool = b.pool();
    const uint32_t d = next_flushable(cursor_, [&](uint32_t e) {
      return (die_streams_[e] >> stream & 1) && !pool.ahead(e, frontier);
    });
    if (d != kInvalid) return d;
  }
  return next_flushable(cursor_, [&](uint32_t d) { return die_streams_[d] >> stream & 1; });
}

void FlushScheduler::flush_page(uint32_t die, uint32_t stream) { job_.write(die, stream); }

// ---------------------------------------------------------------- the host page job's timed executor

FlashCounters& FlushScheduler::counters(uint32_t) { return f_.e_.state.counters(); }
StreamStats* FlushScheduler::stream_stats() { return &f_.streams_.stats(); }
uint64_t* FlushScheduler::flushed_units() { return &f_.stats_.flushed_units; }

FlashOp& FlushScheduler::take(uint32_t die, uint32_t stream, uint32_t ppa) {
  const Geometry& g = f_.g_;
  WriteBuffer& buffer = *f_.buffer_;
  DriveState& state = f_.e_.state;
  FlashOp& op = f_.new_op(FlashCmd::Program, die, kFlush);
  op.block = g.block_of(ppa);
  op.page = g.page_of(ppa);
  op.kind = UnitKind::UD;
  op.stream = uint8_t(stream);
  // The page's units first, then their map updates: the map entries are fetched from memory together.
  uint64_t steps = 0;  // firmware steps (buffer/buffer_cost.h): per unit taken, the order's pop and an index update
  for (uint32_t s = 0; s < g.units_per_page; ++s) {
    steps += buffer.order_steps() + buffer.index_steps();
    uint32_t slot = buffer.take(stream, &op.lpn[s], &op.version[s], now_ps());
    op.aux[s] = slot;
    if (slot == kInvalid) op.lpn[s] = kInvalid;  // padding
    else state.prefetch_map(op.lpn[s]);
  }
  take_steps_ = steps;
  // The stream's next pages, in the order they will be flushed if nothing changes: the next two pages' units'
  // old locations (valid bitmap word and block metadata, through their map entries fetched earlier), and the map
  // entries of the two pages after them, so that by their flush the misses are over (pages are often flushed
  // back to back: one page ahead is too close). A hint: nothing is decided on it.
  uint32_t ahead[4 * kMaxUnitsPerPage];
  buffer.upcoming(stream, 0, 4 * g.units_per_page, ahead);
  for (uint32_t k = 0; k < 4 * g.units_per_page; ++k) {
    const uint32_t lpn = ahead[k];
    if (lpn == kInvalid) continue;
    if (k < 2 * g.units_per_page) state.prefetch_old(lpn);
    else state.prefetch_map(lpn);
  }
  return op;
}

void FlushScheduler::program(FlashOp& op) {
  const Geometry& g = f_.g_;
  ++flushes_pending_;
  ++inflight_[op.die];
  // The page's map entries are read and written back in DRAM, a burst each way per unit: DRAM bandwidth,
  // beside the program (which does not wait for them), charged a quantum at a time (one access per 4 KiB).
  // FDP reclaim groups: the die's streams as they are now, before the send. Issuing the program may complete
  // other operations whose pump flushes again, and the page just taken may have filled the frontier's last
  // block (with two RGs a recursive pump took such a die and found no page). Only when dies are confined to
  // some streams, so that the results of every other configuration stay as they were.
  if (confined_) refresh(op.die);
  map_update_bytes_ += 2 * g.units_per_page * kDramBurstBytes;
  if (map_update_bytes_ >= kMapUpdateQuantum) {
    f_.dram.write(now_ps(), map_update_bytes_);
    map_update_bytes_ = 0;
  }
  f_.send(op, f_.buffer_work(take_steps_, now_ps()));
}

void FlushScheduler::map_updates(FlashOp& op) {
  // The map updates go through the cache; the buffer slots stay until their flash work is done too. (After
  // the send: issuing map work lets the channels complete operations, which may flush the die's next page.
  // The program itself cannot complete before its tPROG, so its wait count is complete by then.)
  f_.map_.updates(op.lpn, f_.g_.units_per_page, MapWorkQueue::Waiter{MapWorkQueue::Waiter::Flush, &op, op.die},
                  &op.waits);
}

void FlushScheduler::issued(uint32_t die, FlashOp& op) {
  f_.gc_.kick(die);
  if (group_units_ && op.page == 0) refresh_group(die);  // a block opened: maybe a free unit of the group taken
  else refresh(die);
}

bool FlushScheduler::on_flush(FlashOp& op) {
  job_.on_program(op, op.die * f_.g_.blocks_per_die + op.block);  // -> landed
  if (op.waits) return false;  // its map updates are still waiting for flash work: keep the op
  release(op);
  return true;
}

void FlushScheduler::landed(FlashOp& op) {
  ZnsNamespace* z = f_.streams_.zns();
  const bool freed = z && z->drain(*f_.buffer_, f_.e_.state.blocks(), f_.host_.slot_waiting());
  --inflight_[op.die];
  f_.host_idle_check();
  f_.gc_.kick(op.die);  // the page may have closed a block GC was waiting for
  refresh(op.die);
  if (z && f_.zone_erase_.waiting()) f_.zone_erase_.kick();  // a reset zone's block may have closed
  if (freed) f_.host_.retry_slot_waits();          // zoned writes waiting for a slot: one drained
  else if (z && f_.host_.slot_waiting()) pump();   // or flush more of the draining zones' units
}

void FlushScheduler::release(FlashOp& op) {
  for (uint32_t s = 0; s < f_.g_.units_per_page; ++s)
    if (op.aux[s] != kInvalid) f_.buffer_->release(op.aux[s]);
  --flushes_pending_;
  if (f_.host_.flush_waiting()) f_.host_.barriers_progress();
  f_.host_.admit_writes();
  pump();
  if (f_.host_.writes_held()) f_.host_.stop_or_resume_writes();
}

}  // namespace ssdtlm
