// The host's look-ahead (NvmeHost::submit): each command names the next request of its job (next_lpn,
// next_op, a speed hint for the controller's prefetch), and the request drawn ahead is acted on only where
// the host would have drawn it: a bad request stops the run after the commands before it have completed.
// A target stand-in records the commands and completes each 1 us after it arrives.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_target_socket.h>

#include <map>
#include <vector>

#include "common/sim_time.h"
#include "host/nvme_host.h"

using namespace ssdtlm;

namespace {

struct ListWorkload : Workload {
  std::vector<IoRequest> list;
  size_t pos = 0;
  bool next(IoRequest& r) override {
    if (pos == list.size()) return false;
    r = list[pos++];
    return true;
  }
};

struct Recorded {
  uint32_t lpn, next_lpn;
  IoOp next_op;
  uint64_t at_ps;
};

struct Target : sc_core::sc_module {
  tlm_utils::simple_target_socket<Target> tsock{"tsock"};
  std::vector<Recorded> seen;
  explicit Target(sc_core::sc_module_name n) : sc_module(n) {
    tsock.register_nb_transport_fw(this, &Target::fw);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time&) {
    NvmeCommand& cmd = *gp.get_extension<NvmeCommand>();
    seen.push_back({cmd.lpn, cmd.next_lpn, cmd.next_op, now_ps()});
    ph = tlm::END_REQ;
    cmd.complete_ps = now_ps() + us_to_ps(1);
    tlm::tlm_phase resp = tlm::BEGIN_RESP;
    sc_core::sc_time delay = ps_time(us_to_ps(1));
    tsock->nb_transport_bw(gp, resp, delay);
    return tlm::TLM_UPDATED;
  }
};

IoRequest req(IoOp op, uint32_t lpn, uint32_t bytes = 4096) {
  IoRequest r;
  r.op = op;
  r.offset = uint64_t(lpn) * 4096;
  r.bytes = bytes;
  return r;
}

// One job over the workload at queue depth 1 (request i is submitted when request i - 1 completes, at i us)
// on a 1 MiB namespace taking up to 64 KiB per command, run to its end.
struct Run {
  static HostJob job(Workload& w) {
    HostJob j;
    j.name = "j";
    j.workload = &w;
    j.queue_depth = 1;
    return j;
  }
  static HostParams params() {
    HostParams p;
    p.logical_bytes = 1u << 20;
    p.max_bytes = 65536;
    return p;
  }
  NvmeHost host;
  Target target{"target"};
  explicit Run(Workload& w) : host("host", params(), {job(w)}) {
    host.host_isock.bind(target.tsock);
    sc_core::sc_start();
  }
};

}  // namespace

TEST_CASE("host look-ahead: each command names its job's next request and a bad request stops where it is due", "[host][lookahead]") {
  ListWorkload w;
  w.list = {req(IoOp::Write, 5), req(IoOp::Read, 9), req(IoOp::Write, 2), req(IoOp::Write, 7),
            req(IoOp::Write, 1, 1u << 20)};  // the last exceeds the 64 KiB the device takes
  Run run(w);
  NvmeHost& host = run.host;
  Target& target = run.target;

  REQUIRE(target.seen.size() == 4);
  for (size_t i = 0; i < 4; ++i) {
    INFO("command " << i);
    CHECK(target.seen[i].lpn == w.list[i].offset / 4096);
    CHECK(target.seen[i].at_ps == us_to_ps(double(i)));
  }
  // The hint: the next request's first unit and kind; none on the command before the bad request (drawn
  // and found bad then, refused only when due).
  for (size_t i = 0; i < 3; ++i) {
    INFO("command " << i);
    CHECK(target.seen[i].next_lpn == w.list[i + 1].offset / 4096);
    CHECK(target.seen[i].next_op == w.list[i + 1].op);
  }
  CHECK(target.seen[3].next_lpn == NvmeCommand::kNoNextLpn);
  // Refused when it was due, after the four before it had completed (not when it was drawn, at 3 us).
  REQUIRE(host.error() != nullptr);
  CHECK_THROWS_WITH(std::rethrow_exception(host.error()), Catch::Matchers::Contains("exceeds the write buffer"));
  CHECK(host.completed() == 4);
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(4, sc_core::SC_US));
}

