// The write buffer's own firmware cost (controller/buffer/buffer_cost.h, firmware.buffer_step_ns): steps per
// operation grow with what the buffer holds (units for the index, groups for HEXA's order), the FTL charges
// them on its cores, and a step cost of 0 charges nothing.
#include <catch2/catch.hpp>

#include <string>

#include "common/cli_run.h"
#include "controller/buffer/buffer_cost.h"
#include "controller/buffer/flush_policy.h"
#include "controller/buffer/write_buffer.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

TEST_CASE("tree steps are the depth of a balanced tree of n entries", "[buffer][cost]") {
  CHECK(tree_steps(0) == 1);
  CHECK(tree_steps(1) == 2);
  CHECK(tree_steps(2) == 2);
  CHECK(tree_steps(3) == 3);
  for (uint32_t k = 1; k < 40; ++k) {
    CHECK(tree_steps((uint64_t(1) << k) - 1) == k + 1);
    CHECK(tree_steps(uint64_t(1) << k) == k + 1);
  }
}

TEST_CASE("index steps grow with the units buffered, HEXA's order steps with its groups, FIFO's stay 1",
          "[buffer][cost]") {
  FlushContext c;
  c.capacity_units = 4096;
  c.entries_per_segment = 4;
  c.segments = 4096;
  for (const char* policy : {"fifo", "hexa"}) {
    WriteBuffer b(4096, make_flush_policy(policy, c, "buffer.policy"));
    uint32_t last_index = b.index_steps(), last_order = b.order_steps();
    CHECK(last_index == 1);
    for (uint32_t i = 0; i < 4096; ++i) {
      b.write(i * 4, 0);  // one unit per segment: every write makes a new group
      CHECK(b.index_steps() == tree_steps(i + 1));
      CHECK(b.index_steps() >= last_index);
      CHECK(b.order_steps() >= last_order);
      last_index = b.index_steps();
      last_order = b.order_steps();
    }
    CHECK(b.index_steps() == 13);
    CHECK(b.order_steps() == (std::string(policy) == "fifo" ? 1u : 13u));
  }
}

namespace {
nlohmann::json run_cost(const std::string& name, const std::string& buffer, double step_ns) {
  return run_cli(fresh("buffer_cost_" + name),
                 kSmallDrive + " --set buffer.bytes=" + buffer + " --set workload.read_fraction=0.3"
                 " --set workload.io_count=20000 --set host.queue_depth=1 --set buffer.policy=hexa --set map.protected_ratio=0.05"
                 " --set firmware.buffer_step_ns=" + std::to_string(step_ns));
}
}  // namespace

TEST_CASE("buffer firmware time: more per write with a fuller buffer, nothing at 0 ns, steps x cost otherwise",
          "[buffer][cost][platform]") {
  const auto small = run_cost("small", "1M", 0), large = run_cost("large", "8M", 0);
  const auto unset = run_cli(fresh("buffer_cost_unset"), kSmallDrive + " --set buffer.bytes=8M --set workload.read_fraction=0.3"
                                                          " --set workload.io_count=20000 --set host.queue_depth=1 --set buffer.policy=hexa"
                                                          " --set map.protected_ratio=0.05");
  auto per_io = [](const nlohmann::json& s) {
    return s["ftl"]["buffer_steps"].get<double>() / s["host"]["ios"].get<double>();
  };
  // The larger buffer holds more units: every lookup and insert takes more steps.
  CHECK(per_io(large) > per_io(small));
  // 0 ns: the steps are counted, no time is charged, and the run is the run without the key.
  CHECK(large["ftl"]["buffer_steps"].get<uint64_t>() > 0);
  CHECK(large["ftl"]["buffer_busy_s"].get<double>() == 0.0);
  CHECK(large["host"]["iops"] == unset["host"]["iops"]);
  CHECK(large["host"]["latency_us"] == unset["host"]["latency_us"]);
  CHECK(large["nand"] == unset["nand"]);
  // A cost: the core time is steps x cost, and the host sees it.
  const auto costly = run_cost("costly", "8M", 2000);
  CHECK(costly["ftl"]["buffer_busy_s"].get<double>() ==
        Approx(costly["ftl"]["buffer_steps"].get<double>() * 2000e-9).epsilon(1e-9));
  CHECK(costly["host"]["latency_us"]["write"]["mean"].get<double>() > large["host"]["latency_us"]["write"]["mean"].get<double>());
  // A read looks the index up (a step per level, per unit): the fastest read, which waits for no flash operation,
  // takes at least a step's cost more. (The reads' mean also holds the waits behind programs on the dies, which a
  // slower write path thins: at 2 us a step it came out below the 0 ns run's once flushes no longer idled after GC,
  // 1328.9 against 1335.2 us.)
  CHECK(costly["host"]["latency_us"]["read"]["min"].get<double>() >=
        large["host"]["latency_us"]["read"]["min"].get<double>() + 2.0);
}
