// fio's flow control between jobs (flow, flow_id, flow_sleep; fio's flow.c): the JobFlow engine by hand, and jobs
// on the platform keeping their I/O counts in the ratio of their weights.
#include <catch2/catch.hpp>

#include <string>

#include "host/host_run.h"
#include "host/job_flow.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

TEST_CASE("JobFlow: fio's threshold, counters from 1, joins and leaves", "[host][flow]") {
  JobFlow f;
  uint64_t a = 0, b = 0;
  f.join(1);
  f.join(3);
  CHECK(f.total_weight() == 4);
  CHECK_FALSE(f.ahead(a, 1));  // 0 / 1 <= 1 / 4
  f.issued(a);
  CHECK(f.counter() == 2);
  CHECK(f.ahead(a, 1));        // 1 / 2 > 1 / 4
  CHECK_FALSE(f.ahead(b, 3));  // 0 / 2 <= 3 / 4
  f.issued(b);
  f.issued(b);
  CHECK_FALSE(f.ahead(a, 1));  // 1 / 4 is not above 1 / 4: equal passes
  f.issued(b);
  CHECK(f.counter() == 5);
  CHECK_FALSE(f.ahead(a, 1));  // 1 / 5 <= 1 / 4
  // A job that leaves takes its count and weight: the one left alone is never ahead.
  f.leave(b, 3);
  CHECK(f.counter() == 2);
  CHECK(f.total_weight() == 1);
  CHECK_FALSE(f.ahead(a, 1));
}

TEST_CASE("JobFlow: jobs asking in turn keep their counts in the ratio of their weights", "[host][flow]") {
  JobFlow f;
  const uint32_t w[3] = {1, 2, 5};
  uint64_t n[3] = {0, 0, 0};
  for (uint32_t k : w) f.join(k);
  for (int round = 0; round < 80000; ++round) {
    const int k = round % 3;  // each job asks as often: only the flow holds them back
    if (!f.ahead(n[k], w[k])) f.issued(n[k]);
  }
  const double total = double(n[0] + n[1] + n[2]);
  for (int k = 0; k < 3; ++k) CHECK(double(n[k]) / total == Approx(w[k] / 8.0).epsilon(0.01));
}

namespace {

RunResult flow_run(const std::string& extra) {
  Config c = small_host_config({"host.queue_depth=16"});
  c.merge_text(R"({"jobs": [
      {"name": "light", "flow": 1, "runtime_ms": 20, "io_count": 0)" + extra + R"(},
      {"name": "heavy", "flow": 3, "runtime_ms": 20, "io_count": 0, "read_fraction": 0, "pattern": "sequential")" + extra + R"(}]})",
               "jobs.json");
  return run_generic(c);
}

}  // namespace

double heavy_per_light(const RunResult& r) {
  const auto& j = r.summary["jobs"];
  CHECK(num(j[0]["ios"]) > 100);
  return num(j[1]["ios"]) / num(j[0]["ios"]);
}

TEST_CASE("flow=1 and flow=3: the jobs issue 1:3 of the I/Os, as fio's flow.c keeps them", "[sim][host][flow]") {
  CHECK(heavy_per_light(flow_run("")) == Approx(3.0).epsilon(0.03));
}

TEST_CASE("flow with flow_sleep: a held job drains and sleeps, the ratio holds", "[sim][host][flow]") {
  CHECK(heavy_per_light(flow_run(R"(, "flow_sleep_us": 100)")) == Approx(3.0).epsilon(0.03));
}

TEST_CASE("flow: jobs alone in their flow_id are not held and run as without flow", "[sim][host][flow]") {
  // light reads and heavy sequential writes, each alone in its flow (ids 0 and 1): no job is ever held, so they run
  // as without flow, and the reads are far faster than the writes here
  Config c = small_host_config({"host.queue_depth=16"});
  c.merge_text(R"({"jobs": [
      {"name": "light", "flow": 1, "runtime_ms": 20, "io_count": 0},
      {"name": "heavy", "flow": 3, "flow_id": 1, "runtime_ms": 20, "io_count": 0, "read_fraction": 0, "pattern": "sequential"}]})",
               "jobs.json");
  const double ratio = heavy_per_light(run_generic(c));
  CHECK(std::abs(ratio - 3.0) > 0.3);
}

TEST_CASE("flow: only closed-loop random or sequential jobs", "[host][flow][config]") {
  Config c = small_host_config({"workload.flow=2", "workload.pattern=trace", "workload.trace_path=x.trace"});
  CHECK_THROWS_WITH(read_params(c), Catch::Contains("workload.flow"));
}
