// Trace readers on small hand-written traces, including malformed lines.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>


#include "common/temp_dir.h"
#include "workload/trace/fio_iolog_trace.h"
#include "workload/trace/trace_reader.h"

using namespace ssdtlm;

namespace {

// A private temporary directory, removed with its files at scope exit.
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("traces") {}
};

std::vector<IoRequest> read_all(Workload& w) {
  std::vector<IoRequest> v;
  IoRequest r;
  while (w.next(r)) v.push_back(r);
  return v;
}

std::vector<IoRequest> read_all(const std::string& path, const std::string& format,
                                const TraceOptions& opts = TraceOptions()) {
  auto w = open_trace(path, format, opts);
  return read_all(*w);
}

// The TraceError message of reading a whole trace ("" when none).
std::string trace_error(const std::string& path, const std::string& format,
                        const TraceOptions& opts = TraceOptions()) {
  try {
    read_all(path, format, opts);
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}

void check_req(const IoRequest& r, IoOp op, uint64_t offset, uint32_t bytes, uint64_t time_ns) {
  CHECK(r.op == op);
  CHECK(r.offset == offset);
  CHECK(r.bytes == bytes);
  CHECK(r.time_ns == time_ns);
}

}  // namespace

TEST_CASE("disksim traces: ms times, 512 B sectors, flags bit 0 = read", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write("a.trace",
                              "10.000000 0 100 8 1\n"
                              "11.5 0 200 16 0\n"
                              "\n"
                              "12.25 1 0 1 3\r\n"   // bit 0 set: read; CRLF tolerated
                              "13 0 7 2 2\n");      // bit 0 clear: write
  const auto v = read_all(path, "disksim");
  REQUIRE(v.size() == 4);
  check_req(v[0], IoOp::Read, 51200, 4096, 0);
  check_req(v[1], IoOp::Write, 102400, 8192, 1500000);
  check_req(v[2], IoOp::Read, 0, 512, 2250000);
  check_req(v[3], IoOp::Write, 3584, 1024, 3000000);

  TraceOptions half;
  half.time_scale = 0.5;
  const auto h = read_all(path, "disksim", half);
  CHECK(h[1].time_ns == 750000);
  CHECK(h[3].time_ns == 1500000);
}

TEST_CASE("disksim_ns traces: MQSim's ns variant, type 1 = read", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write("mq.trace",
                              "1000 0 8 8 1\n"
                              "3500 0 16 8 0\n"
                              "3500 0 24 16 1\n");
  const auto v = read_all(path, "disksim_ns");
  REQUIRE(v.size() == 3);
  check_req(v[0], IoOp::Read, 4096, 4096, 0);
  check_req(v[1], IoOp::Write, 8192, 4096, 2500);
  check_req(v[2], IoOp::Read, 12288, 8192, 2500);
  CHECK(read_all(path, "mqsim").size() == 3);
}

TEST_CASE("msr traces: filetime ticks relative to the first record", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write("hm_0.csv",
                              "128166372003061629,hm,0,Read,3884032,4096,6170\n"
                              "128166372016382155,hm,0,Write,3158016,32768,37312\n"
                              "128166372026382245,hm,0,WRITE,0,512,100\n");
  const auto v = read_all(path, "msr");
  REQUIRE(v.size() == 3);
  check_req(v[0], IoOp::Read, 3884032, 4096, 0);
  check_req(v[1], IoOp::Write, 3158016, 32768, (128166372016382155ull - 128166372003061629ull) * 100);
  check_req(v[2], IoOp::Write, 0, 512, (128166372026382245ull - 128166372003061629ull) * 100);

  const auto with_header = tmp.write("h.csv",
                                     "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n"
                                     "100,h,0,read,0,4096,1\n");
  CHECK(read_all(with_header, "msr").size() == 1);
}

TEST_CASE("blkparse output: one event kind, discards, flushes and the summary", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write(
      "blk.txt",
      "  8,0    3        1     0.000000000   697  A  WS 223490 + 8 <- (8,1) 223427\n"
      "  8,0    3        2     0.000001000   697  Q  WS 223490 + 8 [kjournald]\n"
      "  8,0    3        3     0.000002829   697  G  WS 223490 + 8 [kjournald]\n"
      "  8,0    3        4     0.000003000   697  P   N [kjournald]\n"
      "  8,0    3        5     0.000004000   697  D  WS 223490 + 8 [kjournald]\n"
      "  8,0    1        6     0.000500000     0  C  WS 223490 + 8 [0]\n"
      "  8,0    2        7     0.001000000   700  Q   R 1000 + 16 [cat]\n"
      "  8,0    2        8     0.001000100   700  Q FWS [jbd2/sda1-8]\n"
      "  8,0    2        9     0.002000000   701  Q  DS 4096 + 2048 [fstrim]\n"
      "  8,0    2       10     0.003000000   700  m   N cfq700 alloced\n"
      "  8,0    2       11     0.004000000   702  D   R 1000 + 16 [cat]\n"
      "\n"
      "CPU0 (8,0):\n"
      " Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB\n"
      " Read Dispatches:        1,        8KiB\t Write Dispatches:        1,        4KiB\n"
      "Total (8,0):\n"
      " Reads Queued:           1,        8KiB\t Writes Queued:           1,        4KiB\n"
      "Throughput (R/W): 8KiB/s / 4KiB/s\n"
      "Events (8,0): 11 entries\n"
      "Skips: 0 forward (0 -   0.0%)\n");
  auto w = open_trace(path, "blkparse");
  const auto q = read_all(*w);
  REQUIRE(q.size() == 3);
  check_req(q[0], IoOp::Write, 223490ull * 512, 4096, 0);
  check_req(q[1], IoOp::Read, 512000, 8192, 999000);
  check_req(q[2], IoOp::Trim, 4096ull * 512, 2048 * 512, 1999000);
  CHECK(w->skipped_lines() == 0);
  CHECK(w->lines_read() == 20);

  TraceOptions d;
  d.blkparse_event = BlkparseEvent::Issued;
  const auto issued = read_all(path, "blkparse", d);
  REQUIRE(issued.size() == 2);
  check_req(issued[0], IoOp::Write, 223490ull * 512, 4096, 0);
  check_req(issued[1], IoOp::Read, 512000, 8192, 3996000);
}

