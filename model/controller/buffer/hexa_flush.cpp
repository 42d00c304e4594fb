// HEXA flushing (seed 000): the buffer leaves one map segment at a time, so the units that share a
// segment reach flash together and the segment is written back once for all of them.
//
// Dirty units are grouped by map segment (an intrusive list per group, in arrival order). The next group
// is, in this order: the group of the oldest buffered unit if that unit is older than buffer.max_age_ms
// (nothing starves); else a group whose segment is already dirty in the map cache (its update costs no
// new dirty segment); among those, and among the others, the largest group; ties go to the group that
// became non-empty first. A chosen group is flushed to its last unit (its units may span several flash
// pages) before the next choice. An overwrite of a buffered unit is absorbed in place and keeps its
// position; a trimmed unit is still popped (the buffer frees it).
//
// Cost: the groups other than the one being flushed are ordered in a balanced tree keyed (segment not
// dirty, -size, first arrival, segment), updated when a unit joins such a group, when a group is chosen
// or left, and when its segment turns dirty or clean: O(log G) for G groups. Taking units from the
// current group touches no tree. The age check pops stale entries off an arrival-order queue:
// amortised O(1).
#include <deque>
#include <set>
#include <vector>

#include "controller/buffer/flush_policy.h"
#include "controller/mapping/map_cache.h"
#include "flash/geometry.h"

namespace ssdtlm {
namespace {

class HexaFlush : public FlushPolicy, public SegmentObserver {
 public:
  explicit HexaFlush(const FlushContext& c)
      : eps_(c.entries_per_segment),
        max_age_(c.max_age_ps),
        cache_(c.cache),
        groups_(c.segments),
        next_(c.capacity_units, kInvalid),
        seg_(c.capacity_units, kInvalid),
        seq_(c.capacity_units, 0),
        time_(c.capacity_units, 0) {
    if (cache_) cache_->set_observer(this);  // the cache outlives the buffer in every platform
  }

  void on_dirty(uint32_t slot, uint32_t lpn, uint64_t now) override {
    const uint32_t s = lpn / eps_;
    Group& g = groups_[s];
    const bool ordered = s != cur_;  // the group being flushed is out of the order until it is left
    if (g.count == 0)
      g.first = counter_ + 1;
    else if (ordered)
      order_.erase(key(s));
    if (cache_) g.dirty = cache_->segment_dirty(s);
    next_[slot] = kInvalid;
    (g.count ? next_[g.tail] : g.head) = slot;
    g.tail = slot;
    ++g.count;
    if (ordered) order_.insert(key(s));
    seg_[slot] = s;
    seq_[slot] = ++counter_;
    time_[slot] = now;
    arrivals_.push_back(Arrival{slot, counter_});
  }

  uint32_t pop(uint64_t now) override {
    while (!arrivals_.empty() && seq_[arrivals_.front().slot] != arrivals_.front().seq) arrivals_.pop_front();
    uint32_t next = cur_ != kInvalid && groups_[cur_].count ? cur_ : kInvalid;
    if (!arrivals_.empty() && now > time_[arrivals_.front().slot] + max_age_) {
      const uint32_t s = seg_[arrivals_.front().slot];  // the oldest unit's group goes first (it is its head)
      if (s != next) ++aged_;
      next = s;
    } else if (next == kInvalid) {
      if (order_.empty()) return kInvalid;
      next = order_.begin()->seg;
    }
    if (next != cur_) {  // leave the current group (back into the order if it still has units), take the next
      if (cur_ != kInvalid && groups_[cur_].count) order_.insert(key(cur_));
      order_.erase(key(next));
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

  void segment_dirty(uint32_t s, bool dirty) override {
    if (s >= groups_.size() || groups_[s].dirty == dirty) return;
    Group& g = groups_[s];
    const bool ordered = g.count && s != cur_;
    if (ordered) order_.erase(key(s));
    g.dirty = dirty;
    if (ordered) order_.insert(key(s));
  }

  size_t memory_bytes() const override {
    return groups_.capacity() * sizeof(Group) + (next_.capacity() + seg_.capacity()) * 4 +
           (seq_.capacity() + time_.capacity()) * 8 + order_.size() * 64 + arrivals_.size() * sizeof(Arrival);
  }

 private:
  struct Group {
    uint32_t head = kInvalid, tail = kInvalid, count = 0;
    uint64_t first = 0;  // arrival number of the unit that made the group non-empty
    bool dirty = false;  // its segment is dirty in the map cache
  };
  struct Key {
    bool clean;
    uint32_t neg_count;
    uint64_t first;
    uint32_t seg;
    bool operator<(const Key& o) const {
      if (clean != o.clean) return !clean;
      if (neg_count != o.neg_count) return neg_count < o.neg_count;
      if (first != o.first) return first < o.first;
      return seg < o.seg;
    }
  };
  struct Arrival {
    uint32_t slot;
    uint64_t seq;
  };
  Key key(uint32_t s) const {
    const Group& g = groups_[s];
    return Key{!g.dirty, ~g.count, g.first, s};
  }

  uint32_t eps_;
  uint64_t max_age_;
  MapCache* cache_;
  std::vector<Group> groups_;   // per map segment
  std::vector<uint32_t> next_;  // per slot: next slot of its group
  std::vector<uint32_t> seg_;   // per slot: its group
  std::vector<uint64_t> seq_;   // per slot: arrival number while dirty, 0 once popped
  std::vector<uint64_t> time_;  // per slot: when it became dirty
  std::set<Key> order_;
  std::deque<Arrival> arrivals_;  // arrival order, stale entries skipped lazily
  uint64_t counter_ = 0;
  uint32_t cur_ = kInvalid;     // the group being flushed
  uint64_t aged_ = 0;
};

}  // namespace

std::unique_ptr<FlushPolicy> make_hexa_flush(const FlushContext& c) { return std::make_unique<HexaFlush>(c); }

}  // namespace ssdtlm
