// The I/O path through the endpoint against arithmetic: interface-bound figures (128 KiB sequential read at
// Gen3 x4 and Gen4 x4 with MPS 256 B, 4 KiB random read IOPS) and interrupt coalescing. The expected figures are
// written out from the PCIe and NVMe specifications' packet sizes, independently of the model's code.
#include "endpoint_harness.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using ssdtlm::test::EndpointBench;
using ssdtlm::test::Loop;
using ssdtlm::test::run_bench;
using ssdtlm::test::run_benches;

namespace {

EndpointParams link_bound(uint32_t gen) {
  EndpointParams p;
  p.pcie.generation = gen;
  p.pcie.lanes = 4;
  p.pcie.mps = 256;
  p.pcie.mrrs = 512;
  p.io_queues = 2;
  p.ns_bytes = 4ull << 30;
  return p;
}
DriverParams deep(uint32_t entries) {
  DriverParams d;
  d.io_queues = 1;
  d.queue_entries = entries;
  return d;
}
double lane_rate(uint32_t gen) { return (gen == 3 ? 8e9 : 16e9) * 4 * 128 / 130 / 8; }  // bytes/s, 128b/130b
constexpr double kTlp = 16 + 8;  // 4 DW header + framing/sequence/LCRC: a memory write or read request
constexpr double kDllp = 8, kDllpPerTlp = 0.5;  // an Ack per 4 TLPs and an UpdateFC per 4 TLPs

// Upstream wire bytes of one read of `bytes` in 4 KiB pages: data as MPS-sized writes, the completion entry,
// the MSI-X message, the submission entry's read request, the PRP list's (more than two pages), and the DLLPs
// answering what came down (the SQE's and the list's completions, the two doorbell writes).
double up_bytes_per_read(double bytes) {
  const double pages = bytes / 4096;
  const double list = pages > 2 ? 1 : 0;
  return bytes / 256 * (256 + kTlp) + (16 + kTlp) + (4 + kTlp) + kTlp + list * kTlp +
         (1 + list + 2) * kDllpPerTlp * kDllp;
}

void sequential_read_within_2_percent(uint32_t gen) {
  run_bench(link_bound(gen), deep(64), [gen](EndpointBench& b) {
    b.up();
    Loop l;
    l.run(b, kRead, 256, 32, 1500);  // 128 KiB reads (256 x 512 B), 32 deep
    const double got = l.rate(100) * 131072;
    const double expect = lane_rate(gen) * 131072 / up_bytes_per_read(131072);
    INFO("Gen" << gen << " x4: " << got / 1e6 << " MB/s, arithmetic " << expect / 1e6 << " MB/s");
    CHECK(got == Approx(expect).epsilon(0.02));
    CHECK(got < 0.95 * lane_rate(gen));  // the packet overheads are charged
    CHECK(b.ep.link().counters().tlps_up >= 1500u * 512);
  });
}

}  // namespace

TEST_CASE("nvme endpoint: 128 KiB sequential read at Gen3 x4, MPS 256 B, within 2 % of the arithmetic") {
  sequential_read_within_2_percent(3);
}

TEST_CASE("nvme endpoint: 128 KiB sequential read at Gen4 x4, MPS 256 B, within 2 % of the arithmetic") {
  sequential_read_within_2_percent(4);
}

TEST_CASE("nvme endpoint: 4 KiB random read IOPS bounded by the link, within 2 % of the arithmetic") {
  run_bench(link_bound(3), deep(128), [](EndpointBench& b) {
    b.up();
    Loop l;
    l.run(b, kRead, 8, 96, 20000, true);
    const double expect = lane_rate(3) / up_bytes_per_read(4096);
    INFO(l.rate(1000) << " IOPS, arithmetic " << expect << "; mean latency " << l.mean_latency_ps() / 1e6
                      << " us, upstream busy " << double(b.ep.link().up().busy_ps()) / double(now_ps())
                      << ", interrupts " << b.drv.interrupts());
    CHECK(l.rate(1000) == Approx(expect).epsilon(0.02));
  });
}

TEST_CASE("nvme endpoint: completion entries carry the phase tag across queue wraps, PRP lists are fetched") {
  run_bench(link_bound(3), deep(8), [](EndpointBench& b) {
    b.up();
    Loop l;
    l.run(b, kRead, 64, 7, 200);  // 32 KiB: a PRP list each; 200 completions wrap the 8-entry queue 25 times
    CHECK(l.latency_ps.size() == 200);
    CHECK(b.ftl.seen.size() == 200);
    CHECK(b.ep.counters().completions >= 200);
  });
}

TEST_CASE("nvme endpoint: interrupt coalescing lowers interrupts per I/O and delays by the aggregation time") {
  EndpointParams ep = link_bound(3);
  DriverParams plain = deep(64);
  DriverParams coalesced = plain;
  coalesced.coalesce_threshold = 8;
  coalesced.coalesce_time_100us = 1;  // 100 us
  struct Result {
    double irq_per_io = 0, mean_qd1_ps = 0;
  };
  Result r[2];
  auto script = [&](int k) {
    return [&, k](EndpointBench& b) {
      b.ftl.service_ps = 20000000;  // 20 us per command
      b.up();
      const uint64_t irq0 = b.drv.interrupts();
      Loop deep_loop;
      deep_loop.run(b, kRead, 8, 32, 4000);
      sc_core::wait(ps_time(1000000000));  // the last messages (the driver reaped their entries already)
      r[k].irq_per_io = double(b.drv.interrupts() - irq0) / 4000;
      Loop qd1;
      qd1.run(b, kRead, 8, 1, 200);
      r[k].mean_qd1_ps = qd1.mean_latency_ps();
    };
  };
  run_benches({{ep, plain, script(0)}, {ep, coalesced, script(1)}});
  INFO("interrupts per I/O " << r[0].irq_per_io << " -> " << r[1].irq_per_io << "; QD1 latency "
                             << r[0].mean_qd1_ps / 1e6 << " -> " << r[1].mean_qd1_ps / 1e6 << " us");
  CHECK(r[0].irq_per_io == Approx(1.0));
  CHECK(r[1].irq_per_io == Approx(1.0 / 8).epsilon(0.05));
  // At queue depth 1 the threshold is never met: each completion waits the aggregation time.
  CHECK(r[1].mean_qd1_ps - r[0].mean_qd1_ps == Approx(100e6).epsilon(0.01));
}
