// The NVMe endpoint brought up by the driver through the register protocol alone, and the statuses the
// specification gives malformed commands, invalid queue ids, doorbell values and PRP offsets
// (NVMe Base 1.4 §3.1, §4.3, §5, §7.6; status codes in Figures 128-130).
#include "endpoint_harness.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using ssdtlm::test::cmd;
using ssdtlm::test::EndpointBench;
using ssdtlm::test::small_ep;
using ssdtlm::test::two_queues;
using ssdtlm::test::run_bench;

TEST_CASE("nvme endpoint: the driver brings the controller up, does I/O and shuts it down through registers") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    CHECK((b.ep.csts() & kCstsRdy) == 0);
    b.up();
    CHECK((b.ep.csts() & kCstsRdy) != 0);
    CHECK(b.drv.read32(kVs) == kVersion14);
    CHECK(b.drv.lba_bytes() == 512);
    CHECK(b.drv.ns_lbas() == (1ull << 30) / 512);
    CHECK(b.drv.max_transfer_bytes() == 128 * 1024);
    // A read and a write through queue 1: the FTL sees them as commands of the model.
    sc_core::sc_event ev;
    int done = 0;
    NvmeDriver::Io r;
    r.opcode = kRead, r.slba = 16, r.nlb = 8, r.queue = 1;
    REQUIRE(b.drv.submit(r, [&](const Completion& c) { CHECK(c.status == 0); ++done, ev.notify(); }));
    NvmeDriver::Io w = r;
    w.opcode = kWrite, w.slba = 24, w.nlb = 1;
    REQUIRE(b.drv.submit(w, [&](const Completion& c) { CHECK(c.status == 0); ++done, ev.notify(); }));
    while (done < 2) sc_core::wait(ev);
    REQUIRE(b.ftl.seen.size() == 2);
    CHECK(b.ftl.seen[0].op == IoOp::Read);
    CHECK(b.ftl.seen[0].lpn == 2);
    CHECK(b.ftl.seen[0].units == 1);
    CHECK(b.ftl.seen[0].bytes == 4096);
    CHECK(b.ftl.seen[0].qid == 1);
    CHECK(b.ftl.seen[1].op == IoOp::Write);
    CHECK(b.ftl.seen[1].bytes == 512);
    CHECK(b.ftl.seen[1].partial == 2);  // ends inside its 4 KiB unit
    CHECK(b.drv.interrupts() >= 2);
    // Normal shutdown: CC.SHN, CSTS.SHST reaches "complete" (shutdown() waits for it), then CC.EN = 0 resets.
    std::string err;
    const bool down = b.drv.shutdown(&err);
    INFO(err);
    CHECK(down);
    CHECK((b.ep.csts() & kCstsRdy) == 0);
    CHECK(((b.ep.csts() >> 2) & 3) == kShstNormal);  // the reset clears it
  });
}

TEST_CASE("nvme endpoint: an enable with an invalid admin queue sets Controller Fatal Status") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.drv.write32(kAqa, 0);  // one-entry admin queues
    b.drv.write32(kAsq, 0x200000), b.drv.write32(kAcq, 0x201000);
    b.drv.write32(kCc, kCcEn);
    sc_core::wait(ps_time(5000000000ull));
    CHECK((b.drv.read32(kCsts) & kCstsCfs) != 0);
    CHECK((b.drv.read32(kCsts) & kCstsRdy) == 0);
    b.drv.write32(kCc, 0);  // a reset clears it
    sc_core::wait(ps_time(5000000000ull));
    CHECK((b.drv.read32(kCsts) & kCstsCfs) == 0);
    b.up();  // and a proper bring-up works afterwards
  });
}

