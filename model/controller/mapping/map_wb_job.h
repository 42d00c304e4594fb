// The map write-back job: the one sequencing of a demand-based FTL's map work, run by the timed FTL and by the
// fast-forward alike. The map cache (map_cache.h) decides what an access needs (a segment load, a merge read, the
// dirty segments that go, in the scheme's order: map.dirty_victim); the job turns that into operations: the load
// read, and the write-back as one map page per access (MapAccess::nwb segments, after the merge read when there is
// one); GC's batch updates (map.gc_update=victim) of uncached segments gathered segments_per_page to a page, each
// segment read and merged first. A page goes to the die the executor picks: the translation store packs the
// segments into it and updates the GTD (TranslationStore::place), the program is counted (MD) and issued; a
// write-back that finds no die waits, in arrival order, and is retried (retry). Waiters (who waits for a map
// operation) are the executor's; the job keeps them with the operation and hands them back when it is done.
// X is a final class (no virtual call per operation):
// - timed (controller/ftl_map.cpp, MapWorkQueue): reads and programs through the FTL module's sockets, completions at
//   their simulated times; write-backs of the buffer's flushes paced like the flushes; retried when a die may take a
//   page again;
// - immediate (controller/fast_forward.cpp, FfMapExec): done at once on the die model, counters per die, the
//   completion called before the operation returns; retried after the host page, collecting GC when no die has room.
//
// Executor interface (X, with W its waiter type):
//   FlashCounters& counters(uint32_t die);
//   bool paced(const W&);              a write-back for this waiter is paced like the buffer's flushes
//   uint32_t pick_die(bool paced);     the die to take a map page now; kInvalid: none may
//   void read(MapWork<W>*, seg, merge) -> job.on_read(work, done_ps)  (a load, or a merge read before a write-back)
//   void program(MapWork<W>*, die, ppa) -> job.on_program(work, ppa, done_ps)  (a map page, UnitKind::MD)
//   void landed(uint32_t die);         a map page landed on die (timed: GC and flush pacing look again)
//   void done(const W&, done_ps);      the waiter's operation is done
#pragma once
#include <algorithm>
#include <memory>
#include <vector>

#include "controller/drive_state.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_engine.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/translation_store.h"
#include "flash/flash_op.h"

namespace ssdtlm {

// One map flash operation in flight (a segment load, a merge read, a write-back) and who waits for it.
template <class W>
struct MapWork {
  std::vector<W> waiters;
  uint32_t seg = kInvalid;  // load: the segment arriving
  uint32_t nwb = 0;         // the segments to write back (after the merge reads)
  uint32_t merges = 0;      // merge reads still in flight (a GC batch update gathers several segments)
  uint32_t wb[kMaxGather];
  MapWork* next = nullptr;  // free list, or the write-back queue it waits in
  uint64_t seq = 0;         // queued write-backs: arrival order across both queues
};

template <class X, class W>
class MapWbJob {
 public:
  using Work = MapWork<W>;
  MapWbJob(const FtlEngines& e, X& x) : e_(e), ts_(e.translation), g_(e.state.geometry()), x_(x) {
    if (ts_) loading_.assign(ts_->segments(), nullptr);
  }

  // One access's flash work (the cache's answer a for segment seg): its load, or a wait for a load in flight when
  // the access needs the segment in DRAM (needs_seg), and its write-back. Returns the operations w waits for.
  uint32_t access(const MapAccess& a, uint32_t seg, bool needs_seg, const W& w);
  // Map updates of n units through the cache (MapCache::write_units); *waits counts the operations w waits for.
  // gc: the moves of one GC page (MapCache::gc_write).
  void updates(const uint32_t* lpns, uint32_t n, const W& w, uint32_t* waits, bool gc) {
    e_.map.write_units(lpns, n, [&](uint32_t seg, const MapAccess& a) {
      *waits += access(a, seg, e_.map.write_needs_segment(), w);
    }, gc);
  }
  // map.gc_update=victim: a die's waiting GC moves (GcEngine::take_moves), one batch update per segment.
  void gc_moves(uint32_t die, const W& w, uint32_t* waits);
  void retry();  // write-backs that found no die, oldest first, while a die may take them
  bool writes_waiting() const { return wb_[0].head || wb_[1].head; }
  uint32_t loads_in_flight() const;
  uint32_t writes_queued() const;

  // ---- completions
  void on_read(Work* m, uint64_t done_ps);
  void on_program(Work* m, uint32_t ppa, uint64_t done_ps) {
    e_.state.blocks().page_done(g_.gblock_of(ppa));
    x_.landed(g_.die_of(ppa));
    finish(m, done_ps);
  }

