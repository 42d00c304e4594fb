// The FTL's GC driver (ftl_parts.h): the GC engine's actions (gc/gc_engine.h) as flash operations. The engine
// decides (victims, staging, pages, erases, the credit that paces host flushes to a collecting die); this
// file issues its reads, programs and erases and tells it when they land.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

void GcDriver::kick(uint32_t die) {
  // (Superblock mode: also when a victim line holds a block of this die to collect.)
  if (gc_.die(die).active ||
      !(f_.ftl_.gc_needed(die) || f_.ftl_.blocks().line_pending(die) || f_.ftl_.victim_sources().wanted(die)) ||
      !next_victim(die))
    return;
  gc_.start(die);
  advance(die);  // ends with f_.flush_.refresh(die)
}

bool GcDriver::next_victim(uint32_t die) {
  // Staged data that cannot be padded yet (its page waits for the die's erase under way) would have to be padded
  // if the next victim held map pages (data and map pages do not mix): pick after the erase (it calls advance).
  if (gc_.any_staged(die) && pad_waits(die)) return false;
  const uint32_t started = f_.ftl_.blocks().lines_in_gc();
  const uint32_t victim = gc_.pick_victim(die, f_.ftl_.counters());
  if (victim == kInvalid) return false;  // every block open or programming: retried on the next completion
  if (f_.ftl_.blocks().lines_in_gc() != started) kick_lines_ = true;  // a new victim line: every die collects its block
  if (gc_.is_map_block(victim) && gc_.any_staged(die)) pad(die);  // data and map pages do not mix
  gc_.begin_scan(die, victim);
  return true;
}

void GcDriver::advance(uint32_t die) {
  GcDie& job = gc_.die(die);
  for (;;) {
    if (job.victim != kInvalid && job.map_victim) {
      map_advance(die);
    } else if (job.victim != kInvalid) {
      const uint32_t block = f_.g_.block_in_die(job.victim);
      uint32_t page, mask;
      while (job.reads == 0 && job.full == 0 && gc_.next_read(die, &page, &mask)) {
        if (f_.streams_.params().gc == GcStreams::HotCold)  // GC classifies the units by count: fetch the counts now
          for (uint32_t m = mask; m; m &= m - 1)
            f_.streams_.prefetch(f_.ftl_.die(die).lpn((block * f_.g_.pages_per_block + page) * f_.g_.units_per_page +
                                                uint32_t(__builtin_ctz(m))));
        FlashOp& op = f_.new_op(FlashCmd::Read, die, kGcRead);
        op.block = block;
        op.page = page;
        op.slot_mask = mask;
        op.read_kind = ReadKind::Gc;
        op.fold = f_.ftl_.blocks().is_slc(job.victim);
        if (op.fold)
          ++f_.ftl_.counters().fold_reads;
        else
          ++f_.ftl_.counters().reads[uint32_t(ReadKind::Gc)];
        ++job.reads;
        f_.send(op);
      }
    }
    for (uint32_t k = 0; job.full && k < job.stage.size(); ++k)
      while (job.stage[k].n >= f_.g_.units_per_page && !gc_.page_waits(die, k)) program(die, k, f_.g_.units_per_page);
    // Map segments staged from a victim whose scan is over (or left by a stalled copy) go out now.
    if (job.staged_segs && (job.victim == kInvalid || job.next_page == f_.g_.pages_per_block) && job.reads == 0)
      map_program(die, job.staged_segs);
    if (job.victim != kInvalid && job.next_page == f_.g_.pages_per_block && job.reads == 0) gc_.end_scan(die);
    if (job.victim == kInvalid && job.reads == 0) {
      if (gc_.wants_victim_timed(die) && next_victim(die)) continue;
      if (job.staged > 0 && !pad_waits(die)) pad(die);  // no victim left, several GC streams, or waiting: pad
    }
    break;
  }
  if (gc_.moves_due(die)) f_.map_.gc_moves(die, &job.map_updates);  // map.gc_update=victim: before the erase
  gc_.erase_ready(die, [&](uint32_t victim) {
    if (f_.checker_) gc_.check_erase(victim, *f_.checker_, now_ps());
    FlashOp& op = f_.new_op(FlashCmd::Erase, die, kGcErase);
    op.block = f_.g_.block_in_die(victim);
    ++job.erases;
    f_.send(op);
  });
  if (gc_.finish_if_idle(die)) f_.flush_.gc_ended();  // the buffer's flushes may use the die again (wake)
  f_.flush_.refresh(die);
  if (kick_lines_) {  // superblock mode: a victim line was started; the idle dies start on their blocks
    kick_lines_ = false;
    for (uint32_t d = 0; d < f_.g_.dies; ++d)
      if (!gc_.die(d).active && f_.ftl_.blocks().line_pending(d)) kick(d);
    if (f_.ftl_.gc_pacing().lines_hold_host()) f_.flush_.refresh_all();  // the line holds every die's host writes (refresh)
  }
}

void GcDriver::program(uint32_t die, uint32_t k, uint32_t n) {
  GcPage page;
  gc_.take_page(die, k, n, page, f_.ftl_.counters(), &f_.streams_.stats());
  issue(page);
}

