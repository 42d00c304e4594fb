// The capture replay (workload/filesystem/capture_replay.h) on small hand-made captures: what reaches the drive
// and when, through the page cache, the journal and direct I/O.
#include <catch2/catch.hpp>

#include <fstream>
#include <nlohmann/json.hpp>

#include "workload/capture_writer.h"
#include "workload/filesystem/capture_replay.h"
#include "workload/trace/trace_reader.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
using K = capture::Kind;

namespace {

constexpr uint64_t kNs = 1ull << 30;  // a 1 GiB namespace
constexpr uint32_t kCreateWrite = capture::kOpenWrite & 01 /* O_WRONLY */ | capture::kOpenCreat;

std::vector<IoRequest> replay(const std::vector<CapRec>& recs, CaptureParams p = CaptureParams(),
                              CaptureCounters* counters = nullptr, bool layout = false) {
  write_capture("t.cap", recs);
  CaptureWorkload w("t.cap", kNs, p, layout);
  std::vector<IoRequest> out;
  IoRequest r;
  while (w.next(r)) out.push_back(r);
  if (counters) *counters = w.counters();
  CHECK(w.check() == "");
  return out;
}

uint64_t bytes_of(const std::vector<IoRequest>& rs, IoOp op) {
  uint64_t b = 0;
  for (auto& r : rs) b += r.op == op ? r.bytes : 0;
  return b;
}

}  // namespace

TEST_CASE("capture replay: buffered writes reach the drive at fsync, each page with its writer's program context, "
          "then the journal commits", "[workload][filesystem][capture]") {
  CaptureCounters c;
  const auto rs = replay({cap(K::ProcessStart, 0, -1, 0, 0, 0, 0, "/bin/prog"),
                          cap(K::Open, 1, 3, 0, 0, 0, kCreateWrite, "/r/a"),
                          cap(K::Write, 2, 3, 0, 8192, 0xAAAA0000BBBBull),
                          cap(K::Write, 3, 3, 8192, 100, 0x1234),
                          cap(K::Fsync, 4, 3), cap(K::Close, 5, 3)},
                         CaptureParams(), &c);
  REQUIRE(rs.size() >= 4);
  CHECK(rs[0].op == IoOp::Write);
  CHECK(rs[0].bytes == 8192);
  CHECK(rs[0].pc == uint32_t(0xAAAA0000BBBBull ^ 0xAAAA));
  CHECK(rs[0].proc == 1);
  CHECK(rs[0].proc_slot == 1);
  CHECK(rs[0].time_ns == 4000000);  // at the fsync, 4 ms after the first record
  CHECK(rs[1].offset == rs[0].offset + 8192);  // allocated contiguously at writeback
  CHECK(rs[1].bytes == 4096);
  CHECK(rs[1].pc == 0x1234);
  CHECK(rs[2].pc == 0);  // the journal: descriptor + blocks, then the commit block
  CHECK(c.commits == 1);
  CHECK(c.data_bytes == 12288);
  CHECK(c.sync_bytes == 12288);
  CHECK(c.write_bytes == 8292);
  CHECK(c.writes == 2);
  CHECK(c.journal_bytes > 0);
  CHECK(c.checkpoints == 1);  // the end of the capture (unmount) checkpoints
  CHECK(c.metadata_bytes > 0);
}

TEST_CASE("capture replay: the flusher writes a dirty inode once it is older than dirty_expire, at its period",
          "[workload][filesystem][capture]") {
  CaptureCounters c;
  const auto rs = replay({cap(K::Open, 0, 3, 0, 0, 0, kCreateWrite, "/r/a"), cap(K::Write, 2, 3, 0, 4096, 7),
                          cap(K::Read, 40000, 3, 0, 4096)},
                         CaptureParams(), &c);
  REQUIRE(rs.size() >= 3);
  CHECK(rs[0].pc == 0);  // the journal's commit timer at 5 s: the file's creation
  CHECK(rs[0].time_ns == 5000000000ull);
  const IoRequest* data = nullptr;
  for (auto& r : rs) data = !data && r.pc == 7 ? &r : data;
  REQUIRE(data);
  CHECK(data->time_ns == 35000000000ull);  // dirtied at 2 ms, expired at 30.002 s, the flusher's tick at 35 s
  CHECK(c.flusher_bytes == 4096);
  CHECK(c.cache_read_bytes == 4096);  // the page stays cached
  CHECK(c.data_read_bytes == 0);
  CaptureParams p;
  p.clean_cache = false;
  replay({cap(K::Open, 0, 3, 0, 0, 0, kCreateWrite, "/r/a"), cap(K::Write, 2, 3, 0, 4096, 7),
          cap(K::Read, 40000, 3, 0, 4096)},
         p, &c);
  CHECK(c.data_read_bytes == 4096);  // dirty_only: the read goes to the drive
}

