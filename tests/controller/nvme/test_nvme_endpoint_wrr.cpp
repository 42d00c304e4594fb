// Weighted round robin with the urgent priority class (NVMe Base 2.0 §3.4.4.2; 1.4 §4.13) through the driver: CC.AMS, Set
// Features Arbitration and each submission queue's QPRIO. With the fetch engine the bottleneck (2 us per
// command), an urgent tenant at queue depth 1 beside eight low-priority queues kept full keeps its solo
// latency under WRR; under round robin it waits for the other queues' turns.
#include "endpoint_harness.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using ssdtlm::test::EndpointBench;
using ssdtlm::test::Loop;
using ssdtlm::test::run_bench;
using ssdtlm::test::run_benches;

namespace {

// Keeps `depth` reads in flight on `queue` until `stop` is set.
void keep_busy(EndpointBench& b, uint16_t queue, uint32_t depth, const bool& stop) {
  auto issue = std::make_shared<std::function<void()>>();
  *issue = [&b, queue, &stop, issue] {
    NvmeDriver::Io io;
    io.opcode = kRead, io.nlb = 8, io.queue = queue;
    b.drv.submit(io, [&stop, issue](const Completion&) {
      if (!stop) (*issue)();
    });
  };
  for (uint32_t i = 0; i < depth; ++i) (*issue)();
}

}  // namespace

TEST_CASE("nvme endpoint: weighted round robin keeps an urgent queue's latency beside saturating low-priority queues") {
  EndpointParams ep;
  ep.io_queues = 9;
  ep.fetch_ps = 2000000;  // 2 us per fetch: the arbiter decides who waits
  DriverParams d;
  d.io_queues = 9;
  d.queue_entries = 64;
  d.queue_prio = {0, 3, 3, 3, 3, 3, 3, 3, 3};  // queue 0 urgent, 1-8 low
  DriverParams rr = d;
  DriverParams wrr = d;
  wrr.wrr = true;
  double mean[3] = {0, 0, 0};
  auto script = [&](int k) {
    return [&, k](EndpointBench& b) {
      b.up();
      bool stop = false;
      if (k > 0)
        for (uint16_t q = 1; q <= 8; ++q) keep_busy(b, q, 32, stop);
      sc_core::wait(ps_time(100000000));  // 100 us: the low queues are full
      Loop urgent;
      urgent.run(b, kRead, 8, 1, 300, true, 0);
      mean[k] = urgent.mean_latency_ps();
      stop = true;
      sc_core::wait(ps_time(10000000000ull));  // let the low queues drain
    };
  };
  run_benches({{ep, d, script(0)}, {ep, rr, script(1)}, {ep, wrr, script(2)}});
  INFO("urgent QD1 mean latency: solo " << mean[0] / 1e6 << " us, round robin " << mean[1] / 1e6
                                        << " us, weighted round robin " << mean[2] / 1e6 << " us");
  CHECK(mean[2] <= 1.10 * mean[0] + 2000000);  // at most the fetch in progress when it arrives, beyond solo
  CHECK(mean[1] > 2 * mean[0]);                // round robin: it waits for up to 8 other queues' fetches
}

TEST_CASE("nvme endpoint: the command slots bound the commands in processing, and Set Features Arbitration keeps AB") {
  EndpointParams ep;
  ep.io_queues = 4;
  ep.max_commands = 4;
  DriverParams d;
  d.io_queues = 4;
  d.queue_entries = 64;
  d.wrr = true;
  d.hpw = 3, d.arbitration_burst = 2;
  uint32_t done = 0, result = 0;
  size_t peak = 0;
  run_bench(ep, d, [&](EndpointBench& b) {
    b.ftl.service_ps = 50000000;  // 50 us per command
    b.up();
    // Get Features Arbitration: HPW 3, AB 2 as set by the driver; reserved bits 7:3 are not kept.
    const Completion g = b.drv.admin(ssdtlm::test::cmd(kGetFeatures, 0, kFeatArbitration));
    result = g.result;
    const Completion s = b.drv.admin(ssdtlm::test::cmd(kSetFeatures, 0, kFeatArbitration, g.result | 0xF8u));
    CHECK(s.status == kSuccess);
    CHECK(b.drv.admin(ssdtlm::test::cmd(kGetFeatures, 0, kFeatArbitration)).result == g.result);
    for (uint16_t q = 0; q < 4; ++q)
      for (int i = 0; i < 32; ++i) {
        NvmeDriver::Io io;
        io.opcode = kRead, io.nlb = 8, io.queue = q;
        REQUIRE(b.drv.submit(io, [&done](const Completion& c) { done += c.status == 0; }));
      }
    sc_core::wait(ps_time(10000000000ull));  // 10 ms: 128 commands at 4 x 50 us
    peak = b.ftl.peak;
  });
  CHECK(result == (3u << 24 | 2u));
  CHECK(done == 128);
  CHECK(peak == 4);
}