bool GcDriver::pad_waits(uint32_t die) const {
  const GcDie& job = gc_.die(die);
  for (uint32_t k = 0; k < job.stage.size(); ++k)
    if (job.stage[k].n && gc_.page_waits(die, k)) return true;
  return false;
}

void GcDriver::pad(uint32_t die) {
  gc_.pad(die, f_.ftl_.counters(), &f_.streams_.stats(), [&](const GcPage& page) { issue(page); });
}

void GcDriver::issue(const GcPage& page) {
  FlashOp& op = f_.new_op(FlashCmd::Program, page.die, kGcProgram);
  op.block = f_.g_.block_of(page.ppa);
  op.page = f_.g_.page_of(page.ppa);
  op.kind = UnitKind::GUD;
  op.stream = page.stream;
  op.fold = page.fold;
  std::copy(page.lpn, page.lpn + f_.g_.units_per_page, op.lpn);
  std::copy(page.version, page.version + f_.g_.units_per_page, op.version);
  std::copy(page.old, page.old + f_.g_.units_per_page, op.aux);
  // A hint: the units' map entries are read and written when the page lands (GcEngine::land_page).
  for (uint32_t s = 0; s < page.n; ++s)
    if (page.lpn[s] != kInvalid) f_.ftl_.prefetch_map(page.lpn[s]);
  f_.send(op, gc_.die(page.src).data_ps);
  if (f_.ftl_.reclaim_units() && op.page == 0) f_.flush_.refresh_group(page.die);  // a block opened: maybe a free RU taken
  else f_.flush_.refresh(page.die);
}

void GcDriver::on_read(FlashOp& op) {
  GcDie& job = gc_.die(op.die);
  --job.reads;
  job.data_ps = std::max(job.data_ps, op.done_ps);
  for (uint32_t m = op.slot_mask; m; m &= m - 1) {
    const uint32_t s = uint32_t(__builtin_ctz(m));
    const uint32_t old = f_.g_.ppa(op.die, op.block, op.page, s);
    if (op.lpn[s] == kInvalid || !f_.ftl_.valid(old)) continue;  // overwritten or trimmed meanwhile
    if (f_.checker_) f_.ftl_.check_gc_source(op.lpn[s], old, *f_.checker_, op.done_ps);
    gc_.stage(op.die, gc_.gc_stream_of(op.die, op.lpn[s], old), op.lpn[s], op.version[s], old);
  }
  advance(op.die);
}

void GcDriver::on_program(FlashOp& op) {
  GcPage page;
  page.die = op.die;
  page.src = f_.g_.die_of(op.aux[0]);  // the die whose job staged it: its first unit's old location (never padding)
  page.ppa = f_.g_.ppa(op.die, op.block, op.page);
  page.n = f_.g_.units_per_page;  // (padding units have no LPN)
  page.stream = op.stream;
  std::copy(op.lpn, op.lpn + f_.g_.units_per_page, page.lpn);
  std::copy(op.aux, op.aux + f_.g_.units_per_page, page.old);
  uint32_t moved[kMaxUnitsPerPage];
  const uint32_t n = gc_.land_page(page, moved, f_.ftl_.counters(), &f_.streams_.stats());
  // The moves update the map through the cache, batched per segment; GC finishes once that work is done.
  if (n && !gc_.batches_moves())
    f_.map_.updates(moved, n, MapWorkQueue::Waiter{MapWorkQueue::Waiter::Gc, nullptr, page.src},
                    &gc_.die(page.src).map_updates, true);
  advance(page.src);
}

void GcDriver::host_idle(bool idle) {
  // Background folding (slc.*): the dies with a full SLC block start folding when the host goes idle.
  SlcCache* slc = f_.ftl_.slc();
  if (!slc || slc->idle() == idle) return;
  slc->set_idle(idle);
  if (idle)
    for (uint32_t d = 0; d < f_.g_.dies; ++d)
      if (slc->has_full(d)) kick(d);
}

void GcDriver::on_erase(FlashOp& op) {
  const uint32_t lines_before = f_.ftl_.blocks().lines_in_gc();
  gc_.land_erase(op.die * f_.g_.blocks_per_die + op.block, f_.ftl_.counters());
  if (f_.zone_erase_.waiting()) f_.zone_erase_.erased(op.die * f_.g_.blocks_per_die + op.block);
  if (f_.ts_) f_.map_.retry();
  --gc_.die(op.die).erases;
  if (f_.ftl_.gc_pacing().lines_hold_host() && lines_before && !f_.ftl_.blocks().lines_in_gc())
    f_.flush_.refresh_all();  // the last line in GC is free: every die may take host writes again
  else if (f_.ftl_.reclaim_units() && f_.ftl_.blocks().lines_in_gc() != lines_before)
    f_.flush_.refresh_group(op.die);  // an RU is free: every die of its reclaim group may take host writes again
  else
    f_.flush_.refresh(op.die);
  advance(op.die);
  kick(op.die);
  f_.host_.admit_writes();
  f_.flush_.pump();
}

}  // namespace ssdtlm
