// Ftl, part 2: the GC engine's actions (gc/gc_engine.h) as flash operations, and the GC credit that paces
// host flushes to a collecting die. The engine decides; this file issues its reads, programs and erases and
// tells it when they land. See ftl.h.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

void Ftl::gc_kick(uint32_t die) {
  // (Superblock mode: also when a victim line holds a block of this die to collect.)
  if (gc_.die(die).active || !(ftl_.gc_needed(die) || ftl_.blocks().line_pending(die)) || !gc_next_victim(die))
    return;
  gc_.start(die);
  gc_advance(die);  // ends with refresh(die)
}

bool Ftl::gc_next_victim(uint32_t die) {
  const uint32_t started = ftl_.blocks().lines_in_gc();
  const uint32_t victim = gc_.pick_victim(die, ftl_.counters());
  if (victim == kInvalid) return false;  // every block open or programming: retried on the next completion
  if (ftl_.blocks().lines_in_gc() != started) kick_lines_ = true;  // a new victim line: every die collects its block
  if (gc_.is_map_block(victim) && gc_.any_staged(die)) gc_pad(die);  // data and map pages do not mix
  gc_.begin_scan(die, victim);
  return true;
}

void Ftl::gc_advance(uint32_t die) {
  GcDie& job = gc_.die(die);
  for (;;) {
    if (job.victim != kInvalid && job.map_victim) {
      gc_map_advance(die);
    } else if (job.victim != kInvalid) {
      const uint32_t block = g_.block_in_die(job.victim);
      uint32_t page, mask;
      while (job.reads == 0 && job.full == 0 && gc_.next_read(die, &page, &mask)) {
        if (streams_.params().gc == GcStreams::HotCold)  // GC classifies the units by count: fetch the counts now
          for (uint32_t m = mask; m; m &= m - 1)
            streams_.prefetch(ftl_.die(die).lpn((block * g_.pages_per_block + page) * g_.units_per_page +
                                                uint32_t(__builtin_ctz(m))));
        FlashOp& op = new_op(FlashCmd::Read, die, kGcRead);
        op.block = block;
        op.page = page;
        op.slot_mask = mask;
        op.read_kind = ReadKind::Gc;
        ++ftl_.counters().reads[uint32_t(ReadKind::Gc)];
        ++job.reads;
        send(op);
      }
    }
    for (uint32_t k = 0; job.full && k < job.stage.size(); ++k)
      while (job.stage[k].n >= g_.units_per_page) gc_program(die, k, g_.units_per_page);
    // Map segments staged from a victim whose scan is over (or left by a stalled copy) go out now.
    if (job.staged_segs && (job.victim == kInvalid || job.next_page == g_.pages_per_block) && job.reads == 0)
      gc_map_program(die, job.staged_segs);
    if (job.victim != kInvalid && job.next_page == g_.pages_per_block && job.reads == 0) gc_.end_scan(die);
    if (job.victim == kInvalid && job.reads == 0) {
      if (gc_.wants_victim_timed(die) && gc_next_victim(die)) continue;
      if (job.staged > 0) gc_pad(die);  // no victim left, several GC streams, or waiting: pad the pages
    }
    break;
  }
  gc_.erase_ready(die, [&](uint32_t victim) {
    if (checker_) gc_.check_erase(victim, *checker_, now_ps());
    FlashOp& op = new_op(FlashCmd::Erase, die, kGcErase);
    op.block = g_.block_in_die(victim);
    ++job.erases;
    send(op);
  });
  gc_.finish_if_idle(die);
  refresh(die);
  if (kick_lines_) {  // superblock mode: a victim line was started; the idle dies start on their blocks
    kick_lines_ = false;
    for (uint32_t d = 0; d < g_.dies; ++d)
      if (!gc_.die(d).active && ftl_.blocks().line_pending(d)) gc_kick(d);
  }
}

void Ftl::gc_program(uint32_t die, uint32_t k, uint32_t n) {
  GcPage page;
  gc_.take_page(die, k, n, page, ftl_.counters(), &streams_.stats());
  gc_issue(page);
}

void Ftl::gc_pad(uint32_t die) {
  gc_.pad(die, ftl_.counters(), &streams_.stats(), [&](const GcPage& page) { gc_issue(page); });
}

void Ftl::gc_issue(const GcPage& page) {
  FlashOp& op = new_op(FlashCmd::Program, page.die, kGcProgram);
  op.block = g_.block_of(page.ppa);
  op.page = g_.page_of(page.ppa);
  op.kind = UnitKind::GUD;
  op.stream = page.stream;
  std::copy(page.lpn, page.lpn + g_.units_per_page, op.lpn);
  std::copy(page.version, page.version + g_.units_per_page, op.version);
  std::copy(page.old, page.old + g_.units_per_page, op.aux);
  send(op, gc_.die(page.die).data_ps);
  refresh(page.die);
}

void Ftl::on_gc_read(FlashOp& op) {
  GcDie& job = gc_.die(op.die);
  --job.reads;
  job.data_ps = std::max(job.data_ps, op.done_ps);
  for (uint32_t m = op.slot_mask; m; m &= m - 1) {
    const uint32_t s = uint32_t(__builtin_ctz(m));
    const uint32_t old = g_.ppa(op.die, op.block, op.page, s);
    if (op.lpn[s] == kInvalid || !ftl_.valid(old)) continue;  // overwritten or trimmed meanwhile
    if (checker_) ftl_.check_gc_source(op.lpn[s], old, *checker_, op.done_ps);
    gc_.stage(op.die, gc_.gc_stream_of(op.die, op.lpn[s], old), op.lpn[s], op.version[s], old);
  }
  gc_advance(op.die);
}

void Ftl::on_gc_program(FlashOp& op) {
  GcPage page;
  page.die = op.die;
  page.ppa = g_.ppa(op.die, op.block, op.page);
  page.n = g_.units_per_page;  // (padding units have no LPN)
  page.stream = op.stream;
  std::copy(op.lpn, op.lpn + g_.units_per_page, page.lpn);
  std::copy(op.aux, op.aux + g_.units_per_page, page.old);
  uint32_t moved[kMaxUnitsPerPage];
  const uint32_t n = gc_.land_page(page, moved, ftl_.counters(), &streams_.stats());
  // The moves update the map through the cache, batched per segment; GC finishes once that work is done.
  if (n) map_updates(moved, n, Waiter{Waiter::Gc, nullptr, op.die}, &gc_.die(op.die).map_updates);
  gc_advance(op.die);
}

void Ftl::on_gc_erase(FlashOp& op) {
  gc_.land_erase(op.die * g_.blocks_per_die + op.block, ftl_.counters());
  if (ts_) retry_map_writes();
  --gc_.die(op.die).erases;
  refresh(op.die);
  gc_advance(op.die);
  gc_kick(op.die);
  admit_writes();
  pump();
}

}  // namespace ssdtlm
