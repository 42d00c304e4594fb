// The PRP walk (NVMe Base 1.4 §4.3), command arbitration (Base 2.0 §3.4.4; 1.4 §4.13) and interrupt coalescing,
// alone.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstring>
#include <map>

#include "controller/nvme/arbiter.h"
#include "controller/nvme/prp.h"

using namespace ssdtlm::nvme;

namespace {
// Host memory holding PRP lists: address -> entry.
struct Lists {
  std::map<uint64_t, uint64_t> at;
  int reads = 0;
  PrpReader reader() {
    return [this](uint64_t a, uint64_t* out, uint32_t n) {
      ++reads;
      for (uint32_t i = 0; i < n; ++i) out[i] = at.count(a + 8 * i) ? at[a + 8 * i] : 0;
    };
  }
};
}  // namespace

TEST_CASE("prp: one page, two pages, offsets") {
  Lists l;
  PrpWalk w = walk_prps(0x10200, 0, 512, 4096, l.reader());
  REQUIRE(w.status == kSuccess);
  REQUIRE(w.data.size() == 1);
  CHECK(w.data[0].addr == 0x10200);
  CHECK(w.data[0].bytes == 512);
  w = walk_prps(0x10800, 0x50000, 4096, 4096, l.reader());  // 2 KiB in the first page, 2 KiB in PRP2's
  REQUIRE(w.data.size() == 2);
  CHECK(w.data[0].bytes == 2048);
  CHECK(w.data[1].addr == 0x50000);
  CHECK(w.data[1].bytes == 2048);
  CHECK(l.reads == 0);
  CHECK(walk_prps(0x10002, 0, 512, 4096, l.reader()).status == kPrpOffsetInvalid);      // not dword aligned
  CHECK(walk_prps(0x10000, 0x50200, 8192, 4096, l.reader()).status == kPrpOffsetInvalid);  // PRP2 data at an offset
}

TEST_CASE("prp: the direct walk gives walk_prps' result up to two pages and declines a list") {
  // Every case PRP1 and PRP2 describe alone (offsets, sizes up to the second page's end, the offset rules), against
  // the general walk; a transfer reaching a third page needs PRP2's list: declined, nothing read.
  Lists l;
  for (const uint64_t prp1 : {0x10000ull, 0x10200ull, 0x10FFCull, 0x10002ull}) {
    for (const uint64_t bytes : {4ull, 512ull, 2048ull, 3584ull, 4096ull, 6144ull, 8192ull, 12288ull}) {
      for (const uint64_t prp2 : {0ull, 0x50000ull, 0x50200ull}) {
        PrpWalk direct;
        direct.data.push_back({1, 1});  // stale content: the walk clears it
        const bool done = walk_prps_direct(prp1, prp2, bytes, 4096, direct);
        const bool needs_list = !(prp1 & 3) && bytes - std::min<uint64_t>(bytes, 4096 - prp1 % 4096) > 4096;
        INFO("prp1 " << prp1 << " bytes " << bytes << " prp2 " << prp2);
        CHECK(done == !needs_list);
        if (!done) continue;
        const PrpWalk general = walk_prps(prp1, prp2, bytes, 4096, l.reader());
        CHECK(direct.status == general.status);
        REQUIRE(direct.data.size() == general.data.size());
        for (size_t i = 0; i < direct.data.size(); ++i) {
          CHECK(direct.data[i].addr == general.data[i].addr);
          CHECK(direct.data[i].bytes == general.data[i].bytes);
        }
        CHECK(direct.lists.empty());
      }
    }
  }
  CHECK(l.reads == 0);  // no case the direct walk takes needs a list read, in the general walk either
}

TEST_CASE("prp: lists, chained lists, and an entry with an offset") {
  Lists l;
  // 32 KiB: PRP1 + 7 list entries in a list at 0x9000.
  for (int i = 0; i < 7; ++i) l.at[0x9000 + 8 * i] = 0x100000 + 0x3000 * uint64_t(i);
  PrpWalk w = walk_prps(0x80000, 0x9000, 32768, 4096, l.reader());
  REQUIRE(w.status == kSuccess);
  CHECK(w.data.size() == 8);
  CHECK(w.lists.size() == 1);
  CHECK(w.lists[0].bytes == 7 * 8);
  // A list starting 16 B before the end of its page: one data entry, then a chain to the next list page.
  Lists c;
  c.at[0xAFF0] = 0x200000;
  c.at[0xAFF8] = 0xC000;  // the chain
  c.at[0xC000] = 0x201000;
  c.at[0xC008] = 0x202000;
  w = walk_prps(0x1FF000, 0xAFF0, 4 * 4096, 4096, c.reader());
  REQUIRE(w.status == kSuccess);
  CHECK(w.lists.size() == 2);
  uint64_t total = 0;
  for (const Segment& g : w.data) total += g.bytes;
  CHECK(total == 4 * 4096);
  CHECK(w.data.size() == 1);  // 0x1FF000..0x203000 is contiguous: one segment
  // A list entry with an offset breaks the rule.
  Lists bad;
  bad.at[0x9000] = 0x100000;
  bad.at[0x9008] = 0x101100;
  CHECK(walk_prps(0x80000, 0x9000, 3 * 4096, 4096, bad.reader()).status == kPrpOffsetInvalid);
}

