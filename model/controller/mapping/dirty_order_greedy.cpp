// map.dirty_victim=greedy: the segment with the most dirty entries. Segments with dirty entries sit in buckets by
// their count (intrusive lists); the highest non-empty bucket is tracked with a pointer that rises by at most one
// per recorded entry, so the choice is amortised O(1).
#include "controller/mapping/dirty_order.h"
#include "controller/snapshot/snapshot_archive.h"
#include "flash/geometry.h"

namespace ssdtlm {
namespace {

class GreedyDirty final : public DirtyOrder {
 public:
  GreedyDirty(uint32_t segments, uint32_t entries_per_segment)
      : bucket_head_(entries_per_segment + 1, kInvalid), bprev_(segments, kInvalid), bnext_(segments, kInvalid) {}

  void updated(uint32_t seg, uint32_t before, uint32_t after) override {
    if (after == before) return;
    if (before) unlink(seg, before);
    link(seg, after);
  }
  uint32_t take_victim() override {
    while (bucket_head_[top_] == kInvalid) --top_;
    const uint32_t victim = bucket_head_[top_];
    unlink(victim, top_);
    return victim;
  }
  uint32_t segments() const override { return dirty_segs_; }
  size_t memory_bytes() const override { return (bucket_head_.capacity() + bprev_.capacity() + bnext_.capacity()) * 4; }
  void snapshot(SnapshotArchive& a) override { a.io_all(bucket_head_, bprev_, bnext_, top_, dirty_segs_); }

 private:
  void link(uint32_t seg, uint32_t count) {
    bprev_[seg] = kInvalid;
    bnext_[seg] = bucket_head_[count];
    if (bnext_[seg] != kInvalid) bprev_[bnext_[seg]] = seg;
    bucket_head_[count] = seg;
    if (count > top_) top_ = count;
    ++dirty_segs_;
  }
  void unlink(uint32_t seg, uint32_t count) {
    (bprev_[seg] == kInvalid ? bucket_head_[count] : bnext_[bprev_[seg]]) = bnext_[seg];
    if (bnext_[seg] != kInvalid) bprev_[bnext_[seg]] = bprev_[seg];
    --dirty_segs_;
  }

  std::vector<uint32_t> bucket_head_, bprev_, bnext_;
  uint32_t top_ = 0;
  uint32_t dirty_segs_ = 0;
};

}  // namespace

std::unique_ptr<DirtyOrder> make_dirty_order_greedy(uint32_t segments, uint32_t entries_per_segment) {
  return std::make_unique<GreedyDirty>(segments, entries_per_segment);
}

}  // namespace ssdtlm
