// FIFO (oldest-written-first) victim selection, the cleaning order of a log-structured store.
// Equals greedy in the large-block limit under uniform writes (Desnoyers, SYSTOR'12).
#include <deque>
#include <vector>

#include "controller/gc/victim_policy.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {
namespace {

class FifoVictim : public VictimPolicy {
 public:
  explicit FifoVictim(const Geometry& g) : g_(g), queues_(g.dies), removed_(size_t(g.dies) * g.blocks_per_die, 0) {}
  void insert(uint32_t b, uint32_t) override {
    removed_[b] = 0;
    queues_[g_.die_of_gblock(b)].push_back(b);
  }
  // Lazily: a removed block leaves its queue when it reaches the head.
  void remove(uint32_t b) override { removed_[b] = 1; }
  void update(uint32_t, uint32_t, uint32_t) override {}
  size_t memory_bytes() const override {
    size_t n = 0;
    for (const auto& q : queues_) n += sizeof(q) + q.size() * sizeof(uint32_t);
    return n;
  }
  uint32_t peek(uint32_t die) override {
    drop_removed(die);
    return queues_[die].empty() ? kInvalid : queues_[die].front();
  }
  uint32_t pick(uint32_t die) override {
    drop_removed(die);
    auto& q = queues_[die];
    if (q.empty()) return kInvalid;
    uint32_t b = q.front();
    q.pop_front();
    return b;
  }

  void snapshot(SnapshotArchive& a) override { a.io_all(queues_, removed_); }

 private:
  void drop_removed(uint32_t die) {
    auto& q = queues_[die];
    while (!q.empty() && removed_[q.front()]) {
      removed_[q.front()] = 0;
      q.pop_front();
    }
  }
  const Geometry& g_;
  std::vector<std::deque<uint32_t>> queues_;
  std::vector<uint8_t> removed_;  // per block
};

}  // namespace

std::unique_ptr<VictimPolicy> make_fifo_victim(const Geometry& g) { return std::make_unique<FifoVictim>(g); }

}  // namespace ssdtlm
