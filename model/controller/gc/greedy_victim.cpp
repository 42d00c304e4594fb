// Greedy victim selection: the candidate block with the fewest valid units.
//
// Every invalidation of a full block updates the policy, so that update must touch little memory:
// a dense per-block key (the candidate's valid count) and a per-die histogram of candidates by valid
// count, two cache lines at most. pick() reads the histogram upward from a per-die lower bound to the
// smallest valid count present, then scans the die's keys for a block with that count, starting after
// the die's previous victim so that ties rotate over the blocks. The scan is sequential over
// blocks_per_die keys and happens once per victim, which reclaims a block's worth of invalid units.
#include <algorithm>
#include <vector>

#include "controller/gc/victim_policy.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {
namespace {

class GreedyVictim : public VictimPolicy {
 public:
  explicit GreedyVictim(const Geometry& g)
      : g_(g),
        row_(g.units_per_block + 1),
        key_(size_t(g.dies) * g.blocks_per_die, kInvalid),
        count_(size_t(g.dies) * row_, 0),
        low_(g.dies, 0),
        cursor_(g.dies, 0) {}

  void insert(uint32_t b, uint32_t valid) override {
    key_[b] = valid;
    const uint32_t die = g_.die_of_gblock(b);
    ++count_[die * row_ + valid];
    if (valid < low_[die]) low_[die] = valid;
  }
  void update(uint32_t b, uint32_t old_valid, uint32_t new_valid) override {
    key_[b] = new_valid;
    const uint32_t die = g_.die_of_gblock(b);
    --count_[die * row_ + old_valid];
    ++count_[die * row_ + new_valid];
    if (new_valid < low_[die]) low_[die] = new_valid;
  }

  void snapshot(SnapshotArchive& a) override { a.io_all(key_, count_, low_, cursor_); }
  size_t memory_bytes() const override {
    return (key_.capacity() + count_.capacity() + low_.capacity() + cursor_.capacity()) * sizeof(uint32_t);
  }

  uint32_t peek(uint32_t die) override {
    const uint32_t* count = &count_[size_t(die) * row_];
    uint32_t v = low_[die];
    while (v < row_ && count[v] == 0) ++v;
    low_[die] = v;
    if (v == row_) return kInvalid;
    const uint32_t base = die * g_.blocks_per_die;
    const uint32_t* key = &key_[base];
    const uint32_t* const end = key + g_.blocks_per_die;
    const uint32_t* hit = std::find(key + cursor_[die], end, v);
    if (hit == end) hit = std::find(key, key + cursor_[die], v);
    return base + uint32_t(hit - key);
  }
  void remove(uint32_t b) override {
    if (key_[b] == kInvalid) return;
    --count_[size_t(g_.die_of_gblock(b)) * row_ + key_[b]];
    key_[b] = kInvalid;
  }
  uint32_t pick(uint32_t die) override {
    const uint32_t b = peek(die);
    if (b == kInvalid) return b;
    const uint32_t i = b - die * g_.blocks_per_die;
    --count_[size_t(die) * row_ + key_[b]];
    key_[b] = kInvalid;
    cursor_[die] = i + 1 == g_.blocks_per_die ? 0 : i + 1;
    return b;
  }

 private:
  const Geometry& g_;
  const uint32_t row_;          // histogram row length: valid counts 0..units_per_block
  std::vector<uint32_t> key_;   // per block: valid count while a candidate, else kInvalid
  std::vector<uint32_t> count_; // per die and valid count: candidates
  std::vector<uint32_t> low_;   // per die: no candidate has fewer valid units
  std::vector<uint32_t> cursor_;  // per die: where the next key scan starts
};

}  // namespace

std::unique_ptr<VictimPolicy> make_greedy_victim(const Geometry& g) { return std::make_unique<GreedyVictim>(g); }

}  // namespace ssdtlm