TEST_CASE("nvme endpoint: admin commands get the specification's statuses") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    auto status = [&](Sqe e, uint64_t prp1 = 0x300000) {
      e.set_prp(prp1, 0);
      return b.drv.admin(e).status;
    };
    CHECK(status(cmd(0x7F, 0)) == kInvalidOpcode);
    // Queue 2 goes (its SQ first: a CQ an SQ still uses cannot be deleted), then comes back wrong in every way.
    CHECK(status(cmd(kDeleteCq, 0, 2)) == kInvalidQueueDeletion);
    CHECK(status(cmd(kDeleteSq, 0, 2)) == kSuccess);
    CHECK(status(cmd(kDeleteSq, 0, 2)) == kInvalidQueueId);
    CHECK(status(cmd(kDeleteCq, 0, 2)) == kSuccess);
    CHECK(status(cmd(kDeleteCq, 0, 0)) == kInvalidQueueId);
    // Create I/O CQ: queue id 0, beyond the granted Number of Queues (2), existing; size; vector; base; contiguity.
    CHECK(status(cmd(kCreateCq, 0, 0 | 15u << 16, 1)) == kInvalidQueueId);
    CHECK(status(cmd(kCreateCq, 0, 3 | 15u << 16, 1)) == kInvalidQueueId);
    CHECK(status(cmd(kCreateCq, 0, 1 | 15u << 16, 1)) == kInvalidQueueId);
    CHECK(status(cmd(kCreateCq, 0, 2 | 4095u << 16, 1)) == kInvalidQueueSize);  // MQES is 255
    CHECK(status(cmd(kCreateCq, 0, 2 | 0u << 16, 1)) == kInvalidQueueSize);     // one entry
    CHECK(status(cmd(kCreateCq, 0, 2 | 15u << 16, 1 | 99u << 16)) == kInvalidInterruptVector);
    CHECK(status(cmd(kCreateCq, 0, 2 | 15u << 16, 1), 0x300100) == kPrpOffsetInvalid);
    CHECK(status(cmd(kCreateCq, 0, 2 | 15u << 16, 0)) == kInvalidField);
    // Create I/O SQ on a completion queue that does not exist.
    CHECK(status(cmd(kCreateSq, 0, 2 | 15u << 16, 1 | 2u << 16)) == kCqInvalid);
    CHECK(status(cmd(kCreateCq, 0, 2 | 15u << 16, 1 | 2u << 16)) == kSuccess);
    CHECK(status(cmd(kCreateSq, 0, 2 | 15u << 16, 1 | 2u << 16), 0x301000) == kSuccess);
    // Identify of a namespace that does not exist; a log page that does not exist; an unknown feature.
    CHECK(status(cmd(kIdentify, 2, kCnsNamespace)) == kInvalidNamespace);
    CHECK(status(cmd(kGetLogPage, 0, 0x70 | 127u << 16)) == kInvalidLogPage);
    CHECK(status(cmd(kGetFeatures, 0, 0x55)) == kInvalidField);
    CHECK(status(cmd(kSetFeatures, 0, kFeatVwc, 1)) == kInvalidField);  // no volatile write cache
    // SMART log: data units written count the write below (1 unit = 1000 x 512 B, rounded up).
    CHECK(status(cmd(kGetLogPage, 0, kLogSmart | 127u << 16)) == kSuccess);
  });
}

