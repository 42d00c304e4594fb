// Module tests of NvmeHost alone: a fake NVMe target completes every command a fixed service time after its
// doorbell (BEGIN_RESP annotated with that delay, as NvmeController annotates its completion entries), so the
// host's pacing (closed-loop queue depth, stonewall and startdelay, ramp, rate_iops, think time) gives exact
// submission times and counts. tests/sim/test_host_pacing.cpp checks the same features on the whole platform,
// within tolerances.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_target_socket.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "common/sim_time.h"
#include "host/nvme_host.h"

using namespace ssdtlm;

namespace {

// n reads of 4 KiB (0 = endless), one unit after the other over 16 units.
struct CountWorkload : Workload {
  uint64_t n, issued = 0;
  explicit CountWorkload(uint64_t count, const JobPacing& p = JobPacing()) : n(count) { set_pacing(p); }
  bool next(IoRequest& r) override {
    if (n && issued == n) return false;
    r.op = IoOp::Read;
    r.offset = (issued++ % 16) * 4096;
    r.bytes = 4096;
    return true;
  }
};

struct Seen {
  uint16_t qid;
  uint64_t submit_ps, complete_ps;
};

// Completes each command `service_ps` after its doorbell.
struct FakeTarget : sc_core::sc_module {
  tlm_utils::simple_target_socket<FakeTarget> tsock{"tsock"};
  uint64_t service_ps;
  std::vector<Seen> seen;  // in submission order
  FakeTarget(sc_core::sc_module_name n, uint64_t service) : sc_module(n), service_ps(service) {
    tsock.register_nb_transport_fw(this, &FakeTarget::fw);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    NvmeCommand& cmd = *gp.get_extension<NvmeCommand>();
    CHECK(ph == tlm::BEGIN_REQ);
    CHECK(cmd.submit_ps == now_ps());
    ph = tlm::END_REQ;
    cmd.complete_ps = now_ps() + service_ps;
    seen.push_back({cmd.qid, now_ps(), cmd.complete_ps});
    tlm::tlm_phase resp = tlm::BEGIN_RESP;
    sc_core::sc_time delay = ps_time(service_ps);
    tsock->nb_transport_bw(gp, resp, delay);
    return tlm::TLM_UPDATED;
  }
  // Commands in flight at t on queue q (all queues: q < 0), just after the submissions at t.
  uint32_t inflight(uint64_t t, int q = -1) const {
    uint32_t n = 0;
    for (const Seen& s : seen) n += s.submit_ps <= t && s.complete_ps > t && (q < 0 || s.qid == q);
    return n;
  }
  std::vector<uint64_t> submit_times() const {
    std::vector<uint64_t> v;
    for (const Seen& s : seen) v.push_back(s.submit_ps);
    return v;
  }
};

HostJob job(const char* name, Workload& w, uint32_t queues, uint32_t depth) {
  HostJob j;
  j.name = name;
  j.workload = &w;
  j.queues = queues;
  j.queue_depth = depth;
  return j;
}

// The host and the target, wired and run to the end.
struct Bench {
  NvmeHost host;
  FakeTarget target;
  Bench(const std::vector<HostJob>& jobs, double service_us)
      : host("host", HostParams{1u << 20, 65536}, jobs), target("target", us_to_ps(service_us)) {
    host.host_isock.bind(target.tsock);
    sc_core::sc_start();
  }
};

uint64_t us(double t) { return us_to_ps(t); }

}  // namespace

TEST_CASE("host module: a closed-loop job keeps every queue at its depth", "[module][host]") {
  constexpr double kService = 10;  // us
  CountWorkload w(40);
  Bench b({job("j", w, 2, 4)}, kService);  // 2 queues x depth 4: 8 in flight, 5 rounds of 8
  REQUIRE(b.target.seen.size() == 40);
  for (size_t i = 0; i < 40; ++i) {
    INFO("command " << i);
    CHECK(b.target.seen[i].submit_ps == us(kService * double(i / 8)));  // resubmitted as each completes
    if (i < 8) CHECK(b.target.seen[i].qid == i % 2);  // the queues are filled depth-major
  }
  for (int r = 0; r < 5; ++r) {
    CHECK(b.target.inflight(us(kService * r)) == 8);
    CHECK(b.target.inflight(us(kService * r), 0) == 4);
    CHECK(b.target.inflight(us(kService * r), 1) == 4);
  }
  CHECK(b.host.completed() == 40);
  CHECK(b.host.outstanding() == 0);
  CHECK(b.host.finished());
  CHECK(b.host.stats().last_complete_ps == us(5 * kService));
  CHECK(b.host.stats().latency[0].max() == uint64_t(kService * 1000));  // ns
  CHECK(b.host.stats().latency[0].min() == uint64_t(kService * 1000));
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(5 * kService, sc_core::SC_US));
}

