// Hostile traces (issue 30): files that are not regular files, fields outside the format, offsets past 2^64,
// control characters in the quoted line.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/temp_dir.h"
#include "config/config.h"
#include "workload/trace/trace_fit.h"
#include "workload/trace/trace_reader.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
struct TempDir : test::TempDir {
  TempDir() : test::TempDir("trace_input") {}
};

std::string trace_error(const std::string& path, const std::string& format) {
  try {
    auto w = open_trace(path, format, TraceOptions());
    IoRequest r;
    while (w->next(r)) {
    }
  } catch (const TraceError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("trace input: a path that is not a regular file is refused, naming workload.trace_path", "[trace][input]") {
  try {
    open_trace("/dev/zero", "csv", TraceOptions());
    FAIL("opened /dev/zero");
  } catch (const ConfigError& e) {
    CHECK_THAT(std::string(e.what()), Contains("workload.trace_path '/dev/zero': expected a regular file"));
  }
}

TEST_CASE("trace input: MQSim's type is 0 or 1, blkparse's RWBS holds only its letters", "[trace][input]") {
  TempDir tmp;
  CHECK_THAT(trace_error(tmp.write("n.trace", "10 0 1 8 1\n20 0 2 8 7\n"), "disksim_ns"),
             Contains("n.trace:2: expected") && Contains("type 1 = read, 0 = write"));
  CHECK_THAT(trace_error(tmp.write("m.trace", "10 0 1 8 2\n"), "mqsim"), Contains("m.trace:1: expected"));
  // DiskSim's own flags are bits (bit 0 = read): 7 is a read.
  CHECK(trace_error(tmp.write("d.trace", "1.0 0 1 8 7\n"), "disksim").empty());
  CHECK_THAT(trace_error(tmp.write("b.txt", "  8,0 0 1 0.000000000 1 Q ZZ 8 + 8 [a]\n"), "blkparse"),
             Contains("b.txt:1: expected") && Contains("RWBS"));
  CHECK(trace_error(tmp.write("ok.txt", "  8,0 0 1 0.000000000 1 Q WS 8 + 8 [a]\n  8,0 0 2 0.1 1 Q FWFSM 16 + 8 [a]\n"
                              "  8,0 0 3 0.2 1 Q N 0 + 0 [a]\n"), "blkparse").empty());
}

TEST_CASE("trace input: an offset whose request ends past 2^64 is named as such, not as beyond the namespace",
          "[trace][input][fit]") {
  TempDir tmp;
  const std::string path = tmp.write("far.csv", "0,W,0,4096\n1,W,18446744073709547520,8192\n");
  try {
    FittedTrace f([=] { return open_trace(path, "csv", TraceOptions()); }, 1 << 20, TraceFitMode::Wrap);
    FAIL("fitted an offset past 2^64");
  } catch (const TraceFitError& e) {
    CHECK_THAT(std::string(e.what()), Contains("far.csv:2") && Contains("beyond 2^64 bytes"));
  }
}

TEST_CASE("trace input: control characters in the quoted line are escaped", "[trace][input]") {
  TempDir tmp;
  const std::string e = trace_error(tmp.write("c.csv", std::string("0,W,0,4096\n1,W\x01,0,4096\n")), "csv");
  CHECK_THAT(e, Contains("c.csv:2") && Contains("\\x01"));
}
