// Module tests of NvmeController alone, between a fake host initiator (rings doorbells: BEGIN_REQ on
// nvme_tsock, records the BEGIN_RESP's annotated completion time) and a fake CommandSink backend (records each
// command's arrival, calls complete() a fixed service time later, at that time, as the FTL completes reads).
// Expected times follow the front end's model: one fetch per nvme.fetch_ns in round-robin order over the
// submission queues, and per link direction a calendar that charges bytes / bandwidth per transfer in the wire's
// free time from when it may start (a FIFO when transfers are booked in time order), plus the one-way latency at the
// far end: SQEs (64 B) and write data go down, read data and CQEs (16 B) go up.
#include <catch2/catch.hpp>

#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include "common/payload_pool.h"
#include "common/sim_time.h"
#include "controller/nvme_controller.h"

using namespace ssdtlm;

namespace {

constexpr uint64_t kPsPerByte = 250;                    // 4 GB/s per direction
constexpr uint64_t kLatency = 500000, kFetch = 40000;  // ps: one-way link latency, fetch engine per command
constexpr uint64_t kReadService = 2000000, kWriteService = 20000000;  // ps: the backend's time per command
constexpr uint64_t kSqe = 64 * kPsPerByte, kCqe = 16 * kPsPerByte;   // wire time of an entry

uint64_t wire(uint64_t bytes) { return bytes * kPsPerByte; }
uint64_t us(double t) { return us_to_ps(t); }

struct FakeHost : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<FakeHost> isock{"isock"};
  PayloadPool<NvmeCommand> pool;
  std::map<uint32_t, uint64_t> done;  // command id -> completion entry time (BEGIN_RESP time + delay)
  std::function<void(FakeHost&)> script;
  explicit FakeHost(sc_core::sc_module_name n) : sc_module(n) {
    isock.register_nb_transport_bw(this, &FakeHost::bw);
    SC_HAS_PROCESS(FakeHost);
    SC_THREAD(run);
  }
  void run() {
    if (script) script(*this);
  }
  void at(uint64_t t) {
    if (t > now_ps()) sc_core::wait(ps_time(t - now_ps()));
  }
  // Rings the doorbell of queue qid for a command (its id travels as the LPN).
  void ring(uint32_t id, uint16_t qid, IoOp op, uint32_t bytes) {
    tlm::tlm_generic_payload* gp = pool.acquire();
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(*gp);
    cmd.op = op;
    cmd.lpn = id;
    cmd.units = (bytes + 4095) / 4096;
    cmd.bytes = bytes;
    cmd.qid = qid;
    cmd.submit_ps = now_ps();
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    REQUIRE(isock->nb_transport_fw(*gp, ph, delay) == tlm::TLM_UPDATED);
    REQUIRE(ph == tlm::END_REQ);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& ph, sc_core::sc_time& delay) {
    REQUIRE(ph == tlm::BEGIN_RESP);
    NvmeCommand& cmd = PayloadPool<NvmeCommand>::ext(gp);
    const uint64_t t = now_ps() + delay.value();
    CHECK(cmd.complete_ps == t);
    CHECK(done.count(cmd.lpn) == 0);
    done[cmd.lpn] = t;
    gp.release();
    ph = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
};

struct Arrival {
  uint32_t id;
  uint16_t qid;
  uint64_t arrival_ps;
};

struct FakeBackend : sc_core::sc_module, CommandSink {
  NvmeController* nvme = nullptr;
  std::vector<Arrival> arrivals;  // in submit() order
  std::multimap<uint64_t, NvmeCommand*> pending;
  std::function<void()> on_first_submit;  // called once, inside the first submit()
  // As the FTL takes a write into its buffer: complete() inside submit(), for the time the service ends.
  bool complete_in_submit = false;
  sc_core::sc_event wake;
  explicit FakeBackend(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(FakeBackend);
    SC_METHOD(on_wake);
    sensitive << wake;
    dont_initialize();
  }
  void submit(NvmeCommand& cmd, uint64_t arrival_ps) override {
    CHECK(arrival_ps >= now_ps());
    arrivals.push_back({cmd.lpn, cmd.qid, arrival_ps});
    if (complete_in_submit) {
      nvme->complete(cmd, arrival_ps + (cmd.op == IoOp::Read ? kReadService : kWriteService));
      return;
    }
    pending.emplace(arrival_ps + (cmd.op == IoOp::Read ? kReadService : kWriteService), &cmd);
    wake.notify(ps_time(pending.begin()->first - now_ps()));
    if (on_first_submit) {
      auto f = std::move(on_first_submit);
      on_first_submit = nullptr;
      f();
    }
  }
  void on_wake() {
    while (!pending.empty() && pending.begin()->first <= now_ps()) {
      NvmeCommand* cmd = pending.begin()->second;
      pending.erase(pending.begin());
      nvme->complete(*cmd, now_ps());
    }
    if (!pending.empty()) wake.notify(ps_time(pending.begin()->first - now_ps()));
  }
};

// The controller between the fake host and the fake backend.
struct Bench : sc_core::sc_module {
  FakeHost host{"host"};
  FakeBackend backend{"backend"};
  std::unique_ptr<NvmeController> nvme;
  Bench(sc_core::sc_module_name n, uint32_t queues) : sc_module(n) {
    NvmeParams p;
    p.link_bytes_per_s = 1e12 / double(kPsPerByte);
    p.link_latency_ps = kLatency;
    p.fetch_ps = kFetch;
    p.queues = queues;
    nvme = std::make_unique<NvmeController>("nvme", p);
    host.isock.bind(nvme->nvme_tsock);
    nvme->bind_backend(&backend);
    backend.nvme = nvme.get();
  }
  uint64_t arrival(uint32_t id) const {
    for (const Arrival& a : backend.arrivals)
      if (a.id == id) return a.arrival_ps;
    FAIL("command " << id << " never reached the backend");
    return 0;
  }
  uint64_t done(uint32_t id) const {
    auto it = host.done.find(id);
    if (it == host.done.end()) FAIL("command " << id << " never completed");
    return it->second;
  }
};

}  // namespace