TEST_CASE("host module: startdelay and stonewall decide when jobs start", "[module][host]") {
  constexpr double kService = 10;
  JobPacing late, wall;
  late.start_delay_ns = 5000;
  wall.stonewall = true;
  CountWorkload first(6), delayed(2, late), after(4, wall), with(3);
  // group 0: first (depth 2: 3 rounds, ends at 30 us), delayed (from 5 us, depth 1: ends at 25 us);
  // group 1 (stonewall): after (depth 1) and with (depth 3) start when group 0 is over, at 30 us.
  Bench b({job("first", first, 1, 2), job("delayed", delayed, 1, 1), job("after", after, 1, 1),
           job("with", with, 1, 3)},
          kService);
  CHECK(b.host.job_start_ps(0) == 0);
  CHECK(b.host.job_start_ps(1) == us(5));
  CHECK(b.host.job_start_ps(2) == us(30));
  CHECK(b.host.job_start_ps(3) == us(30));
  std::vector<uint64_t> q2, q3;  // one queue per job: qid = job index
  for (const Seen& s : b.target.seen) {
    if (s.qid == 2) q2.push_back(s.submit_ps);
    if (s.qid == 3) q3.push_back(s.submit_ps);
    if (s.qid >= 2) CHECK(s.submit_ps >= us(30));
  }
  CHECK(q2 == std::vector<uint64_t>{us(30), us(40), us(50), us(60)});
  CHECK(q3 == std::vector<uint64_t>{us(30), us(30), us(30)});
  CHECK(b.host.completed() == 15);
  CHECK(b.host.stats().last_complete_ps == us(70));
}

TEST_CASE("host module: completions before the ramp's end are left out of the measured statistics", "[module][host]") {
  constexpr double kService = 10;
  JobPacing p;
  p.ramp_ns = 35000;
  CountWorkload w(10, p);
  Bench b({job("j", w, 1, 1)}, kService);  // completions at 10, 20, ..., 100 us; the ramp ends at 35 us
  CHECK(b.host.stats().ios[0] == 10);
  CHECK(b.host.measured_stats().ios[0] == 7);  // 40 .. 100 us
  CHECK(b.host.job_stats(0).ios[0] == 7);
  CHECK(b.host.measured_stats().bytes[0] == 7 * 4096);
  CHECK(b.host.measured_stats().first_submit_ps == us(35));
  CHECK(b.host.measured_stats().last_complete_ps == us(100));
  CHECK(b.host.stats().first_submit_ps == 0);
}

TEST_CASE("host module: rate_iops spaces the submissions by 1 / rate", "[module][host]") {
  constexpr double kService = 1, kRate = 100000, kRuntimeUs = 1000;
  JobPacing p;
  p.rate_iops = kRate;  // one submission every 10 us
  p.runtime_ns = uint64_t(kRuntimeUs * 1000);
  CountWorkload w(0, p);  // endless: the runtime ends it
  Bench b({job("j", w, 1, 4)}, kService);
  const uint64_t n = uint64_t(kRate * kRuntimeUs / 1e6);  // 100
  REQUIRE(b.host.completed() == n);
  for (size_t i = 0; i < n; ++i) CHECK(b.target.seen[i].submit_ps == us(10.0 * double(i)));
  CHECK(b.host.stats().last_complete_ps == us(10.0 * double(n - 1) + kService));
}

TEST_CASE("host module: think time idles the job after each batch of think_blocks completions", "[module][host]") {
  constexpr double kService = 10, kThink = 5;
  JobPacing p;
  p.think_ns = uint64_t(kThink * 1000);
  p.think_blocks = 2;
  CountWorkload w(8, p);
  Bench b({job("j", w, 1, 4)}, kService);  // depth 4, but batches of 2: issue 2, both complete, think, ...
  const double batch = kService + kThink;
  CHECK(b.target.submit_times() == std::vector<uint64_t>{0, 0, us(batch), us(batch), us(2 * batch), us(2 * batch),
                                                         us(3 * batch), us(3 * batch)});
  CHECK(b.host.completed() == 8);
  CHECK(b.host.stats().last_complete_ps == us(3 * batch + kService));
  for (int k = 0; k < 4; ++k) CHECK(b.target.inflight(us(k * batch)) == 2);
}