TEST_CASE("capture replay: O_DIRECT writes go straight to the drive, O_DSYNC writes are written through",
          "[workload][filesystem][capture]") {
  CaptureCounters c;
  const auto rs = replay({cap(K::Open, 0, 3, 0, 0, 0, kCreateWrite | capture::kOpenDirect, "/r/d"),
                          cap(K::Write, 1, 3, 0, 65536, 9), cap(K::Open, 2, 4, 0, 0, 0, kCreateWrite | capture::kOpenDsync, "/r/s"),
                          cap(K::Write, 3, 4, 0, 4096, 10)},
                         CaptureParams(), &c);
  REQUIRE(rs.size() >= 2);
  CHECK(rs[0].bytes == 65536);
  CHECK(rs[0].time_ns == 1000000);
  CHECK(c.direct_write_bytes == 65536);
  CHECK(c.sync_writes == 1);
  CHECK(rs[1].bytes == 4096);
  CHECK(rs[1].time_ns == 3000000);
  CHECK(rs[1].pc == 10);
  CHECK(c.commits >= 1);  // the O_DSYNC write grew the file: its size is committed
}

TEST_CASE("capture replay: unlink trims the file's extents with discard, not without, and rename over a file deletes it",
          "[workload][filesystem][capture]") {
  const std::vector<CapRec> recs = {cap(K::Open, 0, 3, 0, 0, 0, kCreateWrite, "/r/a"), cap(K::Write, 1, 3, 0, 40960, 1),
                                    cap(K::Fsync, 2, 3), cap(K::Close, 3, 3),
                                    cap(K::Open, 4, 3, 0, 0, 0, kCreateWrite, "/r/b"), cap(K::Write, 5, 3, 0, 8192, 2),
                                    cap(K::Fsync, 6, 3), cap(K::Close, 7, 3),
                                    cap(K::Rename, 8, -1, 0, 0, 0, 0, std::string("/r/b\0/r/a", 9)),
                                    cap(K::Unlink, 9, -1, 0, 0, 0, 0, "/r/a")};
  CaptureCounters c;
  const auto rs = replay(recs, CaptureParams(), &c);
  CHECK(bytes_of(rs, IoOp::Trim) == 40960 + 8192);
  CHECK(c.trim_bytes == 49152);
  CaptureParams p;
  p.discard = false;
  CHECK(bytes_of(replay(recs, p, &c), IoOp::Trim) == 0);
}

TEST_CASE("capture replay: a forked child writes through its parent's descriptor with the file's write-life hint",
          "[workload][filesystem][capture]") {
  CaptureCounters c;
  const auto rs = replay({cap(K::ProcessStart, 0, -1, 0, 0, 0, 0, "/bin/p", 100),
                          cap(K::Open, 1, 3, 0, 0, 0, kCreateWrite, "/r/a", 100),
                          cap(K::Hint, 2, 3, 0, 0, 0, 0, "", 100, 3),
                          cap(K::ProcessStart, 3, -1, 0, 0, 0, 0, "/bin/p", 101, 100),
                          cap(K::Write, 4, 3, 0, 4096, 5, 0, "", 101), cap(K::Fdatasync, 5, 3, 0, 0, 0, 0, "", 101)},
                         CaptureParams(), &c);
  REQUIRE(!rs.empty());
  CHECK(rs[0].stream == 3);
  CHECK(rs[0].proc == 2);
  CHECK(rs[0].proc_slot == 2);
  CHECK(c.processes == 2);
  CHECK(c.hints == 1);
  CHECK(c.commits == 1);  // fdatasync of a file that grew
}

