// Module tests of the Ftl alone (ftl_harness.h): fake channels that complete each flash operation a fixed
// delay after its firmware ready time (a die one op at a time), and a completion sink. Expected times are the firmware's per-command
// and per-flash-op costs (firmware.cmd_ns, firmware.flash_op_ns, one core) plus the fake channels' delays.
#include <catch2/catch.hpp>

#include "controller/ftl_harness.h"

using namespace ssdtlm;

namespace {

constexpr double kCmd = FtlHarness::kCmdNs / 1e3, kOp = FtlHarness::kFlashOpNs / 1e3;  // us
constexpr double kRead = FakeChannel::kReadUs, kProg = FakeChannel::kProgUs;

// Two channels of one die, 8 KiB pages (2 units), a 4-unit buffer that flushes as soon as a page is dirty.
std::vector<std::string> small(std::initializer_list<std::string> more = {}) {
  std::vector<std::string> s = {"geometry.channels=2",         "geometry.dies_per_channel=1",
                                "geometry.blocks_per_plane=16", "geometry.pages_per_block=4",
                                "geometry.page_bytes=8192",     "geometry.over_provisioning=1",
                                "buffer.bytes=16384",           "buffer.high_watermark=0.5",
                                "buffer.low_watermark=0"};
  s.insert(s.end(), more);
  return s;
}

}  // namespace

TEST_CASE("ftl module: a write is acknowledged on buffer acceptance, a read of it is a buffer hit", "[module][ftl]") {
  FtlHarness h("h", small());
  size_t w = 0, r = 0;
  h.script = [&](FtlHarness& h) {
    h.wait_until_us(3);
    w = h.submit(IoOp::Write, 5);
    h.wait_until_us(10);
    r = h.submit(IoOp::Read, 5);
  };
  sc_core::sc_start();
  CHECK(h.done_us(w) == Approx(3 + kCmd).margin(1e-6));
  CHECK(h.done_us(r) == Approx(10 + kCmd).margin(1e-6));
  CHECK(h.flash.empty());  // one unit, under the high watermark (one page): no flush
  CHECK(h.dut->stats().host_units_written == 1);
  CHECK(h.dut->stats().buffer_read_hits == 1);
  CHECK(h.dut->stats().write_stalls == 0);
  CHECK(h.checker->errors() == 0);
  CHECK(h.checker->checked() == 1);
}

TEST_CASE("ftl module: firmware.write_cmd_ns adds to a write command's firmware time only, on the same core",
          "[module][ftl]") {
  FtlHarness h("h", small({"firmware.write_cmd_ns=2000"}));
  size_t w = 0, r = 0, w2 = 0;
  h.script = [&](FtlHarness& h) {
    h.wait_until_us(3);
    w = h.submit(IoOp::Write, 5);
    r = h.submit(IoOp::Read, 5);    // behind the write on the one core
    h.wait_until_us(10);
    w2 = h.submit(IoOp::Write, 6);
  };
  sc_core::sc_start();
  CHECK(h.done_us(w) == Approx(3 + kCmd + 2.0).margin(1e-6));
  CHECK(h.done_us(r) == Approx(3 + kCmd + 2.0 + kCmd).margin(1e-6));  // a read pays cmd_ns only
  CHECK(h.done_us(w2) == Approx(10 + kCmd + 2.0).margin(1e-6));
  CHECK(h.checker->errors() == 0);
}

TEST_CASE("ftl module: a read of a never-written LPN completes without flash work", "[module][ftl]") {
  FtlHarness h("h", small());
  size_t r = 0;
  h.script = [&](FtlHarness& h) {
    h.wait_until_us(7);
    r = h.submit(IoOp::Read, 11, 2);
  };
  sc_core::sc_start();
  CHECK(h.done_us(r) == Approx(7 + kCmd).margin(1e-6));
  CHECK(h.flash.empty());
  CHECK(h.dut->stats().unmapped_reads == 2);
  CHECK(h.checker->errors() == 0);
}