TEST_CASE("fio iolog v2 and v3", "[host][trace]") {
  TempDir tmp;
  const auto v2 = tmp.write("v2.log",
                            "fio version 2 iolog\n"
                            "/dev/nvme0n1 add\n"
                            "/dev/nvme0n1 open\n"
                            "/dev/nvme0n1 write 0 4096\n"
                            "/dev/nvme0n1 read 8192 16384\n"
                            "/dev/nvme0n1 sync 0 0\n"
                            "/dev/nvme0n1 trim 1048576 65536\n"
                            "/dev/nvme0n1 datasync 0 0\n"
                            "/dev/nvme0n1 close\n");
  const auto a = read_all(v2, "fio_iolog");
  REQUIRE(a.size() == 3);
  check_req(a[0], IoOp::Write, 0, 4096, 0);
  check_req(a[1], IoOp::Read, 8192, 16384, 0);
  check_req(a[2], IoOp::Trim, 1048576, 65536, 0);

  const auto v3 = tmp.write("v3.log",
                            "fio version 3 iolog\n"
                            "0 /dev/sda add\n"
                            "2 /dev/sda open\n"
                            "100 /dev/sda write 4096 4096\n"
                            "250 /dev/sda read 0 512\n"
                            "260 /dev/sda close\n");
  auto w = open_trace(v3, "fio_iolog");
  const auto b = read_all(*w);
  CHECK(dynamic_cast<FioIologTrace&>(*w).version() == 3);
  REQUIRE(b.size() == 2);
  check_req(b[0], IoOp::Write, 4096, 4096, 0);
  check_req(b[1], IoOp::Read, 0, 512, 150 * 1000);  // microsecond timestamps by default
  TraceOptions ms;
  ms.fio_v3_tick_ns = 1000000;
  CHECK(read_all(v3, "fio_iolog", ms)[1].time_ns == 150 * 1000000ull);

  // The version line is required, even in lenient mode.
  const auto bad = tmp.write("nover.log", "/dev/sda write 0 4096\n");
  TraceOptions lenient;
  lenient.lenient = true;
  const std::string msg = trace_error(bad, "fio_iolog", lenient);
  CHECK(msg.find("nover.log:1: expected 'fio version 2 iolog'") != std::string::npos);
}

TEST_CASE("csv traces: header, comments, stream and pc", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write("t.csv",
                              "# produced by hand\n"
                              "time_ns,op,offset,bytes,stream,pc\n"
                              "1000,W,0,4096\n"
                              "\n"
                              "  2500 , w , 4096 , 8192 , 3\n"
                              "# a comment between records\n"
                              "4000,R,0,4096,0,77\n"
                              "4000,t,0,1048576,65535,4294967295\n");
  const auto v = read_all(path, "csv");
  REQUIRE(v.size() == 4);
  check_req(v[0], IoOp::Write, 0, 4096, 0);
  check_req(v[1], IoOp::Write, 4096, 8192, 1500);
  CHECK(v[1].stream == 3);
  check_req(v[2], IoOp::Read, 0, 4096, 3000);
  CHECK(v[2].pc == 77);
  check_req(v[3], IoOp::Trim, 0, 1048576, 3000);
  CHECK(v[3].stream == 65535);
  CHECK(v[3].pc == 4294967295u);
}

