// Greedy victim selection: the candidate block with the fewest valid units, in O(1) amortised.
// Candidates sit in per-die buckets indexed by valid count (intrusive doubly linked lists); a per-die
// lower bound on the smallest non-empty bucket makes pick() a short upward scan.
#include <vector>

#include "controller/victim_policy.h"

namespace ssdtlm {
namespace {

class GreedyVictim : public VictimPolicy {
 public:
  explicit GreedyVictim(const Geometry& g)
      : g_(g),
        buckets_(size_t(g.dies) * (g.units_per_block + 1), kInvalid),
        links_(size_t(g.dies) * g.blocks_per_die, Link{kInvalid, kInvalid}),
        low_(g.dies, 0) {}

  void insert(uint32_t b, uint32_t valid) override { link(b, valid); }
  void update(uint32_t b, uint32_t old_valid, uint32_t new_valid) override {
    unlink(b, old_valid);
    link(b, new_valid);
  }

  uint32_t pick(uint32_t die) override {
    uint32_t* row = &buckets_[size_t(die) * (g_.units_per_block + 1)];
    for (uint32_t v = low_[die]; v <= g_.units_per_block; ++v) {
      if (row[v] == kInvalid) continue;
      low_[die] = v;
      uint32_t b = row[v];
      unlink(b, v);
      return b;
    }
    low_[die] = g_.units_per_block;
    return kInvalid;
  }

 private:
  uint32_t& head(uint32_t b, uint32_t valid) {
    return buckets_[size_t(b / g_.blocks_per_die) * (g_.units_per_block + 1) + valid];
  }
  void link(uint32_t b, uint32_t valid) {
    uint32_t& h = head(b, valid);
    links_[b] = Link{kInvalid, h};
    if (h != kInvalid) links_[h].prev = b;
    h = b;
    uint32_t die = b / g_.blocks_per_die;
    if (valid < low_[die]) low_[die] = valid;
  }
  void unlink(uint32_t b, uint32_t valid) {
    const Link l = links_[b];
    if (l.prev != kInvalid)
      links_[l.prev].next = l.next;
    else
      head(b, valid) = l.next;
    if (l.next != kInvalid) links_[l.next].prev = l.prev;
    links_[b] = Link{kInvalid, kInvalid};
  }

  struct Link {
    uint32_t prev, next;  // neighbours in the block's bucket (one cache access per block)
  };
  const Geometry& g_;
  std::vector<uint32_t> buckets_;
  std::vector<Link> links_;
  std::vector<uint32_t> low_;
};

}  // namespace

std::unique_ptr<VictimPolicy> make_greedy_victim(const Geometry& g) { return std::make_unique<GreedyVictim>(g); }

}  // namespace ssdtlm