TEST_CASE("host look-ahead: a job's last command names no next request and the run ends with it", "[host][lookahead]") {
  ListWorkload w;
  w.list = {req(IoOp::Write, 3), req(IoOp::Write, 4)};
  Run run(w);
  NvmeHost& host = run.host;
  Target& target = run.target;
  REQUIRE(target.seen.size() == 2);
  CHECK(target.seen[0].next_lpn == 4);
  CHECK(target.seen[1].next_lpn == NvmeCommand::kNoNextLpn);
  CHECK(host.error() == nullptr);
  CHECK(host.finished());
  CHECK(host.completed() == 2);
  CHECK(sc_core::sc_time_stamp() == sc_core::sc_time(2, sc_core::SC_US));
}

namespace {
// A workload with work of its own in simulated time (Workload::wake_period_ns, as a page cache's flusher): it
// records the times the host gives it; each wake queues a request at lpn 100 + k; close() (after a runtime cut)
// queues two requests at lpn 200, 201.
struct TimedWorkload : Workload {
  uint64_t period_ns = 10000, draws = 0, limit = ~uint64_t(0);
  std::vector<uint64_t> clocks, wakes;
  std::vector<IoRequest> queued;
  bool closed = false, close_after_end = false;
  uint64_t wake_period_ns() const override { return period_ns; }
  void wake(uint64_t now_ns) override {
    wakes.push_back(now_ns);
    queued.push_back(req(IoOp::Write, uint32_t(100 + wakes.size())));
  }
  void clock(uint64_t now_ns) override { clocks.push_back(now_ns); }
  bool close() override {
    closed = true;
    queued = {req(IoOp::Write, 200), req(IoOp::Write, 201)};
    for (IoRequest& r : queued) r.after_end = close_after_end;
    return true;
  }
  bool next(IoRequest& r) override {
    if (!queued.empty()) {
      r = queued.front();
      queued.erase(queued.begin());
      return true;
    }
    if (closed || draws == limit) return false;
    r = req(IoOp::Write, uint32_t(draws++ % 64));
    return true;
  }
};
}  // namespace

TEST_CASE("host: a timed workload is told the time before each draw, woken on the run's clock, drawn without look-ahead",
          "[host][lookahead][buffered]") {
  TimedWorkload w;
  w.limit = 25;  // 25 requests of 1 us each, plus the wakes' requests
  Run run(w);
  REQUIRE(run.host.finished());
  // Wakes at 10 us and 20 us of the run's clock; each queued a request, issued next.
  REQUIRE(w.wakes.size() == 2);
  CHECK(w.wakes[0] == 10000);
  CHECK(w.wakes[1] == 20000);
  REQUIRE(run.target.seen.size() == 27);
  CHECK(run.target.seen[10].lpn == 101);  // the request queued at 10 us is the one submitted at 10 us
  CHECK(run.target.seen[10].at_ps == us_to_ps(10));
  // No look-ahead: no command names a next request, and every draw came with the time it was drawn at.
  for (const auto& c : run.target.seen) CHECK(c.next_lpn == NvmeCommand::kNoNextLpn);
  REQUIRE(w.clocks.size() >= 27);
  for (size_t i = 0; i < 27; ++i) CHECK(w.clocks[i] == run.target.seen[i].at_ps / 1000);
  CHECK_FALSE(w.closed);  // the job ended by itself
}

