// The FTL's map-work queue (ftl_parts.h): the map cache on the timing path. Every map access asks the cache (mapping/) what it
// needs; a miss becomes a segment read (tR + data-out of segment_bytes), a dirty write-back a map page
// program (MD), and the access waits for them: a host read before its data reads, a flush before its
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
    const uint32_t n = issue(a, seg, needs_seg, w);
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
      return !f_.buffer_->lookup(lpn, &version) && f_.ftl_.lookup(lpn) != kInvalid;
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

void MapWorkQueue::updates(const uint32_t* lpns, uint32_t n, const Waiter& w, uint32_t* waits, bool gc) {
  f_.ftl_.map_write(lpns, n, [&](uint32_t seg, const MapAccess& a) {
    *waits += issue(a, seg, f_.cache_.write_needs_segment(), w);
  }, gc);
}

void MapWorkQueue::gc_moves(uint32_t die, uint32_t* waits) {
  const Waiter w{Waiter::Gc, nullptr, die};
  // Batch updates of uncached segments are gathered into map pages of up to segments_per_page segments (the
  // fast-forward packs its write-backs differently: one pool across accesses, newest first; issue 46): each segment
  // is read and merged, and the page is written once all of them are.
  const uint32_t k = f_.ts_->segments_per_page();
  uint32_t group[kMaxGather], n = 0;
  auto flush_group = [&] {
    if (!n) return;
    MapWork* m = new_work(w);
    m->nwb = n;
    std::copy(group, group + n, m->wb);
    for (uint32_t i = 0; i < n; ++i)
      if (f_.ts_->where(group[i]) != TranslationStore::kNowhere) ++m->merges;
    const uint32_t reads = m->merges;
    for (uint32_t i = 0; i < n && reads; ++i)
      if (f_.ts_->where(group[i]) != TranslationStore::kNowhere) issue_read(m, group[i], kMapMerge);
    if (!reads) issue_write_back(m, m->wb, n);
    ++*waits;
    n = 0;
  };
  f_.ftl_.gc().take_moves(die, [&](std::vector<uint32_t>& lpns) {
    f_.ftl_.map_gc_batch(lpns, [&](uint32_t seg, const MapAccess& a) {
      if (a.merge != kInvalid && a.load == kInvalid && a.nwb == 1 && a.wb[0] == a.merge) {  // read-modify-write
        if (f_.cache_.write_needs_segment() && loading_[seg]) {  // a load of it still in flight (as issue)
          loading_[seg]->waiters.push_back(w);
          ++*waits;
        }
        group[n++] = a.merge;
        if (n == k) flush_group();
        return;
      }
      *waits += issue(a, seg, f_.cache_.write_needs_segment(), w);
    });
  });
  flush_group();
}

// ---------------------------------------------------------------- map flash operations

MapWorkQueue::MapWork* MapWorkQueue::new_work(const Waiter& w) {
  MapWork* m = free_;
  if (m) {
    free_ = m->next_free;
  } else {
    store_.push_back(std::make_unique<MapWork>());
    m = store_.back().get();
  }
  m->waiters.clear();
  m->waiters.push_back(w);
  m->seg = kInvalid;
  m->nwb = 0;
  m->merges = 0;
  m->next_free = nullptr;
  return m;
}

uint32_t MapWorkQueue::issue(const MapAccess& a, uint32_t seg, bool needs_seg, const Waiter& w) {
  if (!f_.ts_) return 0;
  uint32_t waits = 0;
  if (a.load != kInvalid) {
    if (f_.ts_->where(a.load) != TranslationStore::kNowhere) {  // a never-written segment is made in DRAM
      MapWork* m = new_work(w);
      m->seg = a.load;
      loading_[a.load] = m;
      issue_read(m, a.load, kMapLoad);
      ++waits;
    }
  } else if (needs_seg && loading_[seg]) {  // cached, but its load is still in flight
    loading_[seg]->waiters.push_back(w);
    ++waits;
  }
  if (a.nwb) {
    MapWork* m = new_work(w);
    if (a.merge != kInvalid && f_.ts_->where(a.merge) != TranslationStore::kNowhere) {
      m->nwb = a.nwb;
      m->merges = 1;
      std::copy(a.wb, a.wb + a.nwb, m->wb);
      issue_read(m, a.merge, kMapMerge);  // read, merge, then write back (on_map_op)
    } else {
      issue_write_back(m, a.wb, a.nwb);
    }
    ++waits;
  }
  return waits;
}