TEST_CASE("nvme controller module: one queue, fetch, data and completion entries on the link", "[module][nvme]") {
  Bench b("bench", 1);
  b.host.script = [](FakeHost& h) {
    h.at(us(1));
    h.ring(1, 0, IoOp::Read, 4096);
    h.at(us(40));
    h.ring(2, 0, IoOp::Write, 8192);
    h.at(us(80));
    h.ring(3, 0, IoOp::Trim, 1 << 20);
  };
  sc_core::sc_start();
  // Each command: fetched (fetch_ns), its SQE crosses the link down, then the backend's service time.
  const uint64_t a1 = us(1) + kFetch + kSqe + kLatency, a2 = us(40) + kFetch + kSqe + kLatency,
                 a3 = us(80) + kFetch + kSqe + kLatency;
  CHECK(b.arrival(1) == a1);
  CHECK(b.arrival(2) == a2);
  CHECK(b.arrival(3) == a3);
  // Read: the data goes up, then the CQE right behind it; the host sees the CQE a latency later.
  CHECK(b.done(1) == a1 + kReadService + wire(4096) + kCqe + kLatency);
  // Write: the data comes down from host memory (arriving a latency later), then the CQE goes up.
  CHECK(b.done(2) == a2 + kWriteService + wire(8192) + kLatency + kCqe + kLatency);
  // TRIM: a 16-byte range comes down, whatever the length trimmed, then the CQE.
  CHECK(b.done(3) == a3 + kWriteService + wire(16) + kLatency + kCqe + kLatency);
  CHECK(b.nvme->link_down().busy_ps() == 3 * kSqe + wire(8192) + wire(16));
  CHECK(b.nvme->link_up().busy_ps() == wire(4096) + 3 * kCqe);
}