TEST_CASE("host: a job stopped by its runtime issues what its workload's close sends, then ends", "[host][buffered]") {
  TimedWorkload w;
  w.period_ns = 1000000;  // no wake within the run
  JobPacing p;
  p.runtime_ns = 5000;  // 5 us: requests at 0..4 us, then the close's two
  w.set_pacing(p);
  Run run(w);
  REQUIRE(run.host.finished());
  CHECK(w.closed);
  REQUIRE(run.target.seen.size() == 7);
  CHECK(run.target.seen[5].lpn == 200);
  CHECK(run.target.seen[6].lpn == 201);
  CHECK(run.target.seen[5].at_ps == us_to_ps(5));
  CHECK(run.host.completed() == 7);
}

TEST_CASE("host: the writes of a close after the runtime (IoRequest::after_end) are on the drive, not the job's",
          "[host][buffered]") {
  TimedWorkload w;
  w.period_ns = 1000000;
  w.close_after_end = true;
  JobPacing p;
  p.runtime_ns = 5000;
  w.set_pacing(p);
  Run run(w);
  REQUIRE(run.host.finished());
  REQUIRE(run.target.seen.size() == 7);
  CHECK(run.host.stats().ios[1] == 7);  // the drive's: all
  // The job's (fio's runtime ends at the cut): its 5 requests, its span to the last of them (5 us), not 7 us.
  CHECK(run.host.job_stats(0).ios[1] == 5);
  CHECK(run.host.measured_stats().ios[1] == 5);
  CHECK(run.host.job_stats(0).last_complete_ps == us_to_ps(5));
  CHECK(run.host.stats().last_complete_ps == us_to_ps(7));
}

namespace {
// A workload with requests of its own (Workload::next_background, a page cache's flusher): its fifth draw queues
// three, at most two in flight; after its fifth request it waits (Workload::waiting) until all three completed.
struct WritebackWorkload : Workload {
  std::vector<IoRequest> bg;
  uint32_t bg_inflight = 0, bg_done = 0, draws = 0, limit = 10;
  bool wait = false;
  bool writes_back() const override { return true; }
  bool next_background(IoRequest& r) override {
    if (bg.empty() || bg_inflight >= 2) return false;
    r = bg.front();
    bg.erase(bg.begin());
    ++bg_inflight;
    return true;
  }
  void background_done(uint32_t) override { --bg_inflight, ++bg_done; }
  bool waiting() const override { return wait; }
  bool next(IoRequest& r) override {
    wait = draws == 5 && bg_done < 3;
    if (wait || draws == limit) return false;
    if (draws == 4) bg = {req(IoOp::Write, 300), req(IoOp::Write, 301), req(IoOp::Write, 302)};
    r = req(IoOp::Write, draws++);
    return true;
  }
};
}  // namespace

TEST_CASE("host: a workload's own requests go out beside the job's, in none of its slots, and a waiting workload is drawn "
          "again when they complete",
          "[host][buffered]") {
  WritebackWorkload w;
  Run run(w);  // queue depth 1
  REQUIRE(run.host.finished());
  REQUIRE(run.target.seen.size() == 13);
  // At 4 us: the job's request and two of the workload's, beside it at queue depth 1; the third at 5 us, when one
  // of them completed. The job waits from 5 us until all three have completed (6 us): its next request then.
  std::map<uint32_t, uint64_t> at;
  for (const auto& c : run.target.seen) {
    at[c.lpn] = c.at_ps;
    CHECK(c.next_lpn == NvmeCommand::kNoNextLpn);  // no look-ahead
  }
  CHECK(at[4] == us_to_ps(4));
  CHECK(at[300] == us_to_ps(4));
  CHECK(at[301] == us_to_ps(4));
  CHECK(at[302] == us_to_ps(5));
  CHECK(at[5] == us_to_ps(6));
  CHECK(at[9] == us_to_ps(10));
  CHECK(w.bg_done == 3);
  CHECK(run.host.completed() == 13);
  CHECK(run.host.job_stats(0).ios[1] == 13);  // counted as the job's (the commands its cache sent)
}
