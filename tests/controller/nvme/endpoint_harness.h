// A host (memory + the NVMe driver) and the NVMe endpoint on one PCIe link, with a fake FTL behind the endpoint
// that completes every command a fixed service time after it arrives. The test's script runs in a thread.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <string>
#include <vector>

#include "common/sim_time.h"
#include "controller/nvme/nvme_endpoint.h"
#include "host/host_memory.h"
#include "host/nvme_driver.h"
#include "host/nvme_driver_up.h"

namespace ssdtlm::test {

struct FakeFtl : sc_core::sc_module, CommandSink {
  CompletionSink* to = nullptr;
  uint64_t service_ps = 0;
  std::vector<NvmeCommand> seen;  // copies of what arrived (op, lpn, units, bytes, ...)
  size_t in_flight = 0, peak = 0;  // commands submitted and not completed; their most at once
  struct Due {
    uint64_t t;
    NvmeCommand* c;
    bool operator>(const Due& o) const { return t > o.t; }
  };
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;
  sc_core::sc_event ev;
  explicit FakeFtl(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(FakeFtl);
    SC_METHOD(fire);
    sensitive << ev;
    dont_initialize();
  }
  void submit(NvmeCommand& cmd, uint64_t arrival_ps) override {
    seen.push_back(cmd);
    peak = std::max(peak, ++in_flight);
    const uint64_t t = std::max(arrival_ps, now_ps()) + service_ps;
    due.push({t, &cmd});
    ev.notify(ps_time(t - now_ps()));
  }
  void fire() {
    while (!due.empty() && due.top().t <= now_ps()) {
      NvmeCommand* c = due.top().c;
      due.pop();
      --in_flight;
      to->complete(*c, now_ps());
    }
    if (!due.empty()) ev.notify(ps_time(due.top().t - now_ps()));
  }
};

struct EndpointBench : sc_core::sc_module {
  HostMemory mem;
  NvmeEndpoint ep;
  NvmeDriver drv;
  FakeFtl ftl;
  std::function<void(EndpointBench&)> script;
  bool finished = false;
  EndpointBench(sc_core::sc_module_name n, const EndpointParams& ep_p, const DriverParams& drv_p,
                uint64_t mem_bytes = 64ull << 20)
      : sc_module(n), mem("mem", 0x100000, mem_bytes), ep("ep", ep_p), drv("drv", mem, drv_p), ftl("ftl") {
    drv.bar.bind(ep.bar);
    ep.dma.bind(mem.tsock);
    ep.bind_backend(&ftl);
    ftl.to = &ep;
    SC_HAS_PROCESS(EndpointBench);
    SC_THREAD(run);
  }
  void run() {
    if (script) script(*this);
    finished = true;
  }
  // Brings the controller up; REQUIREs success.
  void up() { require_up(drv); }
  // Submits a raw entry on I/O queue `q` and waits for its completion.
  Completion raw(uint16_t q, const nvme::Sqe& e) {
    Completion out;
    bool got = false;
    sc_core::sc_event ev;
    REQUIRE(drv.submit_raw(q, e, [&](const Completion& c) {
      out = c, got = true;
      ev.notify(sc_core::SC_ZERO_TIME);
    }));
    while (!got) sc_core::wait(ev);
    return out;
  }
};

// Runs each script on a bench of its own, side by side in one simulation (SystemC elaborates once per
// process: each test case runs in its own, tests/main.cpp).
struct BenchRun {
  EndpointParams ep;
  DriverParams drv;
  std::function<void(EndpointBench&)> script;
};
inline void run_benches(std::vector<BenchRun> runs, uint64_t limit_ps = 10000000000000ull) {
  std::vector<std::unique_ptr<EndpointBench>> b;
  for (size_t i = 0; i < runs.size(); ++i) {
    b.push_back(std::make_unique<EndpointBench>(("bench" + std::to_string(i)).c_str(), runs[i].ep, runs[i].drv));
    b.back()->script = std::move(runs[i].script);
  }
  sc_core::sc_start(ps_time(limit_ps));
  for (auto& x : b) REQUIRE(x->finished);
}
inline void run_bench(const EndpointParams& ep, const DriverParams& drv, std::function<void(EndpointBench&)> script,
                      uint64_t limit_ps = 10000000000000ull) {
  run_benches({BenchRun{ep, drv, std::move(script)}}, limit_ps);
}

// Keeps `depth` I/Os of `nlb` LBAs in flight on queue 0 until `total` have completed (closed loop), from the
// bench's thread; records each I/O's latency (submission to the driver having its completion) and completion time.
struct Loop {
  std::vector<uint64_t> latency_ps, done_ps;
  void run(EndpointBench& b, uint8_t opcode, uint32_t nlb, uint32_t depth, uint32_t total, bool random = false,
           uint16_t queue = 0) {
    sc_core::sc_event ev;
    uint32_t issued = 0, completed = 0;
    uint64_t lcg = 1;
    std::function<void()> issue = [&] {
      NvmeDriver::Io io;
      io.opcode = opcode, io.nlb = nlb, io.queue = queue;
      const uint64_t slots = b.drv.ns_lbas() / nlb;
      if (random) lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
      io.slba = (random ? (lcg >> 33) % slots : issued % slots) * nlb;
      const uint64_t start = now_ps();
      ++issued;
      const bool taken = b.drv.submit(io, [&, start](const Completion& c) {
        if (c.status) ++failed;
        latency_ps.push_back(c.done_ps - start);
        done_ps.push_back(c.done_ps);
        if (++completed == total) ev.notify(sc_core::SC_ZERO_TIME);
        if (issued < total) issue();
      });
      if (!taken) ++refused;
    };
    for (uint32_t i = 0; i < depth && issued < total; ++i) issue();
    while (completed < total) sc_core::wait(ev);
    CHECK(failed == 0);
    CHECK(refused == 0);
  }
  uint32_t failed = 0, refused = 0;
  // Completions per second between the `from`-th and the last completion.
  double rate(size_t from) const {
    std::vector<uint64_t> t = done_ps;
    std::sort(t.begin(), t.end());
    return double(t.size() - 1 - from) / (double(t.back() - t[from]) * 1e-12);
  }
  double mean_latency_ps() const {
    double s = 0;
    for (uint64_t l : latency_ps) s += double(l);
    return s / double(latency_ps.size());
  }
};

// The small endpoint of the protocol tests (4 I/O queue pairs of up to 256 entries, a 1 GiB namespace), a driver
// with two I/O queues of 16 entries, and a submission entry from its opcode, namespace and dwords 10-11.
inline EndpointParams small_ep() {
  EndpointParams p;
  p.io_queues = 4;
  p.mqes = 255;
  p.ns_bytes = 1ull << 30;
  return p;
}
inline DriverParams two_queues() {
  DriverParams d;
  d.io_queues = 2;
  d.queue_entries = 16;
  return d;
}
inline nvme::Sqe cmd(uint8_t opcode, uint32_t nsid, uint32_t cdw10 = 0, uint32_t cdw11 = 0) {
  nvme::Sqe e;
  e.dw[0] = opcode, e.dw[1] = nsid, e.dw[10] = cdw10, e.dw[11] = cdw11;
  return e;
}

}  // namespace ssdtlm::test
