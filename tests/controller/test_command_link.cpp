// The command-level link's calendar (controller/command_link.h) alone: transfers booked in any order of their
// times take the wire's free time from when they may start, never two at once, every byte charged once.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "controller/command_link.h"

using namespace ssdtlm;

namespace {

constexpr double kBytesPerPs = 1.0;  // 1 byte per ps: a transfer of n bytes is n ps on the wire

PcieLink link() { return PcieLink(kBytesPerPs * 1e12, 7); }

// The reference: the wire as one slot per picosecond; a transfer takes the first free slots from its time.
struct SlotWire {
  std::vector<bool> busy = std::vector<bool>(1 << 18, false);
  uint64_t send(uint64_t t, uint32_t bytes) {
    uint64_t end = t;
    for (uint64_t s = t; bytes; ++s) {
      if (s >= busy.size()) FAIL("the reference wire is too short");
      if (busy[s]) continue;
      busy[s] = true, --bytes, end = s + 1;
    }
    return end;
  }
};

void check_disjoint(const PcieLink& l) {
  const auto iv = l.busy_intervals();
  for (size_t i = 0; i < iv.size(); ++i) {
    CHECK(iv[i].first < iv[i].second);
    if (i) CHECK(iv[i - 1].second < iv[i].first);  // apart: touching intervals are merged
  }
}

uint64_t booked(const PcieLink& l) {
  uint64_t sum = 0;
  for (const auto& [start, end] : l.busy_intervals()) sum += end - start;
  return sum;
}

}  // namespace

TEST_CASE("command link: in time order it is a FIFO", "[nvme][link]") {
  PcieLink l = link();
  CHECK(l.send(100, 50) == 150);
  CHECK(l.send(120, 10) == 160);  // behind the first
  CHECK(l.send(300, 20) == 320);  // an idle wire: at once
  CHECK(l.transfer(320, 5) == 325 + 7);
  CHECK(l.busy_ps() == 85);
  CHECK(booked(l) == 85);
  check_disjoint(l);
}

TEST_CASE("command link: a transfer booked later for an earlier time does not wait behind a later one", "[nvme][link]") {
  PcieLink l = link();
  // The write's data, booked first for 1,000 ps (the FTL completed the command inside its hand-over), then the next
  // command's 64-byte entry fetch for 100 ps: the old FIFO sent the fetch at 1,256; the calendar at 100.
  CHECK(l.send(1000, 256) == 1256);
  CHECK(l.send(100, 64) == 164);
  // A transfer longer than the gap before a booked one takes the gap, then goes on after it.
  CHECK(l.send(900, 150) == 1256 + 50);  // 100 ps in [900, 1000), the other 50 after 1,256
  CHECK(l.busy_ps() == 256 + 64 + 150);
  CHECK(booked(l) == l.busy_ps());
  check_disjoint(l);
  CHECK(l.busy_intervals() == std::vector<std::pair<uint64_t, uint64_t>>{{100, 164}, {900, 1306}});
}

TEST_CASE("command link: a transfer that exactly fills a gap joins both neighbours", "[nvme][link]") {
  PcieLink l = link();
  l.send(0, 10);
  l.send(20, 10);
  CHECK(l.send(10, 10) == 20);
  CHECK(l.busy_intervals() == std::vector<std::pair<uint64_t, uint64_t>>{{0, 30}});
  CHECK(l.send(5, 1) == 31);  // the wire is busy until 30
  CHECK(l.send(0, 0) == 0);   // nothing to carry
}

TEST_CASE("command link: random bookings match a picosecond-slot wire", "[nvme][link]") {
  std::mt19937_64 rng(40);
  for (int round = 0; round < 10; ++round) {
    PcieLink l = link();
    SlotWire ref;
    uint64_t total = 0;
    for (int i = 0; i < 300; ++i) {
      const uint64_t t = rng() % 40000;
      const uint32_t bytes = uint32_t(rng() % 200);
      INFO("round " << round << " transfer " << i << " at " << t << " of " << bytes);
      CHECK(l.send(t, bytes) == (bytes ? ref.send(t, bytes) : t));
      total += bytes;
    }
    CHECK(l.busy_ps() == total);
    CHECK(booked(l) == total);
    check_disjoint(l);
  }
}

TEST_CASE("command link: retire drops what is over and nothing starts before the horizon", "[nvme][link]") {
  PcieLink l = link();
  l.send(0, 10);
  l.send(50, 10);
  l.send(100, 10);
  l.retire(60);  // [0,10) and [50,60) are over
  CHECK(l.busy_intervals() == std::vector<std::pair<uint64_t, uint64_t>>{{100, 110}});
  CHECK(l.send(20, 5) == 65);  // asked for a time the clock has passed: from the horizon
  CHECK(l.send(98, 5) == 113);  // 2 ps before [100, 110), 3 after it
  CHECK(l.busy_ps() == 40);
  // The calendar holds only the intervals in flight.
  for (uint64_t t = 1000; t < 100000; t += 100) {
    l.send(t, 10);
    l.retire(t);
    CHECK(l.busy_intervals().size() <= 2);
  }
}

TEST_CASE("command link: with a moving clock (retire, compaction) bookings still match a picosecond-slot wire",
          "[nvme][link]") {
  // Transfers booked up to 3,000 ps ahead of a clock that moves on: hundreds of intervals retire and the calendar
  // compacts many times, while bookings keep landing in earlier gaps.
  std::mt19937_64 rng(41);
  PcieLink l = link();
  SlotWire ref;
  uint64_t total = 0, clock = 0;
  size_t most = 0;
  for (int i = 0; i < 20000; ++i) {
    clock += rng() % 20;
    l.retire(clock);
    const uint64_t t = clock + rng() % 3000;
    const uint32_t bytes = 1 + uint32_t(rng() % 10);  // about 58 % of the wire
    INFO("transfer " << i << " at " << t << " of " << bytes << ", clock " << clock);
    REQUIRE(l.send(t, bytes) == ref.send(t, bytes));
    total += bytes;
    most = std::max(most, l.busy_intervals().size());
  }
  CHECK(l.busy_ps() == total);
  CHECK(most < 400);  // the intervals in flight, not the run's
  check_disjoint(l);
}
