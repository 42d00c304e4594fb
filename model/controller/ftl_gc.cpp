// Ftl, part 2: garbage collection per die (victim scan, relocation, erase) and the GC credit that paces
// host flushes to a collecting die. See ftl.h.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/ftl.h"

namespace ssdtlm {

void Ftl::gc_kick(uint32_t die) {
  GcJob& job = gc_[die];
  if (job.active || !ftl_.gc_needed(die) || !gc_next_victim(die)) return;
  job.active = true;
  ++gc_active_;
  gc_advance(die);  // ends with refresh(die)
}

bool Ftl::gc_next_victim(uint32_t die) {
  GcJob& job = gc_[die];
  uint32_t victim = ftl_.pick_victim(die);
  if (victim == kInvalid) return false;  // every block open or programming: retried on the next completion
  job.map_victim = ts_ && ts_->is_map_block(victim);
  if (job.map_victim && job.staged) gc_program(die, job.staged);  // data and map pages do not mix
  job.victim = victim;
  job.next_page = 0;
  const uint32_t v = ftl_.blocks().valid(victim);
  job.ratio = v ? double(g_.units_per_block - v) / double(v) / g_.units_per_page : 1e30;
  job.credit = std::max(job.credit, 1.0);
  return true;
}

void Ftl::gc_advance(uint32_t die) {
  GcJob& job = gc_[die];
  for (;;) {
    if (job.victim != kInvalid && job.map_victim) {
      gc_map_advance(die);
    } else if (job.victim != kInvalid) {
      const uint32_t block = g_.block_in_die(job.victim);
      while (job.reads == 0 && job.next_page < g_.pages_per_block && job.staged < g_.units_per_page) {
        uint32_t page = job.next_page++;
        uint32_t mask = ftl_.valid_mask(die, block, page);
        if (!mask) continue;
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
    while (job.staged >= g_.units_per_page) gc_program(die, g_.units_per_page);
    // Map segments staged from a victim whose scan is over (or left by a stalled copy) go out now.
    if (job.staged_segs && (job.victim == kInvalid || job.next_page == g_.pages_per_block) && job.reads == 0)
      gc_map_program(die, job.staged_segs);
    if (job.victim != kInvalid && job.next_page == g_.pages_per_block && job.reads == 0) {
      job.scanned.push_back(job.victim);
      job.victim = kInvalid;
    }
    if (job.victim == kInvalid && job.reads == 0) {
      // Another victim if free space is still short once the pending erases land, or to fill a page.
      bool short_of_space =
          ftl_.blocks().free_blocks(die) + job.erases + job.scanned.size() < ftl_.gc_free_blocks();
      if ((short_of_space || job.staged > 0) && gc_next_victim(die)) continue;
      if (job.staged > 0) gc_program(die, job.staged);  // no victim left: pad the page
    }
    break;
  }
  for (size_t i = 0; i < job.scanned.size();) {
    uint32_t victim = job.scanned[i];
    // A map victim's segments point at their new pages when those are issued: erase once they landed.
    if (ftl_.blocks().valid(victim) || (job.programs && ts_ && ts_->is_map_block(victim))) {
      ++i;
      continue;
    }
    FlashOp& op = new_op(FlashCmd::Erase, die, kGcErase);
    op.block = g_.block_in_die(victim);
    ++job.erases;
    send(op);
    job.scanned[i] = job.scanned.back();
    job.scanned.pop_back();
  }
  if (job.victim == kInvalid && !job.reads && !job.staged && !job.programs && !job.erases && job.scanned.empty() &&
      !job.map_updates && !job.staged_segs) {
    job.active = false;
    job.credit = 1.0;
    --gc_active_;
  }
  refresh(die);
}

void Ftl::gc_program(uint32_t die, uint32_t n) {
  GcJob& job = gc_[die];
  uint32_t ppa = ftl_.blocks().allocate_page(die, kGcStream);
  if (ppa == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for GC data");
  FlashOp& op = new_op(FlashCmd::Program, die, kGcProgram);
  op.block = g_.block_of(ppa);
  op.page = g_.page_of(ppa);
  op.kind = UnitKind::GUD;
  op.stream = kGcStream;
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    bool real = s < n;
    op.lpn[s] = real ? job.lpn[s] : kInvalid;
    op.version[s] = real ? job.version[s] : 0;
    op.aux[s] = real ? job.old[s] : kInvalid;
  }
  for (uint32_t s = n; s < job.staged; ++s) {
    job.lpn[s - n] = job.lpn[s];
    job.version[s - n] = job.version[s];
    job.old[s - n] = job.old[s];
  }
  job.staged -= n;
  job.credit += n * job.ratio;
  ++job.programs;
  ++ftl_.counters().programs[uint32_t(UnitKind::GUD)];
  send(op, job.data_ps);
  refresh(die);
}

void Ftl::on_gc_read(FlashOp& op) {
  GcJob& job = gc_[op.die];
  --job.reads;
  job.data_ps = std::max(job.data_ps, op.done_ps);
  for (uint32_t m = op.slot_mask; m; m &= m - 1) {
    uint32_t s = uint32_t(__builtin_ctz(m));
    uint32_t old = g_.ppa(op.die, op.block, op.page, s);
    if (op.lpn[s] == kInvalid || !ftl_.valid(old)) continue;  // overwritten or trimmed meanwhile
    job.lpn[job.staged] = op.lpn[s];
    job.version[job.staged] = op.version[s];
    job.old[job.staged] = old;
    ++job.staged;
  }
  gc_advance(op.die);
}

void Ftl::on_gc_program(FlashOp& op) {
  GcJob& job = gc_[op.die];
  --job.programs;
  uint32_t base = g_.ppa(op.die, op.block, op.page);
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (op.lpn[s] != kInvalid) ftl_.prefetch_map(op.lpn[s]);
  uint32_t moved[kMaxUnitsPerPage], n = 0;
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (op.lpn[s] != kInvalid && ftl_.remap_if(op.lpn[s], op.aux[s], base + s)) moved[n++] = op.lpn[s];
  ftl_.counters().gc_units_moved += n;
  ftl_.blocks().page_done(op.die * g_.blocks_per_die + op.block);
  // The moves update the map through the cache, batched per segment; GC finishes once that work is done.
  if (n) map_updates(moved, n, Waiter{Waiter::Gc, nullptr, op.die}, &job.map_updates);
  gc_advance(op.die);
}

void Ftl::on_gc_erase(FlashOp& op) {
  GcJob& job = gc_[op.die];
  if (ts_) ts_->erased(op.die * g_.blocks_per_die + op.block);
  ftl_.blocks().erased(op.die * g_.blocks_per_die + op.block);
  if (ts_) retry_map_writes();
  ++ftl_.counters().erases;
  --job.erases;
  refresh(op.die);
  gc_advance(op.die);
  gc_kick(op.die);
  admit_writes();
  pump();
}

}  // namespace ssdtlm
