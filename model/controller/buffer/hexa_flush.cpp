// HEXA flushing (seed 000): the buffer leaves one map segment at a time, so the units that share a
// segment reach flash together and the segment is written back once for all of them.
//
// Dirty units are grouped by map segment (an intrusive list per group, in arrival order). The map's
// dirty-segment budget is MapCache::dirty_budget(): the page map's map.dirty_limit (all segments when the
// map is fully protected), 0 for demand-based schemes (an update of an uncached segment may always cost
// flash work). The budget BINDS when the cache holds at least that many dirty segments and some buffered
// unit's segment is not dirty: then some choice would force a map write-back and the order matters. Each
// pop takes, in this order:
//  1. the oldest buffered unit, if it is older than buffer.max_age_ms (nothing starves); its group then
//     continues as in 3;
//  2. if the budget does not bind: the oldest buffered unit (the head of its group). This is arrival order,
//     FIFO's order unit by unit: no flush can cost a write-back, so there is nothing to group for;
//  3. if it binds: the group chosen by the last pop of this kind, until it is empty; when it is, the group
//     chosen by, in order: its segment is already dirty (no new dirty segment, hence no write-back), the
//     larger group, the group whose oldest buffered unit is older (ties in arrival order).
// buffer.policy=hexa_always (issue 43): the paper's HEXA, which reorders whether or not the budget binds (its
// evaluation finds the reordering itself costs GC copies at high protection, by mixing lifetimes): step 2 never
// applies, every pop chooses as in 3.
// No cache (unit tests) means no budget: arrival order (hexa_always: still grouped, every segment clean). An overwrite of a buffered unit is absorbed in place
// and keeps its position; a trimmed unit is still popped (the buffer frees it).
//
// Cost: the groups other than the one being flushed are ordered by the key (segment not dirty, -size,
// arrival number of its head, segment) in an indexed heap (common/indexed_heap.h: the least key is the one
// a sorted set would give first), updated when a unit joins such a group, when a group is chosen or left,
// and when its segment turns dirty or clean: O(log G) for G groups, no allocation. A group's head only
// changes while it is the current group (out of the heap), so its key stays valid there. Whether the
// budget binds is O(1): the cache's dirty-segment count against its budget, the current group's dirty flag
// and the count of clean groups in the heap. The oldest unit is found by popping stale entries off an
// arrival-order queue: amortised O(1). The firmware's time for this work (order_steps) is a balanced tree's
// depth, as the paper's firmware would keep it; the heap is only how the model computes the same order.
#include <deque>
#include <vector>

#include "common/indexed_heap.h"
#include "controller/buffer/buffer_cost.h"
#include "controller/buffer/flush_policy.h"
#include "controller/mapping/map_cache.h"
#include "flash/geometry.h"

namespace ssdtlm {
namespace {

class HexaFlush : public FlushPolicy, public SegmentObserver {
 public:
  HexaFlush(const FlushContext& c, bool always)
      : always_(always),
        eps_(c.entries_per_segment),
        max_age_(c.max_age_ps),
        cache_(c.cache),
        budget_(c.cache ? c.cache->dirty_budget() : 0),
        groups_(c.segments),
        next_(c.capacity_units, kInvalid),
        seg_(c.capacity_units, kInvalid),
        seq_(c.capacity_units, 0),
        time_(c.capacity_units, 0),
        order_(c.segments) {
    if (cache_) cache_->set_observer(this);  // the cache outlives the buffer in every platform
  }

  void on_dirty(uint32_t slot, uint32_t lpn, uint64_t now) override {
    const uint32_t s = lpn / eps_;
    Group& g = groups_[s];
    const bool ordered = s != cur_;  // the group being flushed is out of the order until it is left
    if (cache_) g.dirty = cache_->segment_dirty(s);
    next_[slot] = kInvalid;
    (g.count ? next_[g.tail] : g.head) = slot;
    g.tail = slot;
    ++g.count;
    seg_[slot] = s;
    seq_[slot] = ++counter_;  // before key(s): a new group's head is this slot
    time_[slot] = now;
    if (ordered) order_put(s);  // a new group, or its key changes with its size (its head stays)
    arrivals_.push_back(Arrival{slot, counter_});
  }