TEST_CASE("malformed lines: file:line errors, or skipped and counted when lenient", "[host][trace]") {
  TempDir tmp;
  struct Case {
    const char* format;
    const char* name;
    std::string text;
    int bad_line;    // first malformed line
    int good;        // requests in lenient mode
    int skipped;     // malformed lines in lenient mode
  };
  const std::vector<Case> cases = {
      {"disksim", "d.trace", "0.0 0 1 8 1\n0.5 0 x 8 1\n1.0 0 2 8 0\n1.5 0 3 0 1\n2.0 0 4 8\n", 2, 2, 3},
      {"disksim_ns", "n.trace", "10 0 1 8 1\n20 0 2 8 0 9\n", 2, 1, 1},
      {"msr", "m.csv", "1,h,0,Read,0,4096,1\n2,h,0,Erase,0,4096,1\n3,h,0,Write,0,-1,1\n4,h,0,Write,0,512,1\n",
       2, 2, 2},
      {"blkparse", "b.txt",
       "  8,0 0 1 0.000000000 1 Q R 8 + 8 [a]\n  8,0 0 2 0.1 1 Q W 8 + y [a]\ngarbage here\n"
       "  8,0 0 3 0.2 1 Q W 16 [a]\n  8,0 0 4 0.3 1 Q W 16 + 8 [a]\n",
       2, 2, 3},
      {"fio_iolog", "f.log", "fio version 2 iolog\nf add\nf write 0 4096\nf frobnicate 0 4096\nf read 0\n"
       "f write 0 0\nf read 4096 4096\n", 4, 2, 3},
      {"csv", "c.csv", "0,R,0,4096\n5,X,0,4096\n6,W,0,0\n7,W,0,4096,70000\n8,W\n9,W,4096,512\n", 2, 2, 4},
  };
  for (const auto& c : cases) {
    INFO(c.format);
    const std::string path = tmp.write(c.name, c.text);
    const std::string msg = trace_error(path, c.format);
    // "<file>:<line>: <expected>, got '<line text>'"
    CHECK(msg.find(path + ":" + std::to_string(c.bad_line) + ": expected") == 0);
    CHECK(msg.find(", got '") != std::string::npos);
    CHECK(msg.back() == '\'');

    TraceOptions lenient;
    lenient.lenient = true;
    auto w = open_trace(path, c.format, lenient);
    CHECK(read_all(*w).size() == size_t(c.good));
    CHECK(w->skipped_lines() == uint64_t(c.skipped));
    CHECK(w->requests() == uint64_t(c.good));
  }
  // The error carries the file and line separately too.
  const std::string path = tmp.write("x.csv", "0,R,0,4096\n\n1,R,zero,4096\n");
  try {
    read_all(path, "csv");
    FAIL("no TraceError");
  } catch (const TraceError& e) {
    CHECK(e.file() == path);
    CHECK(e.line() == 3);
    CHECK(std::string(e.what()).find("got '1,R,zero,4096'") != std::string::npos);
  }
}

TEST_CASE("trace factory errors", "[host][trace]") {
  TempDir tmp;
  const auto path = tmp.write("ok.csv", "0,R,0,4096\n");
  CHECK_THROWS_WITH(open_trace(path, "spc"), Catch::Contains("unknown trace format 'spc'"));
  TraceOptions bad;
  bad.time_scale = -1;
  CHECK_THROWS_AS(open_trace(path, "csv", bad), std::invalid_argument);
  CHECK_THROWS_WITH(open_trace(path + ".missing", "csv"), Catch::Contains(path + ".missing"));
  CHECK_THROWS_AS(open_trace(path + ".missing", "csv"), TraceError);
  CHECK(trace_formats().size() == 7);
}

TEST_CASE("trace readers stream large files", "[host][trace]") {
  TempDir tmp;
  std::string text;
  const int n = 200000;
  text.reserve(size_t(n) * 24);
  for (int i = 0; i < n; ++i)
    text += std::to_string(i * 10) + ",W," + std::to_string(uint64_t(i) * 4096) + ",4096\n";
  const auto path = tmp.write("big.csv", text);
  auto w = open_trace(path, "csv");
  IoRequest r;
  uint64_t count = 0, last_time = 0;
  while (w->next(r)) {
    ++count;
    last_time = r.time_ns;
  }
  CHECK(count == uint64_t(n));
  CHECK(last_time == uint64_t(n - 1) * 10);
  CHECK(w->lines_read() == uint64_t(n));
}

TEST_CASE("open-loop limit: a time beyond 2^64 ps is an error naming the line and the limit", "[host][trace]") {
  TempDir tmp;
  // 18446744073709552 ns is just past 2^64 ps; with time_scale 1e9 a 0.02 s gap is too.
  const std::string path = tmp.write("far.csv", "0,W,0,4096\n18446744073709551,W,4096,4096\n18446744073709552,W,0,4096\n");
  TraceOptions open;
  open.max_time_ns = kMaxOpenLoopTimeNs;
  const std::string e = trace_error(path, "csv", open);
  CHECK_THAT(e, Catch::Contains("far.csv:3") && Catch::Contains("at most 18446744.073709551 s") && Catch::Contains("2^64 ps"));
  CHECK(read_all(path, "csv").size() == 3);  // no limit in closed loop: times are ignored there
  const std::string scaled = tmp.write("s.csv", "0,W,0,4096\n10000000,W,0,4096\n20000000,W,0,4096\n");
  open.time_scale = 1e9;
  CHECK_THAT(trace_error(scaled, "csv", open), Catch::Contains("s.csv:3") && Catch::Contains("trace_time_scale=1e+09"));
}