TEST_CASE("capture replay: files that existed before the capture are the precondition's layout and read from the drive",
          "[workload][filesystem][capture]") {
  const std::vector<CapRec> recs = {cap(K::Open, 0, 3, 10000, 0, 0, 0, "/r/old"), cap(K::Read, 1, 3, 0, 10000)};
  CaptureCounters c;
  const auto layout = replay(recs, CaptureParams(), &c, true);
  CHECK(bytes_of(layout, IoOp::Write) == 3 * 4096);
  CHECK(c.layout_files == 1);
  const auto rs = replay(recs, CaptureParams(), &c);
  CHECK(bytes_of(rs, IoOp::Read) == 3 * 4096);
  REQUIRE(!rs.empty());
  CHECK(rs[0].offset == layout[0].offset);
  CaptureParams aged;
  aged.age_fraction = 0.5;
  aged.age_file_bytes = 1 << 20;
  const auto with_aged = replay(recs, aged, &c, true);
  CHECK(c.layout_files > 100);  // half of the ~1 GiB data space in 1 MiB files, then the file of the capture
  CHECK(bytes_of(with_aged, IoOp::Write) == c.layout_bytes - 10000 + 3 * 4096);  // whole pages of the old file
}

TEST_CASE("capture reader: refuses what is not a capture, another version, a cut record", "[workload][trace][capture]") {
  {
    std::ofstream("plain.txt") << "0,W,0,4096\n";
  }
  CHECK_THROWS_WITH(CaptureReader("plain.txt"), Catch::Contains("not an ssdtlm capture"));
  write_capture("v9.cap", {cap(K::Open, 0, 3, 0, 0, 0, 0, "/a")}, 9);
  CHECK_THROWS_WITH(CaptureReader("v9.cap"), Catch::Contains("version 9") && Catch::Contains("knows versions 1 to 2"));
  write_capture("cut.cap", {cap(K::Open, 0, 3, 0, 0, 0, 0, "/a"), cap(K::Write, 1, 3, 0, 10)}, 1, 7);
  CaptureReader r("cut.cap");
  CaptureEvent e;
  CHECK(r.next(e));
  CHECK(e.path == "/a");
  CHECK_THROWS_WITH(r.next(e), Catch::Contains("record 2 cut short"));
  CHECK_THROWS_AS(CaptureReader("missing.cap"), std::runtime_error);
}

TEST_CASE("capture replay: a page carries its last writer's context (capture_pc_scope=page) or its file's last "
          "write's (inode), and the contexts no drive write carried are counted with their writes and bytes",
          "[workload][filesystem][capture]") {
  const std::vector<CapRec> recs = {cap(K::ProcessStart, 0, -1, 0, 0, 0, 0, "/bin/prog"),
                                    cap(K::Open, 1, 3, 0, 0, 0, kCreateWrite, "/r/a"),
                                    cap(K::Open, 1, 4, 0, 0, 0, kCreateWrite, "/r/b"),
                                    cap(K::Write, 2, 3, 0, 8192, 0x11),  // a: pages 0 and 1 by 0x11
                                    cap(K::Write, 3, 3, 0, 100, 0x22),   // a: page 0 by 0x22 last
                                    cap(K::Write, 4, 4, 0, 100, 0x33),   // b: page 0 by 0x33, then 0x44
                                    cap(K::Write, 5, 4, 0, 4096, 0x44),
                                    cap(K::Fsync, 6, 3), cap(K::Fsync, 7, 4), cap(K::Close, 8, 3), cap(K::Close, 9, 4)};
  write_capture("t.cap", recs);
  auto run = [](bool per_inode, std::vector<IoRequest>& rs) {
    CaptureParams p;
    p.pc_per_inode = per_inode;
    CaptureWorkload w("t.cap", kNs, p, false);
    IoRequest r;
    while (w.next(r))
      if (r.op == IoOp::Write && r.pc) rs.push_back(r);
    CHECK(w.distinct_pcs() == 4);
    return w.unissued_pcs();
  };
  std::vector<IoRequest> page, inode;
  const auto lost_page = run(false, page);
  REQUIRE(page.size() == 3);  // a's page 0 (0x22), a's page 1 (0x11), b's page 0 (0x44)
  CHECK(page[0].pc == 0x22);
  CHECK(page[1].pc == 0x11);
  CHECK(page[2].pc == 0x44);
  CHECK(lost_page.contexts == 1);  // 0x33: its page was rewritten whole before writeback
  CHECK(lost_page.writes == 1);
  CHECK(lost_page.write_bytes == 100);
  const auto lost_inode = run(true, inode);
  REQUIRE(inode.size() == 2);  // a's two pages in one request with its last write's context, b's page
  CHECK(inode[0].pc == 0x22);
  CHECK(inode[0].bytes == 8192);
  CHECK(inode[1].pc == 0x44);
  CHECK(lost_inode.contexts == 2);  // 0x11 and 0x33
  CHECK(lost_inode.writes == 2);
  CHECK(lost_inode.write_bytes == 8292);
}

