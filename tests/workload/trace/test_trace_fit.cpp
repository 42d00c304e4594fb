// Traces that do not fit the device: every workload.trace_fit mode on a hand-written trace, and
// workload.trace_devno on multi-device traces.
#include <catch2/catch.hpp>

#include <string>
#include <vector>


#include "common/temp_dir.h"
#include "workload/trace/trace_fit.h"
#include "workload/trace/trace_reader.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kDevice = 1 << 20;  // 1 MiB

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("fit") {}
};

// Two requests inside the 1 MiB device, three beyond it (one crossing its end). Spans 1581056 bytes.
const char* const kTrace =
    "0,W,0,4096\n"
    "10,W,524288,4096\n"
    "20,R,1048576,4096\n"
    "30,W,1572864,8192\n"
    "40,W,1044480,8192\n";

std::unique_ptr<FittedTrace> fit(const std::string& path, TraceFitMode mode, const std::string& format = "csv",
                                 TraceOptions o = TraceOptions()) {
  return std::make_unique<FittedTrace>([=] { return open_trace(path, format, o); }, kDevice, mode);
}

std::vector<uint64_t> offsets(Workload& w) {
  std::vector<uint64_t> v;
  IoRequest r;
  while (w.next(r)) v.push_back(r.offset);
  return v;
}