TEST_CASE("ftl module: a page flushes at the watermark, reads hit the buffer until the program lands, then flash",
          "[module][ftl]") {
  FtlHarness h("h", small());
  size_t w = 0, hit = 0, r = 0;
  h.script = [&](FtlHarness& h) {
    w = h.submit(IoOp::Write, 20, 2);  // a whole page: at the high watermark (max(page, 0.5 x 4) = 2 units)
    h.wait_until_us(100);              // program in flight: the buffer still holds the units
    hit = h.submit(IoOp::Read, 21);
    h.wait_until_us(1000);             // long after the program: the units live on flash only
    r = h.submit(IoOp::Read, 21);
  };
  sc_core::sc_start();
  CHECK(h.done_us(w) == Approx(kCmd).margin(1e-6));
  REQUIRE(h.flash.size() == 2);
  const FlashRecord& prog = h.flash[0];
  CHECK(prog.cmd == FlashCmd::Program);
  CHECK(prog.kind == UnitKind::UD);
  CHECK(prog.die == 0);  // the first flush goes to die 0
  CHECK(prog.lpn == std::vector<uint32_t>{20, 21});
  CHECK(prog.issued_ps == 0);                                    // issued as the write is accepted
  CHECK(double(prog.ready_ps) / 1e6 == Approx(kCmd + kOp).margin(1e-6));  // after the command's firmware time
  CHECK(h.done_us(hit) == Approx(100 + kCmd).margin(1e-6));
  // The read: the command's firmware time, one flash op's, then the read delay; it reads what was programmed.
  const FlashRecord& read = h.flash[1];
  CHECK(read.cmd == FlashCmd::Read);
  CHECK(read.read_kind == ReadKind::User);
  CHECK(read.die == prog.die);
  CHECK(read.block == prog.block);
  CHECK(read.page == prog.page);
  CHECK(read.slot_mask == 0b10);
  CHECK(read.lpn[1] == 21);
  CHECK(h.done_us(r) == Approx(1000 + kCmd + kOp + kRead).margin(1e-6));
  CHECK(h.dut->stats().buffer_read_hits == 1);
  CHECK(h.dut->stats().flushed_units == 2);
  CHECK(h.checker->errors() == 0);
  CHECK(h.checker->checked() == 2);
}

TEST_CASE("ftl module: a write finding the buffer full completes when a flush program frees its slots",
          "[module][ftl]") {
  FtlHarness h("h", small());  // 4 units: two pages in flight fill it
  size_t a = 0, b = 0, c = 0;
  h.script = [&](FtlHarness& h) {
    a = h.submit(IoOp::Write, 0, 2);  // flushed to die 0 at once
    h.wait_until_us(1);
    b = h.submit(IoOp::Write, 2, 2);  // flushed to die 1
    h.wait_until_us(2);
    c = h.submit(IoOp::Write, 4, 2);  // no free slot until the first program lands
  };
  sc_core::sc_start();
  CHECK(h.done_us(a) == Approx(kCmd).margin(1e-6));
  CHECK(h.done_us(b) == Approx(1 + kCmd).margin(1e-6));
  const double first_landed = kCmd + kOp + kProg;
  CHECK(h.done_us(c) == Approx(first_landed).margin(1e-6));
  CHECK(h.dut->stats().write_stalls == 1);
  REQUIRE(h.flash.size() == 3);
  CHECK(h.flash[0].die == 0);
  CHECK(h.flash[1].die == 1);
  CHECK(double(h.flash[1].ready_ps) / 1e6 == Approx(1 + kCmd + kOp).margin(1e-6));
  // C's page: to die 0 again (round robin), issued when the first program freed the slots.
  CHECK(h.flash[2].die == 0);
  CHECK(h.flash[2].issued_ps == h.flash[0].done_ps);
  CHECK(double(h.flash[2].ready_ps) / 1e6 == Approx(first_landed + kOp).margin(1e-6));
  CHECK(h.flash[2].lpn == std::vector<uint32_t>{4, 5});
  CHECK(h.checker->errors() == 0);
}

TEST_CASE("ftl module: filling the buffer past the high watermark programs pages striped channel-first",
          "[module][ftl]") {
  // 2 channels x 2 dies (die d on channel d % 2), a 16-unit buffer flushing from 8 dirty units down to 0.
  FtlHarness h("h", {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=16",
                     "geometry.pages_per_block=4", "geometry.page_bytes=8192", "geometry.over_provisioning=1",
                     "buffer.bytes=65536",
                     "buffer.high_watermark=0.5", "buffer.low_watermark=0"});
  std::vector<size_t> w;
  h.script = [&](FtlHarness& h) {
    for (uint32_t i = 0; i < 8; ++i) {  // one unit a microsecond
      h.wait_until_us(i);
      w.push_back(h.submit(IoOp::Write, 100 + i));
    }
  };
  sc_core::sc_start();
  for (uint32_t i = 0; i < 8; ++i) CHECK(h.done_us(w[i]) == Approx(i + kCmd).margin(1e-6));
  REQUIRE(h.flash.size() == 4);
  for (uint32_t k = 0; k < 4; ++k) {
    INFO("page " << k);
    const FlashRecord& p = h.flash[k];
    CHECK(p.cmd == FlashCmd::Program);
    CHECK(p.die == k);                  // dies 0 (ch0), 1 (ch1), 2 (ch0), 3 (ch1)
    CHECK(p.issued_ps == us_to_ps(7));  // all when the 8th unit reaches the watermark
    // one flash op's firmware time each, after the 8th write's command time, on the one core
    CHECK(double(p.ready_ps) / 1e6 == Approx(7 + kCmd + (k + 1) * kOp).margin(1e-6));
    CHECK(double(p.done_ps) / 1e6 == Approx(7 + kCmd + (k + 1) * kOp + kProg).margin(1e-6));
    CHECK(p.lpn == std::vector<uint32_t>{100 + 2 * k, 101 + 2 * k});  // FIFO order
  }
  CHECK(h.dut->stats().flushed_units == 8);
  CHECK(h.buffer_occupied() == 0);  // every slot released once its program landed
}

