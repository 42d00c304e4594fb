// Host memory answering the endpoint's DMA with an error response (an address host memory does not hold): a
// transfer that belongs to a command completes it with Data Transfer Error (NVMe Base 1.4 Figure 128, status 04h);
// a submission entry the controller cannot read or a completion entry it cannot write sets Controller Fatal Status
// (§3.1.6: an error not reportable in a completion queue), as QEMU's NVMe device does.
#include "endpoint_harness.h"

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using ssdtlm::test::BenchRun;
using ssdtlm::test::cmd;
using ssdtlm::test::EndpointBench;
using ssdtlm::test::small_ep;
using ssdtlm::test::two_queues;
using ssdtlm::test::run_bench;
using ssdtlm::test::run_benches;

namespace {
constexpr uint64_t kNowhere = 0x80000000;  // page aligned, outside the harness's host memory (1 MiB + 64 MiB)

// Queue 2 deleted and created again with its CQ at `cq` and its SQ at `sq`.
void recreate_queue_2(EndpointBench& b, uint64_t cq, uint64_t sq) {
  Sqe e = cmd(kDeleteSq, 0, 2);
  REQUIRE(b.drv.admin(e).status == kSuccess);
  e = cmd(kDeleteCq, 0, 2);
  REQUIRE(b.drv.admin(e).status == kSuccess);
  e = cmd(kCreateCq, 0, 2 | 15u << 16, 1 | 2u << 16);  // contiguous, interrupts on vector 2
  e.set_prp(cq, 0);
  REQUIRE(b.drv.admin(e).status == kSuccess);
  e = cmd(kCreateSq, 0, 2 | 15u << 16, 1 | 2u << 16);
  e.set_prp(sq, 0);
  REQUIRE(b.drv.admin(e).status == kSuccess);  // creating a queue reads nothing of it
}
// A 4 KiB read written into SQ 2's first entry at `sq` by hand, and its tail doorbell rung.
void ring_one_read(EndpointBench& b, uint64_t sq) {
  Sqe e = cmd(kRead, 1);
  e.dw[0] |= 1u << 16;  // command id 1
  e.dw[12] = 7;
  e.set_prp(b.drv.data_buffer(), 0);
  if (sq != kNowhere) std::memcpy(b.mem.at(sq), &e, sizeof e);
  b.drv.write32(kDoorbells + 2 * 4 * 2, 1);
  sc_core::wait(ps_time(100000000));  // 100 us: fetched, served, completed
}
}  // namespace

TEST_CASE("nvme endpoint: a DMA error of a command's own transfer completes it with Data Transfer Error") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    const uint64_t buf = b.drv.data_buffer();
    // A 12 KiB read whose PRP list lies where host memory answers with an error.
    Sqe e = cmd(kRead, 1);
    e.dw[12] = 23;
    e.set_prp(buf, kNowhere);
    CHECK(b.raw(0, e).status == kDataTransferError);
    e.set_prp(buf, buf + 4096 * 64);  // the same read with a list in memory (zeroes: entries at 0) gets through
    CHECK(b.raw(0, e).status == kSuccess);
    // Dataset Management whose range list cannot be read.
    Sqe dsm = cmd(kDsm, 1, 0, 1u << 2);
    dsm.set_prp(kNowhere, 0);
    CHECK(b.raw(0, dsm).status == kDataTransferError);
    // Identify whose data cannot be written to the host.
    Sqe id = cmd(kIdentify, 0, kCnsController);
    id.set_prp(kNowhere, 0);
    CHECK(b.drv.admin(id).status == kDataTransferError);
    CHECK(b.ftl.seen.size() == 1);  // only the good read reached the FTL
    CHECK(b.ep.counters().fatal_errors == 0);
    CHECK((b.drv.read32(kCsts) & (kCstsCfs | kCstsRdy)) == kCstsRdy);  // the controller goes on
    CHECK(b.raw(0, e).status == kSuccess);
  });
}

TEST_CASE("nvme endpoint: a submission entry it cannot read or a completion entry it cannot write sets CFS") {
  const uint64_t spare = 0x100000 + (48ull << 20);  // host memory the driver does not use, page aligned
  run_benches({
      BenchRun{small_ep(), two_queues(), [](EndpointBench& b) {  // SQ 2 where memory answers with an error
                 b.up();
                 recreate_queue_2(b, spare, kNowhere);
                 ring_one_read(b, kNowhere);
                 CHECK(b.ep.counters().fatal_errors == 1);
                 CHECK(b.ftl.seen.empty());
                 CHECK((b.drv.read32(kCsts) & (kCstsCfs | kCstsRdy)) == kCstsCfs);
               }},
      BenchRun{small_ep(), two_queues(), [spare](EndpointBench& b) {  // CQ 2 there
                 b.up();
                 recreate_queue_2(b, kNowhere, spare);
                 ring_one_read(b, spare);
                 CHECK(b.ftl.seen.size() == 1);  // fetched and served; its completion entry could not be posted
                 CHECK(b.ep.counters().fatal_errors == 1);
                 CHECK((b.drv.read32(kCsts) & (kCstsCfs | kCstsRdy)) == kCstsCfs);
               }},
  });
}
