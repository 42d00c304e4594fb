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

TEST_CASE("host cost: host.engine spends its engine's cited per-I/O CPU time", "[host][host_cost]") {
  // libaio 1e9 / 608e3 = 1,645 ns per I/O (model/host/io_engine_cost.h), half to submit, half to reap.
  const auto free = run("engine_none", "--set host.queue_depth=1");
  const auto aio = run("engine_libaio", "--set host.queue_depth=1 --set host.engine=libaio");
  const auto spdk = run("engine_spdk", "--set host.queue_depth=1 --set host.engine=spdk");
  CHECK(mean_read_us(aio) - mean_read_us(free) == Approx(1e6 / 608e3).margin(0.01));
  CHECK(mean_read_us(spdk) - mean_read_us(free) == Approx(1e6 / 1739e3).margin(0.01));
}

TEST_CASE("host cost: host.engine with host.submit_ns set is refused before simulating", "[host][host_cost]") {
  const auto r = ssdtlm::test::run_in(ssdtlm::test::fresh("host_cost_engine_both"), ssdtlm::test::kSmallDrive +
                                      " --quiet --out o --set host.engine=libaio --set host.submit_ns=100");
  CHECK(r.code == 2);
  CHECK(r.err.find("host.submit_ns") != std::string::npos);
}
