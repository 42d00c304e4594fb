// The host's side of a measurement (host.submit_ns, host.complete_ns; docs/results/drives/README.md): each I/O's latency
// grows by both costs, and a queue's thread, spending them one I/O at a time, caps the queue's rate at
// 1 / (submit + complete) whatever the queue depth.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <string>

#include "common/cli_run.h"

namespace {

nlohmann::json run(const std::string& name, const std::string& args) {
  return ssdtlm::test::run_cli("host_cost_" + name, ssdtlm::test::kSmallDrive +
                                                          " --set workload.read_fraction=1 --set workload.io_count=4000"
                                                          " --set host.queues=1 " + args);
}

double mean_read_us(const nlohmann::json& s) { return s["host"]["latency_us"]["read"]["mean"].get<double>(); }

}  // namespace

TEST_CASE("host cost: a QD1 read's latency grows by the submission and completion costs", "[host][host_cost]") {
  const auto free = run("qd1_free", "--set host.queue_depth=1");
  const auto costly = run("qd1_costly", "--set host.queue_depth=1 --set host.submit_ns=3000 --set host.complete_ns=2000");
  INFO("free " << mean_read_us(free) << " us, with host costs " << mean_read_us(costly) << " us");
  CHECK(mean_read_us(costly) - mean_read_us(free) == Approx(5.0).margin(0.01));
  CHECK(costly["host"]["read_iops"].get<double>() < free["host"]["read_iops"].get<double>());
}

TEST_CASE("host cost: one queue's thread caps its rate at 1 / (submit + complete) at any depth", "[host][host_cost]") {
  // 50 us per I/O on the thread: at most 20,000 IOPS from one queue, though 32 reads are in flight; the drive
  // alone serves far more (4 dies of tR 60 us: about 66,000); two queues (two threads) double the cap.
  const auto free = run("qd32_free", "--set host.queue_depth=32");
  const auto one = run("qd32_one", "--set host.queue_depth=32 --set host.submit_ns=30000 --set host.complete_ns=20000");
  const auto two = run("qd32_two", "--set host.queue_depth=16 --set host.queues=2 --set host.submit_ns=30000"
                                   " --set host.complete_ns=20000");
  const double f = free["host"]["read_iops"].get<double>(), o = one["host"]["read_iops"].get<double>(),
               t = two["host"]["read_iops"].get<double>();
  INFO("IOPS: free " << f << ", one costly queue " << o << ", two " << t);
  CHECK(f > 50000);
  CHECK(o <= 20000 * 1.001);
  CHECK(o >= 20000 * 0.95);
  CHECK(t > 1.8 * o);
}