TEST_CASE("arbiter: round robin, and weighted round robin with the urgent class first") {
  Arbiter rr(4);
  rr.set_ready(1, 2), rr.set_ready(2, 2), rr.set_ready(3, 2);
  std::vector<int> order;
  uint32_t left[4] = {0, 2, 2, 2};
  for (int q; (q = rr.pick()) >= 0;) {
    order.push_back(q);
    rr.set_ready(uint32_t(q), --left[q]);
  }
  CHECK(order == std::vector<int>{1, 2, 3, 1, 2, 3});

  Arbiter w(5);
  w.set_wrr(true);
  w.set_weights(3, 1, 0);  // high 4, medium 2, low 1
  w.set_prio(1, Prio::High), w.set_prio(2, Prio::Medium), w.set_prio(3, Prio::Low), w.set_prio(4, Prio::Urgent);
  for (int q = 1; q <= 3; ++q) w.set_ready(q, 1000);
  std::map<int, int> got;
  for (int i = 0; i < 700; ++i) ++got[w.pick()];
  CHECK(got[1] == 400);
  CHECK(got[2] == 200);
  CHECK(got[3] == 100);
  w.set_ready(4, 3);  // urgent: served before any other
  CHECK(w.pick() == 4);
  w.set_ready(0, 1);  // admin before urgent
  CHECK(w.pick() == 0);
}

namespace {
// The queues `a` picks until none has an entry, each pick taking one entry.
std::vector<int> drain(Arbiter& a, std::vector<uint32_t> left) {
  for (uint32_t q = 0; q < left.size(); ++q) a.set_ready(q, left[q]);
  std::vector<int> order;
  for (int q; (q = a.pick()) >= 0;) {
    order.push_back(q);
    a.set_ready(uint32_t(q), --left[size_t(q)]);
  }
  return order;
}
}  // namespace

TEST_CASE("arbiter: round robin treats the admin queue as any other (Base 2.0 3.4.4.1)") {
  Arbiter rr(3);
  CHECK(drain(rr, {2, 2, 2}) == std::vector<int>{0, 1, 2, 0, 1, 2});
}

TEST_CASE("arbiter: the arbitration burst, and fewer commands when a queue holds fewer") {
  Arbiter rr(4);
  rr.set_burst(1);  // 2 commands per turn
  CHECK(rr.burst() == 2);
  CHECK(drain(rr, {0, 3, 1, 4}) == std::vector<int>{1, 1, 2, 3, 3, 1, 3, 3});
  Arbiter open(3);
  open.set_burst(7);  // 111b: no limit
  CHECK(drain(open, {0, 3, 2}) == std::vector<int>{1, 1, 1, 2, 2});
}

TEST_CASE("arbiter: weighted round robin, a burst bounded by the level's credits left") {
  Arbiter w(3);
  w.set_wrr(true);
  w.set_weights(2, 0, 0);  // high 3 per round, medium 1
  w.set_burst(2);          // 4: more than the high level's credits
  w.set_prio(1, Prio::High), w.set_prio(2, Prio::Medium);
  // Per round: 3 from the high queue (its credits, not the burst of 4), 1 from the medium one.
  CHECK(drain(w, {0, 6, 3}) == std::vector<int>{1, 1, 1, 2, 1, 1, 1, 2, 2});
}

TEST_CASE("arbiter: an urgent command waits only for the burst under way, then goes before the weighted class") {
  Arbiter w(4);
  w.set_wrr(true);
  w.set_burst(1);  // 2
  w.set_weights(0, 0, 3);  // low: 4 per round, more than the burst
  w.set_prio(1, Prio::Low), w.set_prio(2, Prio::Low), w.set_prio(3, Prio::Urgent);
  w.set_ready(1, 10), w.set_ready(2, 10);
  CHECK(w.pick() == 1);  // a burst of two from queue 1 begins
  w.set_ready(1, 9);
  w.set_ready(3, 2);     // urgent entries arrive meanwhile
  CHECK(w.pick() == 1);  // the burst ends first
  w.set_ready(1, 8);
  CHECK(w.pick() == 3);
  w.set_ready(3, 1);
  CHECK(w.pick() == 3);
  w.set_ready(3, 0);
  CHECK(w.pick() == 2);  // round robin among the low queues goes on
}

TEST_CASE("coalescer: threshold and time") {
  Coalescer c;
  c.configure(4, 100000000);
  CHECK_FALSE(c.posted(10));
  CHECK(c.deadline() == 10 + 100000000);
  CHECK_FALSE(c.posted(20));
  CHECK_FALSE(c.posted(30));
  CHECK(c.posted(40));
  c.fired();
  CHECK_FALSE(c.waiting());
  Coalescer off;  // not configured: every completion interrupts
  CHECK(off.posted(5));
}
