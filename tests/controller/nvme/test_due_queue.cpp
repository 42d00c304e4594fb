// The endpoint's due queue (controller/nvme/due_queue.h): the order of one priority queue over (time, scheduling
// order), whichever of its FIFO and heap each event went to, over bursts of pushes and pops.
#include <catch2/catch.hpp>

#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

#include "controller/nvme/due_queue.h"

using ssdtlm::nvme::DueQueue;

namespace {
struct Ev {
  uint64_t t = 0, seq = 0;
  bool operator>(const Ev& o) const { return t != o.t ? t > o.t : seq > o.seq; }
};
}  // namespace

TEST_CASE("due queue: events come out by time, then scheduling order, as from one priority queue") {
  DueQueue<Ev> q;
  std::priority_queue<Ev, std::vector<Ev>, std::greater<Ev>> ref;
  uint64_t lcg = 7, seq = 0, in_order_t = 0, popped = 0;
  auto next = [&] { return (lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  for (int round = 0; round < 20000; ++round) {
    // Bursts of pushes, then pops down to a few.
    const uint64_t pushes = next() % 40;
    for (uint64_t i = 0; i < pushes; ++i) {
      const bool in_order = next() % 4 != 0;  // most are entries, whose times rarely go back
      if (in_order) in_order_t += next() % 3 == 0 ? 0 : next() % 1000;  // ties with the one before too
      const uint64_t back = in_order && next() % 50 == 0 ? next() % 500 : 0;  // now and then one that would go back
      const Ev e{in_order ? (in_order_t > back ? in_order_t - back : 0) : in_order_t + next() % 5000, seq++};
      q.push(e, in_order);
      ref.push(e);
    }
    const uint64_t keep = next() % 4;
    while (ref.size() > keep) {
      REQUIRE(!q.empty());
      CHECK(q.top().t == ref.top().t);
      CHECK(q.top().seq == ref.top().seq);
      q.pop();
      ref.pop();
      ++popped;
    }
  }
  CHECK(popped > 300000);
}