TEST_CASE("ftl module: below ftl.gc_free_blocks GC reads the victim, programs its valid units, erases it",
          "[module][ftl][gc]") {
  // One die of 10 blocks x 4 pages x 2 units; over-provisioning 1: 40 logical units (5 blocks' worth).
  FtlHarness h("h", {"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=10",
                     "geometry.pages_per_block=4", "geometry.page_bytes=8192", "geometry.over_provisioning=1",
                     "buffer.bytes=16384", "buffer.high_watermark=0.5", "buffer.low_watermark=0",
                     "ftl.gc_free_blocks=2"});
  const uint32_t gc_free = 2, units = uint32_t(h.g.logical_units);
  REQUIRE(units == 40);
  h.script = [&](FtlHarness& h) {
    // Fill the drive, overwrite a pseudo-random sequence of units (one write at a time), read everything back.
    for (uint32_t lpn = 0; lpn < units; ++lpn) h.wait_done(h.submit(IoOp::Write, lpn));
    uint32_t x = 1;
    for (int i = 0; i < 200; ++i) {
      x = x * 1103515245u + 12345u;
      h.wait_done(h.submit(IoOp::Write, (x >> 16) % units));
    }
    h.wait_until_us(100000);  // every flush and GC op has landed
    for (uint32_t lpn = 0; lpn < units; ++lpn) h.wait_done(h.submit(IoOp::Read, lpn));
  };
  sc_core::sc_start();
  const auto is_gc = [](const FlashRecord& r) {
    return (r.cmd == FlashCmd::Read && r.read_kind == ReadKind::Gc) ||
           (r.cmd == FlashCmd::Program && r.kind == UnitKind::GUD) || r.cmd == FlashCmd::Erase;
  };
  size_t first_gc = h.flash.size(), gc_reads = 0, gc_programs = 0, erases = 0;
  for (size_t i = 0; i < h.flash.size(); ++i) {
    const FlashRecord& r = h.flash[i];
    if (!is_gc(r)) continue;
    first_gc = std::min(first_gc, i);
    gc_reads += r.cmd == FlashCmd::Read;
    gc_programs += r.cmd == FlashCmd::Program;
    erases += r.cmd == FlashCmd::Erase;
  }
  REQUIRE(first_gc < h.flash.size());
  CHECK(h.flash[first_gc].free_blocks < gc_free);  // GC starts only short of free blocks
  CHECK(gc_reads > 0);
  CHECK(gc_programs > 0);
  CHECK(erases > 0);
  // The first erase of a block GC read from: its reads landed first, then a GC program, then the erase.
  bool seen = false;
  for (size_t e = 0; e < h.flash.size() && !seen; ++e) {
    const FlashRecord& er = h.flash[e];
    if (er.cmd != FlashCmd::Erase) continue;
    uint64_t first_read_done = kNever;
    for (size_t i = 0; i < e; ++i)
      if (h.flash[i].cmd == FlashCmd::Read && h.flash[i].read_kind == ReadKind::Gc && h.flash[i].block == er.block) {
        CHECK(h.flash[i].done_ps <= er.issued_ps);
        first_read_done = std::min(first_read_done, h.flash[i].done_ps);
      }
    if (first_read_done == kNever) continue;
    seen = true;
    bool programmed = false;
    for (size_t i = 0; i < e; ++i) {
      const FlashRecord& p = h.flash[i];
      programmed |= p.cmd == FlashCmd::Program && p.kind == UnitKind::GUD && p.issued_ps >= first_read_done &&
                    p.done_ps <= er.issued_ps;
    }
    CHECK(programmed);
  }
  CHECK(seen);
  // Every unit read back intact (the checker compares each read's OOB with the last version written).
  CHECK(h.checker->errors() == 0);
  CHECK(h.checker->first_error() == "");
  CHECK(h.checker->erases_checked() == erases);
  CHECK(h.checker->checked() == units);  // the final reads
  for (size_t i = 0; i < h.cmds.size(); ++i) REQUIRE(h.done_ps[i] != kNever);
  CHECK(h.dut->stats().host_units_written == units + 200);
  CHECK(h.free_blocks(0) >= gc_free);  // GC stopped with the die's free blocks back
}