TEST_CASE("nvme controller module: several queues share the fetch engine and each link direction", "[module][nvme]") {
  Bench b("bench", 3);
  b.host.script = [](FakeHost& h) {
    h.ring(1, 0, IoOp::Read, 65536);  // four doorbells at 0: fetched one per fetch_ns, in doorbell order
    h.ring(2, 1, IoOp::Read, 65536);
    h.ring(3, 2, IoOp::Read, 4096);
    h.ring(4, 0, IoOp::Write, 16384);
    h.at(us(21));
    h.ring(5, 1, IoOp::Write, 4096);  // while write 4's data is on the down link
  };
  sc_core::sc_start();
  std::vector<uint16_t> qids;
  for (const Arrival& a : b.backend.arrivals) qids.push_back(a.qid);
  CHECK(qids == std::vector<uint16_t>{0, 1, 2, 0, 1});
  for (uint32_t i = 0; i < 4; ++i) CHECK(b.arrival(i + 1) == (i + 1) * kFetch + kSqe + kLatency);
  // Up link: read 1's data and CQE, then read 2's (ready 40 ns later, it waits), then read 3's.
  const uint64_t r1 = b.arrival(1) + kReadService, r1_up = r1 + wire(65536) + kCqe;
  CHECK(b.done(1) == r1_up + kLatency);
  const uint64_t r2_up = r1_up + wire(65536) + kCqe;
  CHECK(b.done(2) == r2_up + kLatency);
  const uint64_t r3_up = r2_up + wire(4096) + kCqe;
  CHECK(b.done(3) == r3_up + kLatency);
  // Write 4: its data comes down at once (the SQEs left long ago); its CQE waits for read 3's transfers,
  // queued on the up link before it.
  const uint64_t w4_down = b.arrival(4) + kWriteService + wire(16384);
  REQUIRE(w4_down + kLatency < r3_up);
  CHECK(b.done(4) == r3_up + kCqe + kLatency);
  // Command 5: fetched at 21 us + fetch_ns, its SQE waits for write 4's data to leave the down link.
  REQUIRE(us(21) + kFetch < w4_down);
  const uint64_t a5 = w4_down + kSqe + kLatency;
  CHECK(b.arrival(5) == a5);
  CHECK(b.done(5) == a5 + kWriteService + wire(4096) + kLatency + kCqe + kLatency);
  CHECK(b.nvme->link_down().busy_ps() == 5 * kSqe + wire(16384) + wire(4096));
  CHECK(b.nvme->link_up().busy_ps() == 2 * wire(65536) + wire(4096) + 5 * kCqe);
}

TEST_CASE("nvme controller module: waiting submission queues are fetched round robin", "[module][nvme]") {
  Bench b("bench", 3);
  // Commands ring while the engine fetches command 1 (from inside its hand-over to the backend), so that
  // several queues wait at once: q0 holds 2 and 3, q1 holds 4, q2 holds 5 and 6.
  b.backend.on_first_submit = [&b] {
    b.host.ring(2, 0, IoOp::Read, 4096);
    b.host.ring(3, 0, IoOp::Read, 4096);
    b.host.ring(4, 1, IoOp::Read, 4096);
    b.host.ring(5, 2, IoOp::Read, 4096);
    b.host.ring(6, 2, IoOp::Read, 4096);
  };
  b.host.script = [](FakeHost& h) { h.ring(1, 0, IoOp::Read, 4096); };
  sc_core::sc_start();
  // After q0 (command 1) the arbiter goes on with q1, q2, q0, then q2 (q1 is empty), then q0.
  std::vector<uint32_t> order;
  for (const Arrival& a : b.backend.arrivals) order.push_back(a.id);
  CHECK(order == std::vector<uint32_t>{1, 4, 5, 2, 6, 3});
  for (size_t i = 0; i < order.size(); ++i) {
    INFO("fetch " << i);
    CHECK(b.backend.arrivals[i].arrival_ps == (i + 1) * kFetch + kSqe + kLatency);  // one per fetch_ns
    // 4 KiB of read data each: the up link, slower than the fetches, serializes them.
    CHECK(b.done(order[i]) == b.arrival(1) + kReadService + (i + 1) * (wire(4096) + kCqe) + kLatency);
  }
}

TEST_CASE("nvme controller module: queued writes completed inside submit do not serialize on the link", "[module][nvme]") {
  // The FTL completes a write inside submit() when its buffer takes it, for a time ahead (its firmware and buffer
  // time): the write's data is booked on the down link then, before the next commands' entry fetches, booked for
  // earlier times. Those must not wait behind it (the link was a FIFO in call order: each write cost fetch +
  // service + data in series).
  Bench b("bench", 1);
  b.backend.complete_in_submit = true;
  constexpr uint32_t kWrites = 8;
  b.host.script = [](FakeHost& h) {
    for (uint32_t i = 1; i <= kWrites; ++i) h.ring(i, 0, IoOp::Write, 4096);  // eight doorbells at 0
  };
  sc_core::sc_start();
  uint64_t data_end = 0;
  for (uint32_t i = 1; i <= kWrites; ++i) {
    INFO("write " << i);
    // One fetch per fetch_ns, each entry on the idle down link at once.
    const uint64_t a = i * kFetch + kSqe + kLatency;
    CHECK(b.arrival(i) == a);
    // The data goes down from its service's end (the link carries the data of the writes before it first).
    data_end = std::max(a + kWriteService, data_end) + wire(4096);
    CHECK(b.done(i) == data_end + kLatency + kCqe + kLatency);
  }
  // The old FIFO: the last write completed after eight services in series.
  CHECK(b.done(kWrites) < kWrites * kWriteService);
  CHECK(b.nvme->link_down().busy_ps() == kWrites * (kSqe + wire(4096)));
  CHECK(b.nvme->link_up().busy_ps() == kWrites * kCqe);
}
