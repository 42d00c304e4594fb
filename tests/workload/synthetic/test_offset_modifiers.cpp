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