TEST_CASE("nvme endpoint: I/O commands get the specification's statuses") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    const uint64_t buf = b.drv.data_buffer();
    Sqe e = cmd(kRead, 1, 0, 0);
    e.dw[12] = 7;  // 8 LBAs
    e.set_prp(buf, 0);
    CHECK(b.raw(0, e).status == kSuccess);
    Sqe bad = e;
    bad.dw[0] = 0x7E;
    CHECK(b.raw(0, bad).status == kInvalidOpcode);
    bad = e;
    bad.dw[0] = kZoneMgmtRecv;  // the namespace is not zoned
    CHECK(b.raw(0, bad).status == kInvalidOpcode);
    bad = e;
    bad.dw[1] = 2;
    CHECK(b.raw(0, bad).status == kInvalidNamespace);
    bad = e;
    bad.dw[10] = uint32_t((1ull << 30) / 512 - 4);  // runs past the end
    CHECK(b.raw(0, bad).status == kLbaOutOfRange);
    bad = e;
    bad.set_prp(buf + 2, 0);  // PRP1 not dword aligned
    CHECK(b.raw(0, bad).status == kPrpOffsetInvalid);
    bad = e;
    bad.dw[12] = 15;  // 8 KiB: PRP2 is the second page and must have offset 0
    bad.set_prp(buf, buf + 4096 + 512);
    CHECK(b.raw(0, bad).status == kPrpOffsetInvalid);
    bad = e;
    bad.dw[12] = 511;  // 256 KiB > MDTS (128 KiB)
    CHECK(b.raw(0, bad).status == kInvalidField);
    bad = e;
    bad.dw[0] |= 3u << 14;  // PSDT 11b: reserved
    CHECK(b.raw(0, bad).status == kInvalidField);
    CHECK(b.ftl.seen.size() == 1);  // none of the malformed ones reached the FTL
  });
}

TEST_CASE("nvme endpoint: invalid doorbell registers and values are reported as asynchronous events") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    std::vector<Completion> events;
    sc_core::sc_event ev;
    // Two Asynchronous Event Requests outstanding, posted directly on the admin queue.
    for (int i = 0; i < 2; ++i) {
      Sqe aer = cmd(kAsyncEvent, 0);
      b.drv.submit_raw(NvmeDriver::kAdminQueue, aer, [&](const Completion& c) { events.push_back(c), ev.notify(); });
    }
    sc_core::wait(ps_time(10000000));
    CHECK(events.empty());
    b.drv.write32(kDoorbells + 2 * 4 * 3, 1);  // SQ 3 tail: the queue does not exist
    b.drv.write32(kDoorbells + 2 * 4 * 1, 16);  // SQ 1 tail = 16: beyond its 16 entries
    while (events.size() < 2) sc_core::wait(ev);
    CHECK(events[0].status == kSuccess);
    CHECK((events[0].result & 7) == 0);             // error status
    CHECK(((events[0].result >> 8) & 0xFF) == 0);   // write to invalid doorbell register
    CHECK(((events[0].result >> 16) & 0xFF) == kLogError);
    CHECK(((events[1].result >> 8) & 0xFF) == 1);   // invalid doorbell write value
    CHECK(b.ep.counters().doorbell_errors == 2);
    // The controller goes on: I/O still completes.
    NvmeDriver::Io r;
    r.nlb = 8;
    bool ok = false;
    REQUIRE(b.drv.submit(r, [&](const Completion& c) { ok = c.status == 0, ev.notify(); }));
    sc_core::wait(ev);
    CHECK(ok);
  });
}

TEST_CASE("nvme endpoint: an event that waited for its request is reported once and counted once") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    b.drv.write32(kDoorbells + 2 * 4 * 3, 1);  // SQ 3 tail: the queue does not exist; no request outstanding
    sc_core::wait(ps_time(10000000));
    std::vector<Completion> events;
    sc_core::sc_event ev;
    Sqe aer = cmd(kAsyncEvent, 0);
    b.drv.submit_raw(NvmeDriver::kAdminQueue, aer, [&](const Completion& c) { events.push_back(c), ev.notify(); });
    while (events.empty()) sc_core::wait(ev);
    CHECK(((events[0].result >> 16) & 0xFF) == kLogError);
    CHECK(b.ep.counters().doorbell_errors == 1);
    b.drv.submit_raw(NvmeDriver::kAdminQueue, aer, [&](const Completion& c) { events.push_back(c), ev.notify(); });
    sc_core::wait(ps_time(100000000));
    CHECK(events.size() == 1);  // nothing else to report
  });
}