 private:
  struct Queue {
    Work* head = nullptr;
    Work* tail = nullptr;
  };
  bool on_flash(uint32_t seg) const { return ts_->where(seg) != TranslationStore::kNowhere; }
  Work* new_work(const W& w);
  void read(Work* m, uint32_t seg, bool merge) {  // seg is on flash
    ++x_.counters(g_.die_of(TranslationStore::page_ppa(ts_->where(seg)))).reads[uint32_t(ReadKind::Map)];
    x_.read(m, seg, merge);
  }
  // The write-back of m->wb[0..m->nwb) after the segments of segs[0..n) on flash are read and merged.
  void merge_then_write(Work* m, const uint32_t* segs, uint32_t n);
  // One map page, or queued when no die may take it: on the die the executor picks now, or on `die` (retry's).
  void write_back(Work* m, const uint32_t* segs, uint32_t n) {
    write_back_to(m, segs, n, x_.pick_die(x_.paced(m->waiters.front())));
  }
  void write_back_to(Work* m, const uint32_t* segs, uint32_t n, uint32_t die);
  void finish(Work* m, uint64_t done_ps);

  FtlEngines e_;
  TranslationStore* ts_;  // null: the whole map stays in DRAM (no map work)
  const Geometry& g_;
  X& x_;
  std::vector<Work*> loading_;  // per segment: its load in flight, if any
  // Write-backs waiting for a die with room, FIFO: [0] the paced ones (like the buffer's flushes), [1] the others
  // (GC's and host reads', any die with room). Two queues, so that a paced write-back held back by the flush pacing
  // never holds back GC's own map updates, which the pacing waits for.
  Queue wb_[2];
  uint64_t wb_seq_ = 0;
  bool in_retry_ = false;
  std::vector<std::unique_ptr<Work>> store_;
  Work* free_ = nullptr;
};

// ---------------------------------------------------------------- accesses

template <class X, class W>
uint32_t MapWbJob<X, W>::access(const MapAccess& a, uint32_t seg, bool needs_seg, const W& w) {
  if (!ts_) return 0;
  uint32_t waits = 0;
  if (a.load != kInvalid) {
    if (on_flash(a.load)) {  // a never-written segment is made in DRAM
      Work* m = new_work(w);
      m->seg = a.load;
      loading_[a.load] = m;
      ++waits;
      read(m, a.load, false);
    }
  } else if (needs_seg && loading_[seg]) {  // cached, but its load is still in flight
    loading_[seg]->waiters.push_back(w);
    ++waits;
  }
  if (a.nwb) {
    Work* m = new_work(w);
    m->nwb = a.nwb;
    std::copy(a.wb, a.wb + a.nwb, m->wb);
    ++waits;
    const uint32_t merge = a.merge;
    merge_then_write(m, &merge, merge != kInvalid);  // read, merge, then write back (on_read)
  }
  return waits;
}

template <class X, class W>
void MapWbJob<X, W>::gc_moves(uint32_t die, const W& w, uint32_t* waits) {
  // Batch updates of uncached segments are gathered into map pages of up to segments_per_page segments: each
  // segment is read and merged, and the page is written once all of them are.
  const uint32_t k = ts_->segments_per_page();
  uint32_t group[kMaxGather], n = 0;
  auto flush_group = [&] {
    if (!n) return;
    Work* m = new_work(w);
    m->nwb = n;
    std::copy(group, group + n, m->wb);
    n = 0;
    merge_then_write(m, m->wb, m->nwb);
    ++*waits;  // (after the issue, as every access's waits are counted)
  };
  const bool needs_seg = e_.map.write_needs_segment();
  e_.gc.take_moves(die, [&](std::vector<uint32_t>& lpns) {
    e_.map.gc_write_batch(lpns, [&](uint32_t seg, const MapAccess& a) {
      if (a.merge != kInvalid && a.load == kInvalid && a.nwb == 1 && a.wb[0] == a.merge) {  // read-modify-write
        if (needs_seg && loading_[seg]) {  // a load of it still in flight (as access)
          loading_[seg]->waiters.push_back(w);
          ++*waits;
        }
        group[n++] = a.merge;
        if (n == k) flush_group();
        return;
      }
      *waits += access(a, seg, needs_seg, w);
    });
  });
  flush_group();
}

template <class X, class W>
typename MapWbJob<X, W>::Work* MapWbJob<X, W>::new_work(const W& w) {
  Work* m = free_;
  if (m) {
    free_ = m->next;
  } else {
    store_.push_back(std::make_unique<Work>());
    m = store_.back().get();
  }
  m->waiters.clear();
  m->waiters.push_back(w);
  m->seg = kInvalid;
  m->nwb = 0;
  m->merges = 0;
  m->next = nullptr;
  return m;
}

// ---------------------------------------------------------------- write-backs

template <class X, class W>
void MapWbJob<X, W>::merge_then_write(Work* m, const uint32_t* segs, uint32_t n) {
  for (uint32_t i = 0; i < n; ++i) m->merges += on_flash(segs[i]);
  if (!m->merges) {
    write_back(m, m->wb, m->nwb);
    return;
  }
  // (An immediate read completes, and the last one writes back, before read returns: count down what is left.)
  uint32_t left = m->merges;
  for (uint32_t i = 0; left; ++i)
    if (on_flash(segs[i])) {
      --left;
      read(m, segs[i], true);
    }
}

template <class X, class W>
void MapWbJob<X, W>::write_back_to(Work* m, const uint32_t* segs, uint32_t n, uint32_t die) {
  // (A host read that evicts a dirty segment writes it to any die with room, as DFTL would; the buffer's
  // write-backs are paced: the executor says which.)
  if (die == kInvalid) {
    const bool paced = x_.paced(m->waiters.front());
    // No die may take a page now (all are collecting or short of blocks): the write-back, and whoever waits for
    // it, waits for a die to become ready (retry). The segments stay dirty in DRAM.
    if (m->wb != segs) std::copy(segs, segs + n, m->wb);
    m->nwb = n;
    m->next = nullptr;
    m->seq = ++wb_seq_;
    Queue& q = wb_[paced ? 0 : 1];
    (q.tail ? q.tail->next : q.head) = m;
    q.tail = m;
    return;
  }
  const uint32_t ppa = ts_->place(die, segs, n);  // the GTD points the segments at the page
  ++x_.counters(die).programs[uint32_t(UnitKind::MD)];
  x_.program(m, die, ppa);
}

template <class X, class W>
void MapWbJob<X, W>::retry() {
  if (in_retry_) return;
  in_retry_ = true;
  // The oldest queued write-back first, as long as a die may take it; when it may not, the other queue's head
  // may still go (a die with room for GC's map page while no die may take a flush).
  for (;;) {
    const bool older_paced = wb_[0].head && (!wb_[1].head || wb_[0].head->seq < wb_[1].head->seq);
    // The die asked for is the die written: the executor's round robin advances once per page.
    Queue* q = nullptr;
    uint32_t die = kInvalid;
    for (uint32_t k : {older_paced ? 0u : 1u, older_paced ? 1u : 0u})
      if (wb_[k].head && (die = x_.pick_die(x_.paced(wb_[k].head->waiters.front()))) != kInvalid) {
        q = &wb_[k];
        break;
      }
    if (!q) break;
    Work* m = q->head;
    q->head = m->next;
    if (!q->head) q->tail = nullptr;
    write_back_to(m, m->wb, m->nwb, die);
  }
  in_retry_ = false;
}

// ---------------------------------------------------------------- completions

template <class X, class W>
void MapWbJob<X, W>::on_read(Work* m, uint64_t done_ps) {
  if (m->nwb) {  // a merge read
    if (--m->merges) return;  // a gathered batch update: its other segments are still being read
    write_back(m, m->wb, m->nwb);  // the same waiters wait for the write-back
    return;
  }
  if (loading_[m->seg] == m) loading_[m->seg] = nullptr;
  finish(m, done_ps);
}

template <class X, class W>
void MapWbJob<X, W>::finish(Work* m, uint64_t done_ps) {
  for (size_t i = 0; i < m->waiters.size(); ++i) {
    const W w = m->waiters[i];  // (a waiter told may start more map work)
    x_.done(w, done_ps);
  }
  m->next = free_;
  free_ = m;
}

template <class X, class W>
uint32_t MapWbJob<X, W>::loads_in_flight() const {
  uint32_t n = 0;
  for (const Work* m : loading_) n += m != nullptr;
  return n;
}

template <class X, class W>
uint32_t MapWbJob<X, W>::writes_queued() const {
  uint32_t n = 0;
  for (const Queue& q : wb_)
    for (const Work* m = q.head; m; m = m->next) ++n;
  return n;
}

}  // namespace ssdtlm