  uint32_t pop(uint64_t now) override {
    while (!arrivals_.empty() && seq_[arrivals_.front().slot] != arrivals_.front().seq) arrivals_.pop_front();
    if (arrivals_.empty()) return kInvalid;  // every dirty unit has an arrival entry
    const uint32_t oldest = arrivals_.front().slot, s0 = seg_[oldest];
    const bool cur_left = cur_ != kInvalid && groups_[cur_].count;
    uint32_t next;
    if (!binds(cur_left)) {  // 2 (and 1: the oldest unit is taken anyway)
      next = s0;
      batch_ = false;
    } else if (batch_ && cur_left) {  // 3: the chosen group continues
      next = cur_;
    } else {  // 3: a new choice, the current group (if it still has units) competing with the others
      next = order_.empty() || (cur_left && key(cur_) < order_.top_key()) ? cur_ : order_.top_id();
      batch_ = true;
    }
    if (now > time_[oldest] + max_age_ && next != s0) {  // 1
      ++aged_;
      next = s0;
      batch_ = true;
    }
    if (next != cur_) {  // leave the current group (back into the order if it still has units), take the next
      if (cur_left) order_put(cur_);
      order_remove(next);
      cur_ = next;
    }
    Group& g = groups_[cur_];
    const uint32_t slot = g.head;
    g.head = next_[slot];
    if (--g.count == 0) g.head = g.tail = kInvalid;
    seq_[slot] = 0;  // no longer buffered-dirty: its arrival entry is stale
    return slot;
  }

  uint64_t aged_picks() const override { return aged_; }
  uint32_t order_steps() const override { return tree_steps(order_.size()); }  // the group tree's depth

  void segment_dirty(uint32_t s, bool dirty) override {
    if (s >= groups_.size() || groups_[s].dirty == dirty) return;
    Group& g = groups_[s];
    const bool ordered = g.count && s != cur_;
    g.dirty = dirty;
    if (ordered) order_put(s);
  }

  size_t memory_bytes() const override {
    return groups_.capacity() * sizeof(Group) + (next_.capacity() + seg_.capacity()) * 4 +
           (seq_.capacity() + time_.capacity()) * 8 + order_.memory_bytes() + arrivals_.size() * sizeof(Arrival);
  }

 private:
  struct Group {
    uint32_t head = kInvalid, tail = kInvalid, count = 0;
    bool dirty = false;  // its segment is dirty in the map cache
  };
  struct Key {
    uint64_t rank;  // (segment not dirty) << 32 | ~size: dirty groups first, then the larger
    uint64_t head_seq;
    uint32_t seg;
    bool clean() const { return rank >> 32; }
    bool operator<(const Key& o) const {
      if (rank != o.rank) return rank < o.rank;
      if (head_seq != o.head_seq) return head_seq < o.head_seq;
      return seg < o.seg;
    }
  };
  struct Arrival {
    uint32_t slot;
    uint64_t seq;
  };
  Key key(uint32_t s) const {
    const Group& g = groups_[s];
    return Key{uint64_t(!g.dirty) << 32 | ~g.count, seq_[g.head], s};
  }
  // Group s enters the order or takes its current key there.
  void order_put(uint32_t s) {
    const Key k = key(s);
    if (order_.contains(s)) {
      clean_ordered_ -= order_.key(s).clean();
      order_.update(s, k);
    } else {
      order_.push(s, k);
    }
    clean_ordered_ += k.clean();
  }
  void order_remove(uint32_t s) {
    if (!order_.contains(s)) return;
    clean_ordered_ -= order_.key(s).clean();
    order_.erase(s);
  }
  // Does the budget bind: is the cache at its dirty budget with a buffered group whose segment is clean
  // (the current group, or one in the order)?
  bool binds(bool cur_left) const {
    if (always_) return true;
    if (!cache_ || cache_->dirty_segments() < budget_) return false;
    return (cur_left && !groups_[cur_].dirty) || clean_ordered_ > 0;
  }

  bool always_;                 // hexa_always: group whether or not the budget binds
  uint32_t eps_;
  uint64_t max_age_;
  MapCache* cache_;
  uint32_t budget_;             // MapCache::dirty_budget()
  std::vector<Group> groups_;   // per map segment
  std::vector<uint32_t> next_;  // per slot: next slot of its group
  std::vector<uint32_t> seg_;   // per slot: its group
  std::vector<uint64_t> seq_;   // per slot: arrival number while dirty, 0 once popped
  std::vector<uint64_t> time_;  // per slot: when it became dirty
  IndexedMinHeap<Key> order_;  // the groups with buffered units, but the current one
  uint32_t clean_ordered_ = 0;  // of them, those whose segment is clean
  std::deque<Arrival> arrivals_;  // arrival order, stale entries dropped lazily
  uint64_t counter_ = 0;
  uint32_t cur_ = kInvalid;     // the group being flushed
  bool batch_ = false;          // cur_ was chosen under a binding budget (or by the age bound): it continues
  uint64_t aged_ = 0;
};

}  // namespace

std::unique_ptr<FlushPolicy> make_hexa_flush(const FlushContext& c) { return std::make_unique<HexaFlush>(c, false); }
std::unique_ptr<FlushPolicy> make_hexa_always_flush(const FlushContext& c) { return std::make_unique<HexaFlush>(c, true); }

}  // namespace ssdtlm