namespace {
// An approximately-timed initiator: BEGIN_REQ through nb_transport_fw, as an AT bus or CPU model sends it.
struct AtProbe : sc_core::sc_module, tlm::tlm_bw_transport_if<> {
  tlm::tlm_initiator_socket<> isock{"isock"};
  explicit AtProbe(sc_core::sc_module_name n) : sc_module(n) { isock.bind(*this); }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_core::sc_time&) override {
    return tlm::TLM_ACCEPTED;
  }
  void invalidate_direct_mem_ptr(sc_dt::uint64, sc_dt::uint64) override {}
  // One access of `bytes` at `addr`: the status the target returned, `phase` and `delay` as it left them.
  tlm::tlm_sync_enum access(tlm::tlm_command c, uint64_t addr, void* data, uint32_t bytes, tlm::tlm_phase& phase,
                            sc_core::sc_time& delay) {
    gp.set_command(c), gp.set_address(addr), gp.set_data_ptr(static_cast<unsigned char*>(data));
    gp.set_data_length(bytes), gp.set_streaming_width(bytes), gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    phase = tlm::BEGIN_REQ, delay = sc_core::SC_ZERO_TIME;
    return isock->nb_transport_fw(gp, phase, delay);
  }
  tlm::tlm_generic_payload gp;
};
}  // namespace

TEST_CASE("nvme endpoint and host memory: an approximately-timed initiator's request is answered at once") {
  // BAR0 and host memory are bound to the modules' own transport interfaces: a BEGIN_REQ completes in the call
  // (TLM_COMPLETED, BEGIN_RESP, the access's time in the delay), as the base protocol allows a target.
  const EndpointParams p = small_ep();
  NvmeEndpoint ep("ep", p);
  HostMemory dma_target("dma_target", 0x100000, 1 << 20), mem("mem", 0x100000, 1 << 20);
  AtProbe to_bar("to_bar"), to_mem("to_mem");
  to_bar.isock.bind(ep.bar);
  ep.dma.bind(dma_target.tsock);
  to_mem.isock.bind(mem.tsock);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaboration completes the bindings
  tlm::tlm_phase phase;
  sc_core::sc_time delay;
  uint64_t cap = 0;
  CHECK(to_bar.access(tlm::TLM_READ_COMMAND, kCap, &cap, 8, phase, delay) == tlm::TLM_COMPLETED);
  CHECK(phase == tlm::BEGIN_RESP);
  CHECK(to_bar.gp.is_response_ok());
  CHECK((cap & 0xFFFF) == p.mqes);
  CHECK(delay > sc_core::SC_ZERO_TIME);  // a register read is a round trip over the link
  uint32_t bad = 0;
  CHECK(to_bar.access(tlm::TLM_READ_COMMAND, 0x2, &bad, 4, phase, delay) == tlm::TLM_COMPLETED);
  CHECK(to_bar.gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // misaligned
  uint32_t v = 0xA5A5F00D, back = 0;
  CHECK(to_mem.access(tlm::TLM_WRITE_COMMAND, 0x100040, &v, 4, phase, delay) == tlm::TLM_COMPLETED);
  CHECK(to_mem.gp.is_response_ok());
  CHECK(to_mem.access(tlm::TLM_READ_COMMAND, 0x100040, &back, 4, phase, delay) == tlm::TLM_COMPLETED);
  CHECK(back == v);
  CHECK(to_mem.access(tlm::TLM_READ_COMMAND, 0x300000, &back, 4, phase, delay) == tlm::TLM_COMPLETED);
  CHECK(to_mem.gp.get_response_status() == tlm::TLM_ADDRESS_ERROR_RESPONSE);  // beyond the memory
  // A phase that is not a request is not one: accepted, nothing answered.
  tlm::tlm_phase end_resp = tlm::END_RESP;
  CHECK(to_mem.isock->nb_transport_fw(to_mem.gp, end_resp, delay) == tlm::TLM_ACCEPTED);
}