TEST_CASE("capture replay: the data writes' call sites are counted (version 2), and those whose data reached the "
          "drive, unknown in a version 1 capture", "[workload][filesystem][capture]") {
  auto recs_with_sites = [] {  // four contexts through two call sites; site 8's file is deleted before writeback
    const uint32_t kSite7 = 7, kSite8 = 8;
    return std::vector<CapRec>{cap(K::ProcessStart, 0, -1, 0, 0, 0, 0, "/bin/prog"),
                               cap(K::Open, 1, 3, 0, 0, 0, kCreateWrite, "/r/a"),
                               cap(K::Open, 1, 4, 0, 0, 0, kCreateWrite, "/r/b"),
                               cap(K::Write, 2, 3, 0, 4096, 0x11, 0, "", 100, kSite7),
                               cap(K::Write, 3, 3, 4096, 4096, 0x22, 0, "", 100, kSite7),
                               cap(K::Write, 4, 4, 0, 4096, 0x33, 0, "", 100, kSite8),
                               cap(K::Write, 5, 4, 4096, 4096, 0x44, 0, "", 100, kSite8),
                               cap(K::Fsync, 6, 3), cap(K::Close, 7, 3), cap(K::Close, 8, 4),
                               cap(K::Unlink, 9, -1, 0, 0, 0, 0, "/r/b")};
  };
  auto report = [](const std::string& file) {
    CaptureWorkload w(file, kNs, CaptureParams{}, false);
    IoRequest r;
    while (w.next(r)) {
    }
    nlohmann::json j;
    w.report(j);
    return j["capture"];
  };
  write_capture("v2.cap", recs_with_sites());
  const auto v2 = report("v2.cap");
  CHECK(v2["distinct_pcs"] == 4);
  CHECK(v2["distinct_pcs_issued"] == 2);
  CHECK(v2["write_call_sites"] == 2);
  CHECK(v2["write_call_sites_issued"] == 1);
  std::vector<CapRec> v1_recs = recs_with_sites();
  for (CapRec& x : v1_recs) x.r.aux = 0;  // version 1 has no call sites
  write_capture("v1.cap", v1_recs, 1);
  const auto v1 = report("v1.cap");
  CHECK(v1["distinct_pcs"] == 4);
  CHECK(v1["write_call_sites"].is_null());
  CHECK(v1["write_call_sites_issued"].is_null());
}

TEST_CASE("capture replay: a file's size seen past its recorded writes is written as the growth, a size they explain "
          "writes nothing", "[workload][filesystem][capture]") {
  CaptureCounters c;
  const auto rs = replay({cap(K::ProcessStart, 0, -1, 0, 0, 0, 0, "/bin/prog"),
                          cap(K::Open, 1, 3, 0, 0, 0, kCreateWrite, "/r/a"),
                          cap(K::Write, 2, 3, 0, 5000, 0x11),
                          cap(K::Size, 3, 3, 5000, 0, 0x22),    // explained by the write: nothing
                          cap(K::Size, 4, 3, 12000, 0, 0x33),   // 7,000 bytes no write explains (stdio, a redirect)
                          cap(K::Fsync, 5, 3), cap(K::Close, 6, 3),
                          cap(K::Write, 7, 9, 0, 4096, 0x44)},  // a descriptor never opened: counted, not replayed
                         CaptureParams(), &c);
  CHECK(c.growth_writes == 1);
  CHECK(c.growth_bytes == 7000);
  CHECK(c.unknown_fd_writes == 1);
  CHECK(c.unknown_fd_bytes == 4096);
  uint64_t data = 0;
  bool growth_context = false;
  for (const IoRequest& r : rs)
    if (r.op == IoOp::Write && r.pc) data += r.bytes, growth_context |= r.pc == 0x33;
  CHECK(data == 3 * 4096);  // pages 0-2: 12,000 bytes
  CHECK(growth_context);    // the pages the growth wrote carry the context where the size was seen
}
