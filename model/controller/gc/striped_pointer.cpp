// ftl.write_pointer=striped (and FDP's reclaim units): each frontier has one write pointer per die group that moves
// over the group's dies in turn, channel first (dies are numbered channel-first), for host pages and GC copies
// alike (FEMU bbssd's ssd_advance_write_pointer), so a line's blocks fill evenly (write_pointer.h).
#include "controller/gc/write_pointer.h"

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

namespace {
class StripedPointer final : public WritePointer {
 public:
  explicit StripedPointer(const PointerShape& s)
      : WritePointer(true), frontiers_(s.frontiers), group_dies_(s.group_dies), next_(size_t(s.groups) * s.frontiers) {
    for (size_t i = 0; i < next_.size(); ++i) next_[i] = uint32_t(i / frontiers_) * group_dies_;
  }
  void snapshot(SnapshotArchive& a) override { a.io(next_); }

 private:
  uint32_t pointer_die(uint32_t frontier, uint32_t group) const override {
    return next_[size_t(group) * frontiers_ + frontier];
  }
  void moved(uint32_t die, uint32_t frontier) override {  // on to the group's next die
    const uint32_t group = die / group_dies_, first = group * group_dies_;
    next_[size_t(group) * frontiers_ + frontier] = die + 1 == first + group_dies_ ? first : die + 1;
  }
  uint32_t frontiers_, group_dies_;
  std::vector<uint32_t> next_;  // per (group, frontier): the die of its next page
};
}  // namespace

std::unique_ptr<WritePointer> make_striped_pointer(const PointerShape& shape) {
  return std::make_unique<StripedPointer>(shape);
}

}  // namespace ssdtlm
