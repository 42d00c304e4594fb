// fio's offset modifiers on SyntheticWorkload: rw=randread:N (a new random offset every N I/Os, sequential in
// between, or repeated with rw_sequencer=identical) and rw=write:SIZE (a hole after each sequential I/O).
#include <catch2/catch.hpp>

#include "platform/platform_run.h"
#include "workload/synthetic/synthetic_workload.h"

using namespace ssdtlm;

namespace {
SyntheticSpec spec(const char* pattern) {
  SyntheticSpec s;
  s.pattern = pattern;
  s.distribution = pattern == std::string("random") ? "random" : "";
  s.block_bytes = 4096;
  s.range_bytes = 1ull << 30;
  s.io_count = 4000;
  s.seed = 5;
  return s;
}
}  // namespace

TEST_CASE("random_run: a new random offset every N I/Os, sequential in between", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("random");
  s.random_run = 8;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t prev_end = 0;
  int jumps = 0, steps = 0;
  for (int i = 0; w.next(r); ++i) {
    if (i % 8 == 0) {
      jumps += i > 0 && r.offset != prev_end;
    } else {
      CHECK(r.offset == prev_end);  // goes on from the last
      ++steps;
    }
    prev_end = r.offset + r.bytes;
  }
  CHECK(steps == 3500);
  CHECK(jumps > 490);  // nearly every eighth I/O lands elsewhere
}

TEST_CASE("random_run_repeat: the I/Os between repeat the random offset (rw_sequencer=identical)", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("random");
  s.random_run = 4;
  s.random_run_repeat = true;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t first = 0;
  for (int i = 0; w.next(r); ++i) {
    if (i % 4 == 0)
      first = r.offset;
    else
      CHECK(r.offset == first);
  }
}

TEST_CASE("sequential_skip: a hole after each sequential I/O (rw=write:SIZE)", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("sequential");
  s.sequential_skip = 8192;
  s.io_count = 10;
  SyntheticWorkload w(s);
  IoRequest r;
  for (uint64_t i = 0; w.next(r); ++i) CHECK(r.offset == i * (4096 + 8192));
}

TEST_CASE("offset modifiers go with their pattern only", "[synthetic][modifiers][config]") {
  Config c = test::generic_config({"workload.pattern=sequential", "workload.random_run=8"});
  CHECK_THROWS_WITH(read_params(c), Catch::Contains("workload.random_run") && Catch::Contains("pattern=random"));
  Config d = test::generic_config({"workload.pattern=random", "workload.sequential_skip=4k"});
  CHECK_THROWS_WITH(read_params(d), Catch::Contains("workload.sequential_skip") && Catch::Contains("pattern=sequential"));
}

TEST_CASE("percentage_random: that share of the offsets is random, the rest goes on from the last", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("random");
  s.percentage_random = {30, 30, 30};
  s.io_count = 20000;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t prev_end = 0;
  int sequential = 0;
  for (int i = 0; w.next(r); ++i) {
    CHECK(r.offset % 4096 == 0);
    CHECK(r.offset + r.bytes <= s.range_bytes);
    sequential += i > 0 && r.offset == prev_end;
    prev_end = r.offset + r.bytes;
  }
  // 70 % sequential (a random draw landing right after the last is rare: 1 in 262,144)
  CHECK(double(sequential) / 20000 == Approx(0.70).margin(0.015));
}

TEST_CASE("percentage_random: per direction, each going on from its own last I/O (fio's last_pos[ddir])", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("random");
  s.read_fraction = 0.5;
  s.percentage_random = {0, 100, 100};  // reads all sequential, writes all random
  s.io_count = 4000;
  SyntheticWorkload w(s);
  IoRequest r;
  uint64_t read_end = 0, reads = 0, sequential_writes = 0, prev_write_end = 1;
  while (w.next(r)) {
    if (r.op == IoOp::Read) {
      CHECK(r.offset == read_end);  // the reads walk the range from its start, whatever the writes do
      read_end = r.offset + r.bytes;
      ++reads;
    } else {
      sequential_writes += r.offset == prev_write_end;
      prev_write_end = r.offset + r.bytes;
    }
  }
  CHECK(reads > 1800);
  CHECK(sequential_writes < 5);
}

TEST_CASE("percentage_random: 100 changes no offset and 0 is sequential with a draw at the end of the range", "[synthetic][modifiers]") {
  SyntheticSpec a = spec("random"), b = spec("random");
  b.percentage_random = {100, 100, 100};
  SyntheticWorkload wa(a), wb(b);
  IoRequest ra, rb;
  while (wa.next(ra) && wb.next(rb)) REQUIRE(ra.offset == rb.offset);
  SyntheticSpec z = spec("random");
  z.percentage_random = {0, 0, 0};
  z.range_bytes = 40 * 4096;
  z.io_count = 100;
  SyntheticWorkload wz(z);
  IoRequest r;
  uint64_t prev_end = 0, jumps = 0;
  for (int i = 0; wz.next(r); ++i) {
    if (r.offset != prev_end) ++jumps;  // only where the range ends: then a random offset
    prev_end = r.offset + r.bytes;
  }
  CHECK(jumps >= 1);
  CHECK(jumps <= 5);
}

TEST_CASE("percentage_random with rw=randread:N: the share applies where a random offset is due", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("random");
  s.random_run = 4;
  s.percentage_random = {0, 0, 0};
  s.range_bytes = 1ull << 30;
  s.io_count = 400;
  SyntheticWorkload w(s);
  IoRequest r;
  for (uint64_t i = 0; w.next(r); ++i) CHECK(r.offset == i * 4096);  // never random: one sequential walk
}

TEST_CASE("workload.percentage_random: fio's per-direction syntax, random pattern only", "[synthetic][modifiers][config]") {
  auto pr = [](const char* v) {
    Config c = test::generic_config({"workload.pattern=random", std::string("workload.percentage_random=") + v});
    return read_params(c).jobs.at(0).workload.percentage_random;
  };
  CHECK(pr("50") == std::array<uint8_t, 3>{50, 50, 50});
  CHECK(pr("50,20") == std::array<uint8_t, 3>{50, 20, 20});
  CHECK(pr("50,20,") == std::array<uint8_t, 3>{50, 20, 100});
  CHECK(pr(",20") == std::array<uint8_t, 3>{100, 20, 20});
  CHECK_THROWS_WITH(pr("101"), Catch::Contains("workload.percentage_random") && Catch::Contains("over 100"));
  CHECK_THROWS_WITH(pr("5x"), Catch::Contains("whole number"));
  Config c = test::generic_config({"workload.pattern=sequential", "workload.percentage_random=50"});
  CHECK_THROWS_WITH(read_params(c), Catch::Contains("workload.percentage_random") && Catch::Contains("pattern=random"));
}

TEST_CASE("sequential_skip < 0: backwards from the end, as fio's rw=read:-8k", "[synthetic][modifiers]") {
  SyntheticSpec s = spec("sequential");
  s.range_bytes = 64 * 4096;
  s.sequential_skip = -8192;
  s.io_count = 66;
  SyntheticWorkload w(s);
  IoRequest r;
  std::vector<uint64_t> off;
  while (w.next(r)) off.push_back(r.offset / 4096);
  // fio's get_next_seq_offset: 0, then below the start -> the end of the range plus the skip, then back 4 KiB each
  REQUIRE(off.size() == 66);
  CHECK(off[0] == 0);
  CHECK(off[1] == 62);
  CHECK(off[2] == 61);
  CHECK(off[62] == 1);
  CHECK(off[63] == 0);
  CHECK(off[64] == 62);  // and round again
}
