// Ftl, part 2: garbage collection per die (victim scan, relocation, erase) and the GC credit that paces
// host flushes to a collecting die. See ftl.h.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

void Ftl::gc_kick(uint32_t die) {
  GcJob& job = gc_[die];
  // (Superblock mode: also when a victim line holds a block of this die to collect.)
  if (job.active || !(ftl_.gc_needed(die) || ftl_.blocks().line_pending(die)) || !gc_next_victim(die)) return;
  job.active = true;
  ++gc_active_;
  gc_advance(die);  // ends with refresh(die)
}

bool Ftl::gc_next_victim(uint32_t die) {
  GcJob& job = gc_[die];
  const uint32_t started = ftl_.blocks().lines_in_gc();
  uint32_t victim = ftl_.pick_victim(die);
  if (victim == kInvalid) return false;  // every block open or programming: retried on the next completion
  if (ftl_.blocks().lines_in_gc() != started) kick_lines_ = true;  // a new victim line: every die collects its block
  job.map_victim = ts_ && ts_->is_map_block(victim);
  if (job.map_victim && job.staged) gc_pad(die);  // data and map pages do not mix
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
      while (job.reads == 0 && job.next_page < g_.pages_per_block && job.full == 0) {
        uint32_t page = job.next_page++;
        uint32_t mask = ftl_.valid_mask(die, block, page);
        if (!mask) continue;
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
    if (job.victim != kInvalid && job.next_page == g_.pages_per_block && job.reads == 0) {
      job.scanned.push_back(job.victim);
      job.victim = kInvalid;
    }
    if (job.victim == kInvalid && job.reads == 0) {
      // Another victim if free space is still short once the pending erases land, or (one GC stream, block
      // mode) to fill a page; superblock mode: the die's block of every victim line started.
      const bool short_of_space = ftl_.gc_short(die, job.erases + uint32_t(job.scanned.size())) ||
                                  ftl_.blocks().line_pending(die);
      const bool fill = job.staged > 0 && job.stage.size() == 1 && !ftl_.blocks().lines();
      // Several GC streams: a new victim waits for a free block while an earlier one's erase is coming (its
      // units may need a block in each stream; gc_target spills only the last victim's units). The partial
      // pages go out meanwhile: the erase needs them.
      const bool wait = job.stage.size() > 1 && ftl_.blocks().free_blocks(die) == 0 &&
                        (job.erases || !job.scanned.empty() || job.programs);
      if ((short_of_space || fill) && !wait && gc_next_victim(die)) continue;
      if (job.staged > 0) gc_pad(die);  // no victim left, several GC streams, or waiting: pad the pages
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
    if (checker_) check_gc_erase(die, victim);
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
  if (kick_lines_) {  // superblock mode: a victim line was started; the idle dies start on their blocks
    kick_lines_ = false;
    for (uint32_t d = 0; d < g_.dies; ++d)
      if (!gc_[d].active && ftl_.blocks().line_pending(d)) gc_kick(d);
  }
}

// check.integrity: the block about to be erased holds no live unit, and no staged GC copy of a unit still
// current there waits for its program (a copy whose unit was overwritten since is dropped when it lands).
void Ftl::check_gc_erase(uint32_t die, uint32_t victim) {
  const GcJob& job = gc_[die];
  for (const GcStage& st : job.stage)
    for (uint32_t i = 0; i < st.n; ++i)
      if (g_.gblock_of(st.old[i]) == victim && ftl_.lookup(st.lpn[i]) == st.old[i]) {
        checker_->violation("erase of die " + std::to_string(die) + " block " + std::to_string(g_.block_in_die(victim)) +
                                " while a GC copy of LPN " + std::to_string(st.lpn[i]) + " from it is still pending",
                            now_ps());
        return;
      }
  ftl_.check_erase(victim, *checker_, now_ps());
}

void Ftl::gc_stage(uint32_t die, uint32_t k, uint32_t lpn, uint32_t version, uint32_t old) {
  GcJob& job = gc_[die];
  GcStage& st = job.stage[k];
  st.lpn[st.n] = lpn;
  st.version[st.n] = version;
  st.old[st.n] = old;
  if (++st.n == g_.units_per_page) ++job.full;
  ++job.staged;
}

void Ftl::gc_pad(uint32_t die) {
  GcJob& job = gc_[die];
  for (uint32_t k = 0; k < job.stage.size(); ++k)
    while (job.stage[k].n) gc_program(die, k, std::min(job.stage[k].n, g_.units_per_page));
}

void Ftl::gc_program(uint32_t die, uint32_t k, uint32_t n) {
  GcJob& job = gc_[die];
  GcStage& st = job.stage[k];
  const uint32_t target = ftl_.gc_target(die, k);
  if (target != k) streams_.stats().gc_spilled += n;
  uint32_t ppa = ftl_.blocks().allocate_page(die, ftl_.blocks().layout().gc_frontier(target));
  if (ppa == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": no free block for GC data");
  FlashOp& op = new_op(FlashCmd::Program, die, kGcProgram);
  op.block = g_.block_of(ppa);
  op.page = g_.page_of(ppa);
  op.kind = UnitKind::GUD;
  // The out-of-band stream: the GC stream's data stream; the shared GC stream's units keep the streams of
  // their old copies (the first unit's here, the others' set when the page lands: on_gc_program).
  const uint32_t die_base = g_.ppa(die, 0, 0);
  const bool mixed = streams_.params().gc == GcStreams::Shared && streams_.user_streams() > 1;
  op.stream = uint8_t(mixed && n ? ftl_.die(die).stream(st.old[0] - die_base) : k);
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    bool real = s < n;
    op.lpn[s] = real ? st.lpn[s] : kInvalid;
    op.version[s] = real ? st.version[s] : 0;
    op.aux[s] = real ? st.old[s] : kInvalid;
  }
  const bool was_full = st.n >= g_.units_per_page;
  for (uint32_t s = n; s < st.n; ++s) {
    st.lpn[s - n] = st.lpn[s];
    st.version[s - n] = st.version[s];
    st.old[s - n] = st.old[s];
  }
  st.n -= n;
  job.staged -= n;
  if (was_full && st.n < g_.units_per_page) --job.full;
  streams_.stats().gc_padding += g_.units_per_page - n;
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
  const bool one = job.stage.size() == 1;
  const Die& d = ftl_.die(op.die);
  const uint32_t die_base = g_.ppa(op.die, 0, 0);
  for (uint32_t m = op.slot_mask; m; m &= m - 1) {
    uint32_t s = uint32_t(__builtin_ctz(m));
    uint32_t old = g_.ppa(op.die, op.block, op.page, s);
    if (op.lpn[s] == kInvalid || !ftl_.valid(old)) continue;  // overwritten or trimmed meanwhile
    if (checker_) ftl_.check_gc_source(op.lpn[s], old, *checker_, op.done_ps);
    const uint32_t k = one ? 0 : streams_.gc_stream_of(streams_.gc_data_stream(op.lpn[s], d.stream(old - die_base)));
    gc_stage(op.die, k, op.lpn[s], op.version[s], old);
  }
  gc_advance(op.die);
}

void Ftl::on_gc_program(FlashOp& op) {
  GcJob& job = gc_[op.die];
  --job.programs;
  uint32_t base = g_.ppa(op.die, op.block, op.page);
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (op.lpn[s] != kInvalid) ftl_.prefetch_map(op.lpn[s]);
  // Per-stream GC counts; the shared GC stream's units take their old copies' streams.
  const bool shared = streams_.params().gc == GcStreams::Shared && streams_.user_streams() > 1;
  Die& d = ftl_.die(op.die);
  const uint32_t die_base = g_.ppa(op.die, 0, 0);
  uint32_t moved[kMaxUnitsPerPage], n = 0;
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    if (op.lpn[s] == kInvalid || !ftl_.remap_if(op.lpn[s], op.aux[s], base + s)) continue;
    // (remapping clears the old copy's valid bit, not its out-of-band data)
    const uint32_t ds = shared ? d.stream(op.aux[s] - g_.ppa(g_.die_of(op.aux[s]), 0, 0)) : op.stream;
    if (shared && ds != op.stream) d.set_stream(base + s - die_base, uint8_t(ds));
    ++streams_.stats().gc_writes[ds];
    moved[n++] = op.lpn[s];
  }
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
