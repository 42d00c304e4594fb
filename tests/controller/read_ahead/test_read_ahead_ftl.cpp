// Read-ahead on the Ftl alone (ftl_harness.h; model/controller/read_ahead/): a sequential stream's reads are served
// from the units fetched ahead without a flash read of their own, a write or trim drops a copy held (the integrity
// checker sees every read), and random reads fetch nothing.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "controller/ftl_harness.h"

using namespace ssdtlm;

namespace {

// 2 dies on 1 channel, 2 units a page; a 16-unit buffer, so that the units written first are only on flash.
std::vector<std::string> settings(const std::string& read_ahead) {
  return {"geometry.channels=1", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=32",
          "geometry.pages_per_block=16", "buffer.bytes=65536", "cache.read_ahead=" + read_ahead};
}

constexpr uint32_t kWritten = 256;  // units written before the reads

void write_all(FtlHarness& h) {
  for (uint32_t lpn = 0; lpn < kWritten; ++lpn) h.wait_done(h.submit(IoOp::Write, lpn));
  h.wait_done(h.submit(IoOp::Flush, 0, 0));
}

size_t reads(const FtlHarness& h) { return h.count(FlashCmd::Read); }

}  // namespace

TEST_CASE("ftl module: a sequential stream's reads are served from the units read ahead", "[module][ftl][read_ahead]") {
  FtlHarness h("h", settings("sequential"));
  size_t before = 0, after = 0;
  std::vector<size_t> ids;
  h.script = [&](FtlHarness& h) {
    write_all(h);
    before = reads(h);
    // A read every 100 us: a host slower than the flash (50 us a read), so that what is fetched ahead lands first.
    h.wait_until_us(double(now_ps()) / 1e6 + 5000);  // the writes' programs are over
    const double t0 = double(now_ps()) / 1e6;
    for (uint32_t lpn = 0; lpn < 64; ++lpn) {
      h.wait_until_us(t0 + 100.0 * lpn);
      ids.push_back(h.submit(IoOp::Read, lpn));
      h.wait_done(ids.back());
    }
    after = reads(h);
  };
  sc_core::sc_start();
  const ReadAhead& ra = *h.dut->read_ahead();
  CHECK(h.checker->errors() == 0);
  CHECK(ra.span_units() == 2 * 2);  // cache.read_ahead_pages=0: a page of every die
  // Two reads to detect the stream; every read after them finds its unit fetched ahead.
  CHECK(ra.counters().hits == 62);
  // The flash reads: the two reads' own, then the read-ahead's, a page at a time.
  CHECK(after - before == 2 + ra.counters().prefetched_pages);
  CHECK(ra.counters().prefetched_pages * 2 >= ra.counters().prefetched_units);
  // Read-ahead keeps ahead of this stream: after the first windows, a read takes no flash time at all.
  const uint64_t read_ps = us_to_ps(FakeChannel::kReadUs);
  for (size_t k = 8; k < ids.size(); ++k) {
    const NvmeCommand& c = h.cmds[ids[k]];
    INFO("read " << k);
    CHECK(h.done_ps[ids[k]] - c.submit_ps < read_ps);
  }
}

TEST_CASE("ftl module: a write or trim of a unit held drops it, reads see the new data", "[module][ftl][read_ahead]") {
  FtlHarness h("h", settings("sequential"));
  uint64_t unmapped = 0;
  h.script = [&](FtlHarness& h) {
    write_all(h);
    for (uint32_t lpn = 0; lpn < 4; ++lpn) h.wait_done(h.submit(IoOp::Read, lpn));  // [4, 6) and on fetched ahead
    h.wait_until_us(double(now_ps()) / 1e6 + 1000);  // the fetches landed
    REQUIRE(h.dut->read_ahead()->holds(4));
    REQUIRE(h.dut->read_ahead()->holds(5));
    h.wait_done(h.submit(IoOp::Write, 4));
    h.wait_done(h.submit(IoOp::Trim, 5));
    CHECK_FALSE(h.dut->read_ahead()->holds(4));
    CHECK_FALSE(h.dut->read_ahead()->holds(5));
    // Push the new unit 4 out of the buffer onto flash (16 units of others), then read 4 and 5 again.
    for (uint32_t lpn = 1000; lpn < 1040; ++lpn) h.wait_done(h.submit(IoOp::Write, lpn));
    h.wait_done(h.submit(IoOp::Flush, 0, 0));
    unmapped = h.dut->stats().unmapped_reads;
    h.wait_done(h.submit(IoOp::Read, 4));
    h.wait_done(h.submit(IoOp::Read, 5));
  };
  sc_core::sc_start();
  CHECK(h.checker->errors() == 0);  // read 4 found the version written after the fetch
  CHECK(h.dut->stats().unmapped_reads == unmapped + 1);  // 5 trimmed: read as zeros
  CHECK(h.dut->read_ahead()->counters().wasted >= 2);
}

TEST_CASE("ftl module: random reads fetch nothing ahead", "[module][ftl][read_ahead]") {
  FtlHarness h("h", settings("sequential"));
  size_t before = 0, after = 0;
  h.script = [&](FtlHarness& h) {
    write_all(h);
    before = reads(h);
    for (uint32_t lpn : {7u, 100u, 33u, 200u, 5u, 150u, 60u, 61u + 2, 9u}) h.wait_done(h.submit(IoOp::Read, lpn));
    after = reads(h);
  };
  sc_core::sc_start();
  CHECK(after - before == 9);  // one flash read each, none ahead
  CHECK(h.dut->read_ahead()->counters().prefetched_units == 0);
  CHECK(h.dut->read_ahead()->counters().hits == 0);
}

TEST_CASE("ftl module: read-ahead off reads every unit from flash", "[module][ftl][read_ahead]") {
  FtlHarness h("h", settings("none"));
  size_t before = 0, after = 0;
  h.script = [&](FtlHarness& h) {
    write_all(h);
    before = reads(h);
    for (uint32_t lpn = 0; lpn < 16; ++lpn) h.wait_done(h.submit(IoOp::Read, lpn));
    after = reads(h);
  };
  sc_core::sc_start();
  CHECK(h.dut->read_ahead() == nullptr);
  CHECK(after - before == 16);
  CHECK(h.checker->errors() == 0);
}
