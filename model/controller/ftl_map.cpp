// The FTL's map-work queue (ftl_parts.h): the timed executor of the map write-back job (mapping/map_wb_job.h), the map
// cache on the timing path. Every map access asks the cache (mapping/) what it needs and the job sequences it; a miss
// becomes a segment read (tR + data-out of segment_bytes), a dirty write-back a map page program (MD), and the access
// waits for them: a host read before its data reads, a flush before its
// buffer slots are released, GC before it finishes. Map blocks are collected like data blocks, by the GC job
// (gc/gc_job.h): their live segments are read and packed into new map pages (GMD). See ftl.h and
// docs/reference/mapping.md.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "controller/ftl.h"

namespace ssdtlm {

// ---------------------------------------------------------------- map accesses of host commands

bool MapWorkQueue::map_phase(NvmeCommand& cmd) {
  const Waiter w{Waiter::Cmd, &cmd, 0};
  const uint32_t eps = f_.cache_.params().entries_per_segment();
  uint32_t waits = 0;
  bool wrote = false, loaded = false;
  MapAccess a;
  auto account = [&](uint32_t seg, bool needs_seg) {
    const uint32_t n = job_.access(a, seg, needs_seg, w);
    waits += n;
    if (n && a.nwb) wrote = true;
    else if (n) loaded = true;
  };
  if (cmd.op == IoOp::Flush || (cmd.op == IoOp::Trim && cmd.zone_action != ZoneAction::None && cmd.zone_action != ZoneAction::Reset &&
                                 cmd.zone_action != ZoneAction::Offline)) {
    // A Flush, or a zone's Open, Close or Finish: no map work (a reset or an offline zone's units leave the map).
  } else if (cmd.op == IoOp::Trim) {
    // TRIM unmaps the units it covers fully: map updates, batched per segment.
    const uint32_t first = cmd.lpn + ((cmd.partial & 1) ? 1 : 0);
    const uint32_t last = cmd.lpn + cmd.units - ((cmd.partial & 2) ? 1 : 0);
    uint32_t lpns[kMaxUnitsPerPage];
    for (uint32_t lpn = first; lpn < last;) {
      const uint32_t seg = lpn / eps, end = std::min({last, (seg + 1) * eps, lpn + kMaxUnitsPerPage});
      uint32_t n = 0;
      for (; lpn < end; ++lpn) lpns[n++] = lpn;
      a.clear();
      f_.cache_.write(seg, lpns, n, a);
      account(seg, f_.cache_.write_needs_segment());
    }
  } else {
    // Lookups of the units the command will read from flash: a read's units not in the buffer, a
    // partial write's old end units (read-modify-write). One lookup per segment touched.
    auto needs = [&](uint32_t lpn) {
      uint32_t version;
      return !f_.buffer_->lookup(lpn, &version) && f_.e_.state.lookup(lpn) != kInvalid;
    };
    auto lookup_range = [&](uint32_t lo, uint32_t hi) {  // [lo, hi)
      for (uint32_t lpn = lo; lpn < hi;) {
        const uint32_t seg = lpn / eps, end = std::min(hi, (seg + 1) * eps);
        uint32_t first = kInvalid, n = 0;
        for (uint32_t u = lpn; u < end; ++u)
          if (needs(u)) {
            if (first == kInvalid) first = u;
            n = u - first + 1;
          }
        lpn = end;
        if (first == kInvalid) continue;
        a.clear();
        f_.cache_.read(seg, first, n, a);
        account(seg, true);
      }
    };
    if (cmd.op == IoOp::Read) {
      lookup_range(cmd.lpn, cmd.lpn + cmd.units);
    } else {
      if (cmd.partial & 1) lookup_range(cmd.lpn, cmd.lpn + 1);
      if ((cmd.partial & 2) && !(cmd.units == 1 && (cmd.partial & 1)))
        lookup_range(cmd.lpn + cmd.units - 1, cmd.lpn + cmd.units);
    }
  }
  cmd.path = wrote ? ReadPath::MapWrite : loaded ? ReadPath::MapRead : ReadPath::Buffer;
  if (!waits) return false;
  cmd.pending = waits;
  cmd.map_wait = true;
  return true;
}

// ---------------------------------------------------------------- the job's operations as flash operations

MapWorkQueue::MapWorkQueue(Ftl& f) : f_(f), job_(f.e_, *this) {}

FlashCounters& MapWorkQueue::counters(uint32_t) { return f_.e_.state.counters(); }

uint32_t MapWorkQueue::pick_die(bool paced) {
  // Map pages of the buffer's flushes are paced like the buffer's pages: round robin over the dies that may take a
  // flush now (queue room, and GC credit while they collect), keeping the free block their own GC needs. GC's must
  // go to any die with room (GC must progress for the dies to become ready again), and so do a host read's.
  if (!paced) return f_.ts_->pick_die();
  const uint32_t reserve = f_.e_.state.blocks().gc_reserve();
  return f_.flush_.next_flushable(cursor_, [&](uint32_t d) { return f_.ts_->can_place(d, reserve); });
}

void MapWorkQueue::read(Work* m, uint32_t seg, bool merge) {
  const uint32_t ppa = TranslationStore::page_ppa(f_.ts_->where(seg));
  FlashOp& op = f_.new_op(FlashCmd::Read, f_.g_.die_of(ppa), merge ? kMapMerge : kMapLoad);
  op.block = f_.g_.block_of(ppa);
  op.page = f_.g_.page_of(ppa);
  op.bytes = f_.ts_->segment_bytes();
  op.read_kind = ReadKind::Map;
  op.owner = m;
  f_.send(op);
}

void MapWorkQueue::program(Work* m, uint32_t die, uint32_t ppa) {
  FlashOp& op = map_page_op(die, ppa, kMapWrite, UnitKind::MD);
  op.owner = m;
  if (f_.e_.gc.die(die).active) f_.e_.gc.die(die).credit -= 1.0;
  f_.send(op);
  f_.gc_.kick(die);
  f_.flush_.refresh(die);
}

void MapWorkQueue::landed(uint32_t die) {
  f_.gc_.kick(die);
  f_.flush_.refresh(die);
}

FlashOp& MapWorkQueue::map_page_op(uint32_t die, uint32_t ppa, FtlOpTag tag, UnitKind kind) {
  FlashOp& op = f_.new_op(FlashCmd::Program, die, tag);
  op.block = f_.g_.block_of(ppa);
  op.page = f_.g_.page_of(ppa);
  op.kind = kind;
  op.stream = 0;  // map pages belong to no data stream (their kind says what they are)
  std::fill(op.lpn, op.lpn + f_.g_.units_per_page, kInvalid);  // map pages carry no user units
  std::fill(op.version, op.version + f_.g_.units_per_page, 0u);
  return op;
}

void MapWorkQueue::stalled_gc(uint32_t die) {
  if (std::find(gc_stalled_.begin(), gc_stalled_.end(), die) == gc_stalled_.end()) gc_stalled_.push_back(die);
}

std::string MapWorkQueue::describe() const {
  return "map loads in flight: " + std::to_string(job_.loads_in_flight()) +
         ", map write-backs waiting for a die: " + std::to_string(job_.writes_queued()) +
         ", dies whose map GC copies wait: " + std::to_string(gc_stalled_.size());
}

void MapWorkQueue::retry() {
  if (in_retry_) return;
  in_retry_ = true;
  job_.retry();
  std::vector<uint32_t> stalled;
  stalled.swap(gc_stalled_);  // gc_advance may stall again and append
  for (uint32_t d : stalled) f_.gc_.advance(d);
  in_retry_ = false;
}

// ---------------------------------------------------------------- completions, routed by FtlOpTag

void MapWorkQueue::on_op(FlashOp& op) {
  Work* m = static_cast<Work*>(op.owner);
  if (FtlOpTag(op.tag) == kMapWrite)
    job_.on_program(m, f_.g_.ppa(op.die, op.block, op.page), op.done_ps);
  else
    job_.on_read(m, op.done_ps);
}

void MapWorkQueue::done(const Waiter& w, uint64_t done_ps) {
  switch (w.kind) {
    case Waiter::Cmd: {
      auto& cmd = *static_cast<NvmeCommand*>(w.p);
      cmd.ready_ps = std::max(cmd.ready_ps, done_ps);
      if (--cmd.pending) return;
      cmd.map_wait = false;
      f_.host_.start(cmd);
    } break;
    case Waiter::Flush: {
      auto& op = *static_cast<FlashOp*>(w.p);
      if (--op.waits || !op.done_ps) return;  // the program itself has not landed yet
      f_.flush_.release(op);
      op.payload->release();
    } break;
    case Waiter::Gc:
      --f_.e_.gc.die(w.die).map_updates;
      f_.gc_.advance(w.die);
      break;
  }
}

}  // namespace ssdtlm
