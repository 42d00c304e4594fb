// ZbdWorkload's open zones (fio's zbd_convert_to_write_zone / zbd_pick_write_zone): when the open-zone limit is
// reached, a job writes only open zones inside its own range; with none there it ends, as fio's io_u_eof, and never
// writes a zone another job's range holds (where two jobs' writes would race for one write pointer).
#include <catch2/catch.hpp>

#include <memory>

#include "workload/placement/zbd_workload.h"

using namespace ssdtlm;

namespace {

class SeqWrites : public Workload {  // sequential 4 KiB writes from `offset`
 public:
  explicit SeqWrites(uint64_t offset) : next_(offset) {}
  bool next(IoRequest& r) override {
    r = IoRequest();
    r.op = IoOp::Write;
    r.offset = next_;
    r.bytes = 4096;
    next_ += 4096;
    return true;
  }

 private:
  uint64_t next_;
};

ZbdParams params(uint64_t range_offset, uint64_t range_bytes) {
  ZbdParams p;
  p.on = true;
  p.zone_bytes = p.capacity_bytes = 1 << 20;
  p.zones = 32;
  p.max_open = 2;
  p.range_offset = range_offset;
  p.range_bytes = range_bytes;
  return p;
}

}  // namespace

TEST_CASE("zbd: at the open-zone limit a job writes its own open zones, or ends", "[workload][zbd]") {
  auto shared = zbd_shared(32);
  ZbdWorkload a(std::make_unique<SeqWrites>(0), params(0, 4 << 20), shared);              // zones 0-3
  ZbdWorkload b(std::make_unique<SeqWrites>(1 << 20), params(1 << 20, 1 << 20), shared);  // zone 1
  ZbdWorkload c(std::make_unique<SeqWrites>(16 << 20), params(16 << 20, 4 << 20), shared);  // zones 16-19
  IoRequest r;
  REQUIRE(a.next(r));
  CHECK(r.offset / (1 << 20) == 0);  // zone 0 opened
  REQUIRE(b.next(r));
  CHECK(r.offset / (1 << 20) == 1);  // zone 1 opened: the limit (2) is reached
  // c's range holds no open zone: it ends rather than writing zone 0 or 1.
  CHECK_FALSE(c.next(r));
  CHECK(c.ended_without_zone());
  // a goes on in its own zone 0.
  REQUIRE(a.next(r));
  CHECK(r.offset == 4096);
}

TEST_CASE("zbd: SPDK's initial_zone_reset resets each zone of the job's range first, as set-up, then writes",
          "[workload][zbd]") {
  ZbdParams p = params(3 << 20, 3 << 20);  // zones 3, 4, 5
  p.initial_reset = true;
  ZbdWorkload w(std::make_unique<SeqWrites>(3 << 20), p, std::make_shared<ZbdShared>(ZbdShared{std::vector<uint64_t>(32, 0), 0, {}}));
  CHECK(w.has_setup());
  IoRequest r;
  for (uint64_t zone : {3, 4, 5}) {
    REQUIRE(w.next(r));
    CHECK(r.op == IoOp::Trim);  // a trim of the whole zone: the namespace's zone reset
    CHECK(r.offset == zone << 20);
    CHECK(r.bytes == 1u << 20);
    CHECK(r.setup);    // the engine's set-up: not the job's statistics, before its clock
    CHECK(r.quiesce);  // one after the other
  }
  REQUIRE(w.next(r));
  CHECK(r.op == IoOp::Write);
  CHECK(r.offset == 3u << 20);
  CHECK_FALSE(r.setup);
  CHECK(r.quiesce);  // the job's first write follows the last reset's completion
  REQUIRE(w.next(r));
  CHECK_FALSE(r.setup);
  CHECK_FALSE(r.quiesce);
  CHECK(w.resets() == 0);  // not fio's zone resets (fio.json zone_resets)
  ZbdWorkload plain(std::make_unique<SeqWrites>(0), params(0, 1 << 20), std::make_shared<ZbdShared>(ZbdShared{std::vector<uint64_t>(32, 0), 0, {}}));
  CHECK_FALSE(plain.has_setup());
}