void MapWorkQueue::issue_read(MapWork* work, uint32_t seg, FtlOpTag tag) {
  const uint32_t ppa = TranslationStore::page_ppa(f_.ts_->where(seg));
  FlashOp& op = f_.new_op(FlashCmd::Read, f_.g_.die_of(ppa), tag);
  op.block = f_.g_.block_of(ppa);
  op.page = f_.g_.page_of(ppa);
  op.bytes = f_.ts_->segment_bytes();
  op.read_kind = ReadKind::Map;
  op.owner = work;
  ++f_.ftl_.counters().reads[uint32_t(ReadKind::Map)];
  f_.send(op);
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

MapWorkQueue::MapWorkQueue(Ftl& f) : f_(f) {
  if (f.ts_) loading_.assign(f.ts_->segments(), nullptr);
}

void MapWorkQueue::stalled_gc(uint32_t die) {
  if (std::find(gc_stalled_.begin(), gc_stalled_.end(), die) == gc_stalled_.end()) gc_stalled_.push_back(die);
}

std::string MapWorkQueue::describe() const {
  uint32_t loads = 0, queued = 0;
  for (const MapWork* m : loading_) loads += m != nullptr;
  for (const WbQueue& q : wb_)
    for (const MapWork* m = q.head; m; m = m->next_free) ++queued;
  return "map loads in flight: " + std::to_string(loads) + ", map write-backs waiting for a die: " +
         std::to_string(queued) + ", dies whose map GC copies wait: " + std::to_string(gc_stalled_.size());
}

uint32_t MapWorkQueue::pick_die() {
  // Map pages are paced like the buffer's pages: round robin over the dies that may take a flush now
  // (queue room, and GC credit while they collect), keeping the free block their own GC needs.
  const uint32_t reserve = f_.ftl_.blocks().gc_reserve();
  return f_.flush_.next_flushable(cursor_, [&](uint32_t d) { return f_.ts_->can_place(d, reserve); });
}

void MapWorkQueue::issue_write_back(MapWork* work, const uint32_t* segs, uint32_t n) {
  // Only the buffer's write-backs are paced: GC must progress for the dies to become ready again, and a
  // host read that evicts a dirty segment writes it to any die with room, as DFTL would.
  const uint32_t die = paced(work) ? pick_die() : f_.ts_->pick_die();
  if (die == kInvalid) {
    // No die may take a page now (all are collecting or short of blocks): the write-back, and whoever
    // waits for it, waits for a die to become ready (retry). The segments stay dirty in DRAM.
    if (work->wb != segs) std::copy(segs, segs + n, work->wb);
    work->nwb = n;
    work->next_free = nullptr;
    work->seq = ++wb_seq_;
    WbQueue& q = wb_[paced(work) ? 0 : 1];
    (q.tail ? q.tail->next_free : q.head) = work;
    q.tail = work;
    return;
  }
  FlashOp& op = map_page_op(die, f_.ts_->place(die, segs, n), kMapWrite, UnitKind::MD);
  ++f_.ftl_.counters().programs[uint32_t(UnitKind::MD)];
  op.owner = work;
  if (f_.ftl_.gc().die(die).active) f_.ftl_.gc().die(die).credit -= 1.0;
  f_.send(op);
  f_.gc_.kick(die);
  f_.flush_.refresh(die);
}

bool MapWorkQueue::die_for(const MapWork* m) { return (paced(m) ? pick_die() : f_.ts_->pick_die()) != kInvalid; }

void MapWorkQueue::retry() {
  if (in_retry_) return;
  in_retry_ = true;
  // The oldest queued write-back first, as long as a die may take it; when it may not, the other queue's head
  // may still go (a die with room for GC's map page while no die may take a flush).
  for (;;) {
    const bool older_paced = wb_[0].head && (!wb_[1].head || wb_[0].head->seq < wb_[1].head->seq);
    WbQueue* q = nullptr;
    for (uint32_t k : {older_paced ? 0u : 1u, older_paced ? 1u : 0u})
      if (wb_[k].head && die_for(wb_[k].head)) {
        q = &wb_[k];
        break;
      }
    if (!q) break;
    MapWork* m = q->head;
    q->head = m->next_free;
    if (!q->head) q->tail = nullptr;
    issue_write_back(m, m->wb, m->nwb);
  }
  std::vector<uint32_t> stalled;
  stalled.swap(gc_stalled_);  // gc_advance may stall again and append
  for (uint32_t d : stalled) f_.gc_.advance(d);
  in_retry_ = false;
}

void MapWorkQueue::on_op(FlashOp& op) {
  MapWork* m = static_cast<MapWork*>(op.owner);
  switch (FtlOpTag(op.tag)) {
    case kMapLoad:
      if (loading_[m->seg] == m) loading_[m->seg] = nullptr;
      break;
    case kMapMerge:
      if (--m->merges) return;  // a gathered batch update: its other segments are still being read
      issue_write_back(m, m->wb, m->nwb);  // the same waiters wait for the write-back
      return;
    default:  // kMapWrite
      f_.ftl_.blocks().page_done(op.die * f_.g_.blocks_per_die + op.block);
      f_.gc_.kick(op.die);
      f_.flush_.refresh(op.die);
      break;
  }
  for (size_t i = 0; i < m->waiters.size(); ++i) {
    const Waiter w = m->waiters[i];
    if (w.kind == Waiter::Cmd) {
      auto& cmd = *static_cast<NvmeCommand*>(w.p);
      cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
    }
    waiter_done(w);
  }
  m->next_free = free_;
  free_ = m;
}

void MapWorkQueue::waiter_done(const Waiter& w) {
  switch (w.kind) {
    case Waiter::Cmd: {
      auto& cmd = *static_cast<NvmeCommand*>(w.p);
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
      --f_.ftl_.gc().die(w.die).map_updates;
      f_.gc_.advance(w.die);
      break;
  }
}

}  // namespace ssdtlm
