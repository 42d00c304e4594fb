// SGLs through the endpoint (NVMe Base 2.0 §4.3.2): Identify announces them (SGLS = 01b), a read and a write
// described by a chained SGL move their data and complete, malformed ones and SGLs on admin commands get the
// specification's statuses and never reach the FTL.
#include "endpoint_harness.h"

#include <cstring>

using namespace ssdtlm;
using namespace ssdtlm::nvme;
using ssdtlm::test::cmd;
using ssdtlm::test::EndpointBench;
using ssdtlm::test::run_bench;
using ssdtlm::test::small_ep;
using ssdtlm::test::two_queues;

namespace {
void put_desc(EndpointBench& b, uint64_t at, uint64_t addr, uint32_t len, uint8_t type) {
  const uint32_t dw[4] = {uint32_t(addr), uint32_t(addr >> 32), len, uint32_t(type) << 28};
  std::memcpy(b.mem.at(at), dw, 16);
}
Sqe sgl_cmd(uint8_t opcode, uint32_t lbas, uint64_t addr, uint32_t len, uint8_t type) {
  Sqe e = cmd(opcode, 1, 0, 0);
  e.dw[0] |= 1u << 14;  // PSDT 01b
  e.dw[12] = lbas - 1;
  e.dw[6] = uint32_t(addr), e.dw[7] = uint32_t(addr >> 32), e.dw[8] = len, e.dw[9] = uint32_t(type) << 28;
  return e;
}
}  // namespace

TEST_CASE("nvme endpoint: SGL data blocks, segments and their statuses") {
  run_bench(small_ep(), two_queues(), [](EndpointBench& b) {
    b.up();
    // Identify Controller: SGLS (bytes 539:536) = 1.
    const uint64_t id = b.drv.data_buffer();
    Sqe idc = cmd(kIdentify, 0, kCnsController);
    idc.set_prp(id, 0);
    REQUIRE(b.drv.admin(idc).status == kSuccess);
    uint32_t sgls = 0;
    std::memcpy(&sgls, b.mem.at(id + 536), 4);
    CHECK(sgls == 1);
    const uint64_t buf = b.drv.data_buffer(), list = buf + 65536;
    // A read of 16 LBAs (8 KiB) in one data block, and a write of 8 KiB through a segment and a last segment.
    CHECK(b.raw(0, sgl_cmd(kRead, 16, buf, 8192, kSglDataBlock)).status == kSuccess);
    put_desc(b, list, buf, 4096, kSglDataBlock);
    put_desc(b, list + 16, list + 256, 16, kSglLastSegment);
    put_desc(b, list + 256, buf + 12288, 4096, kSglDataBlock);
    CHECK(b.raw(0, sgl_cmd(kWrite, 16, list, 32, kSglSegment)).status == kSuccess);
    REQUIRE(b.ftl.seen.size() == 2);
    CHECK(b.ftl.seen[1].bytes == 8192);
    // Malformed: short data block, a bit bucket as SGL1, a segment of 24 bytes, PSDT 11b.
    CHECK(b.raw(0, sgl_cmd(kRead, 16, buf, 4096, kSglDataBlock)).status == kDataSglLengthInvalid);
    CHECK(b.raw(0, sgl_cmd(kRead, 8, buf, 4096, kSglBitBucket)).status == kSglDescriptorTypeInvalid);
    CHECK(b.raw(0, sgl_cmd(kRead, 8, list, 24, kSglSegment)).status == kInvalidSglSegmentDescriptor);
    Sqe reserved = sgl_cmd(kRead, 8, buf, 4096, kSglDataBlock);
    reserved.dw[0] |= 3u << 14;
    CHECK(b.raw(0, reserved).status == kInvalidField);
    // SGLs on an admin command: refused (PRPs only for admin commands).
    Sqe adm = cmd(kIdentify, 0, kCnsController);
    adm.dw[0] |= 1u << 14;
    CHECK(b.drv.admin(adm).status == kInvalidField);
    CHECK(b.ftl.seen.size() == 2);  // none of the malformed ones reached the FTL
  });
}
