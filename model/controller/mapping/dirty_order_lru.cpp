// map.dirty_victim=lru: the segment updated least recently (an intrusive list over the segments, O(1)).
#include "controller/mapping/dirty_order.h"
#include "controller/mapping/lru_list.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {
namespace {

class LruDirty final : public DirtyOrder {
 public:
  LruDirty(uint32_t segments, uint32_t) : recent_(segments) {}

  void updated(uint32_t seg, uint32_t, uint32_t after) override {
    if (!after) return;
    if (recent_.contains(seg)) recent_.touch(seg);
    else recent_.push_front(seg);
  }
  uint32_t take_victim() override {
    const uint32_t victim = recent_.back();
    recent_.remove(victim);
    return victim;
  }
  uint32_t segments() const override { return recent_.size(); }
  size_t memory_bytes() const override { return recent_.memory_bytes(); }
  void snapshot(SnapshotArchive& a) override { a.io_all(recent_); }

 private:
  LruList recent_;
};

}  // namespace

std::unique_ptr<DirtyOrder> make_dirty_order_lru(uint32_t segments, uint32_t entries_per_segment) {
  return std::make_unique<LruDirty>(segments, entries_per_segment);
}

}  // namespace ssdtlm