std::string fit_error(const std::string& path, TraceFitMode mode) {
  try {
    fit(path, mode);
  } catch (const TraceFitError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("trace fit: the extent is measured before the replay", "[host][trace][fit]") {
  TempDir dir;
  auto t = fit(dir.write("t.csv", kTrace), TraceFitMode::Wrap);
  const TraceExtent& e = t->extent();
  CHECK(e.requests == 5);
  CHECK(e.min_offset == 0);
  CHECK(e.max_end == 1581056);
  CHECK(e.beyond == 3);
  CHECK(e.first_beyond_line == 3);
  CHECK(e.first_beyond_offset == 1048576);
  CHECK(e.last_arrival_ns == 40);
  CHECK(t->last_arrival_ns() == 40);
  CHECK(t->progress().total == 5);
  CHECK(t->progress().done == 0);
  CHECK(std::string(t->progress().what) == "trace requests");
}

TEST_CASE("trace fit: error names the first request beyond the device and the size the trace needs", "[host][trace][fit]") {
  TempDir dir;
  const auto path = dir.write("t.csv", kTrace);
  const std::string e = fit_error(path, TraceFitMode::Error);
  CHECK_THAT(e, Contains("t.csv:3") && Contains("1048576 + 4096") && Contains("1.508 MiB") && Contains("1 MiB") &&
                    Contains("3 of 5 requests") && Contains("wrap") && Contains("scale") && Contains("shift"));
  // auto: more than 1% would fold: the same refusal, naming the choices
  const std::string a = fit_error(path, TraceFitMode::Auto);
  CHECK_THAT(a, Contains("3 of 5 requests (60.0%)") && Contains("workload.trace_fit=wrap") && Contains("scale") &&
                    Contains("shift") && Contains("trace_devno"));
}

TEST_CASE("trace fit: wrap folds offsets back, moving a request that still crosses the end", "[host][trace][fit]") {
  TempDir dir;
  auto t = fit(dir.write("t.csv", kTrace), TraceFitMode::Wrap);
  CHECK(offsets(*t) == std::vector<uint64_t>{0, 524288, 0, 524288, 1040384});
  CHECK(t->refitted() == 3);
  CHECK(t->applied() == TraceFitMode::Wrap);
  CHECK(t->progress().done == 5);
  CHECK_THAT(t->describe(), Contains("wrap: 3 of 5 trace requests (60.0%) folded back"));
}

TEST_CASE("trace fit: scale multiplies every offset by device / span and keeps 4 KiB alignment", "[host][trace][fit]") {
  TempDir dir;
  auto t = fit(dir.write("t.csv", kTrace), TraceFitMode::Scale);
  CHECK(t->scale() == Approx(1048576.0 / 1581056.0));
  CHECK(offsets(*t) == std::vector<uint64_t>{0, 344064, 692224, 1040384, 692224});
  CHECK(t->refitted() == 4);
  CHECK_THAT(t->describe(), Contains("scale: 4 of 5") && Contains("x 0.6632"));
  // A trace that fits is left alone.
  auto small = fit(dir.write("s.csv", "0,W,0,4096\n1,W,8192,4096\n"), TraceFitMode::Scale);
  CHECK(offsets(*small) == std::vector<uint64_t>{0, 8192});
  CHECK(small->refitted() == 0);
  CHECK_THAT(small->describe(), Contains("none of 2 trace requests refitted"));
}

TEST_CASE("trace fit: shift subtracts the lowest offset, 4 KiB-aligned, or refuses", "[host][trace][fit]") {
  TempDir dir;
  auto t = fit(dir.write("far.csv", "0,W,10486272,4096\n5,R,10489856,4096\n9,W,11010048,512\n"), TraceFitMode::Shift);
  CHECK(t->shift() == 10485760);  // the lowest offset 10486272 rounded down to 4 KiB
  CHECK(offsets(*t) == std::vector<uint64_t>{512, 4096, 524288});
  CHECK(t->refitted() == 3);
  CHECK_THAT(t->describe(), Contains("shift: 3 of 3") && Contains("moved down by 10 MiB"));
  CHECK_THAT(fit_error(dir.write("t.csv", kTrace), TraceFitMode::Shift), Contains("still needs") && Contains("scale"));
}

TEST_CASE("trace fit: auto wraps when at most 1% would fold, and a fitting trace is untouched", "[host][trace][fit]") {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 199; ++i) text += std::to_string(i) + ",W," + std::to_string(i * 4096) + ",4096\n";
  text += "999,W,2097152,4096\n";  // 1 of 200 beyond: 0.5%
  auto t = fit(dir.write("a.csv", text), TraceFitMode::Auto);
  const auto v = offsets(*t);
  CHECK(v.back() == 0);
  CHECK(t->refitted() == 1);
  CHECK(t->applied() == TraceFitMode::Wrap);
  CHECK_THAT(t->describe(), Contains("auto -> wrap: 1 of 200"));
  auto ok = fit(dir.write("ok.csv", "0,W,0,4096\n"), TraceFitMode::Error);
  CHECK(offsets(*ok) == std::vector<uint64_t>{0});
  CHECK_THAT(ok->describe(), Contains("error: none of 1"));
  CHECK_THAT(fit_error(dir.write("big.csv", "0,W,0,2097152\n"), TraceFitMode::Wrap),
             Contains("big.csv:1") && Contains("larger than the whole device"));
}

TEST_CASE("trace devno: one device of a multi-device DiskSim or MSR trace", "[host][trace][fit]") {
  TempDir dir;
  const auto disksim = dir.write("d.trace", "0 0 8 8 0\n10 1 16 8 1\n20 0 24 8 0\n30 2 32 8 0\n40 1 40 8 0\n");
  TraceOptions o;
  o.devno = 1;
  auto t = fit(disksim, TraceFitMode::Error, "disksim_ns", o);
  CHECK(t->extent().requests == 2);
  CHECK(offsets(*t) == std::vector<uint64_t>{16 * 512, 40 * 512});
  o.devno = 7;
  CHECK(fit(disksim, TraceFitMode::Error, "disksim_ns", o)->extent().requests == 0);
  const auto msr = dir.write("m.csv", "128166372000000000,web,0,Read,0,4096,1\n128166372000000010,web,3,Write,8192,4096,1\n");
  o.devno = 3;
  auto m = fit(msr, TraceFitMode::Error, "msr", o);
  CHECK(offsets(*m) == std::vector<uint64_t>{8192});
  o.devno = -1;
  CHECK(fit(msr, TraceFitMode::Error, "msr", o)->extent().requests == 2);
  o.devno = 0;
  CHECK_THROWS_WITH(open_trace(dir.write("c.csv", "0,W,0,4096\n"), "csv", o), Contains("no device number"));
}

TEST_CASE("trace fit: backward times and sizes that are not multiples of 512 B are counted with their first line", "[host][trace][fit]") {
  TempDir dir;
  auto t = fit(dir.write("w.csv", "# c\n0,W,0,4096\n30,W,4096,1000\n20,R,0,4096\n10,R,0,4096\n40,W,0,513\n"),
               TraceFitMode::Wrap);
  const TraceExtent& e = t->extent();
  CHECK(e.backward_times == 2);
  CHECK(e.first_backward_line == 4);
  CHECK(e.unaligned_sizes == 2);
  CHECK(e.first_unaligned_line == 3);
  CHECK(e.last_arrival_ns == 40);
  auto clean = fit(dir.write("c.csv", kTrace), TraceFitMode::Wrap);
  CHECK(clean->extent().backward_times == 0);
  CHECK(clean->extent().unaligned_sizes == 0);
}
