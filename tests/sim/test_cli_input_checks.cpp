// Defects found by fuzzing the command line as a new user would (issue 15): open-loop times beyond SystemC's
// range, idle gaps, outputs that cannot be written, outputs replaced as a set, memory beyond the machine's,
// and trace oddities that must not pass without a word.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::fresh;
using ssdtlm::test::cli_binary;
using ssdtlm::test::run_in;
using ssdtlm::test::shell;
using ssdtlm::test::slurp;
using ssdtlm::test::source_path;
namespace fs = std::filesystem;

namespace {

const std::string kSmall = ssdtlm::test::kSmallDrive;
// A run whose first request fails once simulated (2 MiB, more than the 1 MiB write buffer: an error only the
// running host raises): a run refused for anything else was refused before the simulation. Needs
// write_fails_when_run(dir) first.
const std::string kFailsWhenRun = kSmall + " --set workload.pattern=trace --set workload.trace_path=fails_when_run.csv"
                                           " --set workload.trace_format=csv";
void write_fails_when_run(const std::string& dir) { std::ofstream(dir + "/fails_when_run.csv") << "0,W,0,2097152\n"; }
const char* const kRunError = "exceeds the write buffer";

size_t lines(const std::string& text) {
  size_t n = 0;
  for (char c : text) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("cli: trace_time_scale=1e9 on the TPC-C trace stops at the first time beyond 2^64 ps", "[cli][trace]") {
  // It used to hang: times beyond 2^64 ps saturated, the host never issued them and the sampler ticked on.
  const std::string dir = fresh("cli_far_times");
  const CliRun r = run_in(dir, "--out out --quiet --set workload.pattern=trace --set workload.trace_path=" +
                                source_path("tests/data/tpcc-small.trace") +
                                " --set workload.trace_format=mqsim --set workload.trace_fit=wrap"
                                " --set workload.trace_timing=open --set workload.trace_time_scale=1e9" + kSmall);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("tpcc-small.trace:") && Contains("2^64 ps") && Contains("18446744.073709551 s") &&
                        Contains("trace_time_scale=1e+09"));
  CHECK_FALSE(fs::exists(dir + "/out/summary.json"));
}

TEST_CASE("cli: an idle gap in an open-loop trace is crossed without a row per interval", "[cli][trace]") {
  // Two writes 10^6 s apart at the default 100 ms interval: 10^7 empty intervals, now skipped.
  const std::string dir = fresh("cli_idle_gap");
  std::ofstream(dir + "/gap.csv") << "0,W,0,4096\n1000000000000000,W,4096,4096\n";
  const CliRun r = run_in(dir, "--out out --quiet --set workload.pattern=trace --set workload.trace_path=gap.csv"
                            " --set workload.trace_format=csv --set workload.trace_timing=open" + kSmall);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(slurp(dir + "/out/summary.json"));
  CHECK(s["host"]["ios"] == 2);
  const std::string ts = slurp(dir + "/out/timeseries.csv");
  CHECK(lines(ts) <= 4);  // the header, the first write's interval, the second write's
  CHECK_THAT(ts, Contains("\n1000000000."));  // the last row is at the second write, 10^9 ms in
  // Nor an activation per interval: the sampler sleeps across the gap (10^7 intervals otherwise).
  CHECK(s["kernel"]["activations"].get<uint64_t>() < 1000);
}

TEST_CASE("cli: an --out or --vcd that cannot be written stops before the simulation with exit 2", "[cli]") {
  const std::string dir = fresh("cli_unwritable");
  std::ofstream(dir + "/afile") << "x";
  write_fails_when_run(dir);
  const CliRun out = run_in(dir, "--out afile/out --quiet" + kFailsWhenRun);
  CHECK(out.code == 2);
  CHECK_THAT(out.err, Contains("--out afile/out") && Contains("cannot create"));
  CHECK_THAT(out.err, !Contains(kRunError));
  const CliRun vcd = run_in(dir, "--out out --quiet --vcd afile/run.vcd" + kFailsWhenRun);
  CHECK(vcd.code == 2);
  CHECK_THAT(vcd.err, Contains("--vcd afile/run.vcd") && Contains("cannot write"));
  CHECK_THAT(vcd.err, !Contains(kRunError));
  const CliRun bytes = run_in(dir, "--out out --quiet --vcd $(printf 'r\\377.vcd')" + kFailsWhenRun);
  CHECK(bytes.code == 2);
  CHECK_THAT(bytes.err, Contains("UTF-8") && Contains("\\xff"));
  CHECK_THAT(bytes.err, !Contains(kRunError));
  const CliRun trace = run_in(dir, "--out out --quiet --set workload.pattern=trace --set "
                                   "workload.trace_path=$(printf 't\\377.trace')" + kSmall);
  CHECK(trace.code == 2);
  CHECK_THAT(trace.err, Contains("workload.trace_path") && Contains("UTF-8"));
  CHECK_FALSE(fs::exists(dir + "/out/summary.json"));
  // The run itself fails as kFailsWhenRun says, so the checks above did answer first.
  const CliRun run = run_in(dir, "--out out --quiet" + kFailsWhenRun);
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Contains(kRunError));
}

TEST_CASE("cli: outputs are replaced as a set and a failed run leaves the previous set and waveform alone", "[cli][wave]") {
  const std::string dir = fresh("cli_output_set");
  const std::string base = "--out out --quiet --vcd out/run.vcd" + kSmall + " --set workload.io_count=2000";
  const CliRun first = run_in(dir, base + " --set stats.lpn_writes=true --output-format fio-json");
  REQUIRE(first.code == 0);
  REQUIRE(fs::exists(dir + "/out/lpn_writes.csv"));
  REQUIRE(fs::exists(dir + "/out/fio.json"));
  std::ofstream(dir + "/out/notes.txt") << "mine";  // not the model's: kept
  const CliRun second = run_in(dir, base + " --set workload.read_fraction=0.5");
  REQUIRE(second.code == 0);
  CHECK_FALSE(fs::exists(dir + "/out/lpn_writes.csv"));  // stale: this run did not count LPN writes
  CHECK_FALSE(fs::exists(dir + "/out/fio.json"));
  CHECK(slurp(dir + "/out/notes.txt") == "mine");
  const std::string summary = slurp(dir + "/out/summary.json"), vcd = slurp(dir + "/out/run.vcd");
  REQUIRE(vcd.size() > 1000);
  // A run that fails half-way: the trace's last request is larger than the write buffer.
  std::ofstream(dir + "/late.csv") << "0,W,0,4096\n1000,W,4096,4096\n2000,W,0,2097152\n";
  const CliRun failed = run_in(dir, "--out out --quiet --vcd out/run.vcd" + kSmall +
                                     " --set workload.pattern=trace --set workload.trace_path=late.csv"
                                     " --set workload.trace_format=csv --set stats.lpn_writes=true");
  CHECK(failed.code == 2);
  CHECK_THAT(failed.err, Contains("exceeds the write buffer"));
  CHECK(slurp(dir + "/out/summary.json") == summary);
  CHECK(slurp(dir + "/out/run.vcd") == vcd);
  CHECK_FALSE(fs::exists(dir + "/out/lpn_writes.csv"));
  for (const auto& e : fs::directory_iterator(dir + "/out")) {
    INFO(e.path());
    CHECK(e.path().filename().string().find("partial") == std::string::npos);
    CHECK(e.path().filename().string().find("staging") == std::string::npos);
  }
}

TEST_CASE("cli: a configuration needing more memory than sim.max_memory_bytes stops before allocating", "[cli][memory]") {
  const std::string dir = fresh("cli_memory");
  // A 1 TiB write buffer on a small drive took 7 GB before it was refused.
  // Run with 2 GiB of address space: an allocation of the buffer before the check fails (std::bad_alloc)
  // instead of reaching the check's message.
#if defined(__SANITIZE_ADDRESS__)  // ASan reserves terabytes of shadow address space: no ulimit -v under it
  const std::string limit = "true";
#else
  const std::string limit = "ulimit -v 2097152";
#endif
  const CliRun buffer = shell(dir, limit + " && " + cli_binary() + " --out out --quiet" + kSmall +
                                       " --set buffer.bytes=1T --set sim.max_memory_bytes=1G");
  CHECK(buffer.code == 2);
  CHECK_THAT(buffer.err, Contains("sim.max_memory_bytes") && Contains("write buffer") && Contains("GiB") &&
                             Contains("the limit of 1 GiB"));
  // The estimate, next to what the model counts it allocated: an estimate must not be below it.
  const CliRun ok = run_in(dir, "--out out --quiet" + kSmall + " --set workload.io_count=1000");
  REQUIRE(ok.code == 0);
  const auto m = nlohmann::json::parse(slurp(dir + "/out/summary.json"))["memory"];
  const double est = m["estimated_bytes"].get<double>(), counted = m["model_bytes"].get<double>();
  INFO("estimated " << est << " counted " << counted);
  CHECK(est >= counted);
  CHECK(est <= 1.5 * counted + 2e6);  // + the host's pooled payloads, which the model does not count
  // 8 TiB of flash against this machine's memory (the default limit; 16 TiB is refused by the 32-bit addresses).
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (double(pages) * double(page) > 30e9) {  // the 8 TiB drive would fit: do not allocate it
    WARN("more than 30 GB of memory: the default-limit case is not run");
    return;
  }
  const CliRun huge = run_in(dir, "--out out --quiet --set geometry.channels=16 --set geometry.dies_per_channel=16"
                               " --set geometry.blocks_per_plane=8192 --set geometry.pages_per_block=256"
                               " --set geometry.page_bytes=16384");
  CHECK(huge.code == 2);
  CHECK_THAT(huge.err, Contains("sim.max_memory_bytes") && Contains("physical memory") && Contains("dies' per-unit arrays"));
}

TEST_CASE("cli: backward times and unaligned sizes are counted warnings and an empty trace is an error", "[cli][trace]") {
  const std::string dir = fresh("cli_trace_warnings");
  std::ofstream(dir + "/odd.csv") << "0,W,0,4096\n3000,W,8192,1000\n2000,R,0,4096\n4000,W,0,4096\n";
  const CliRun odd = run_in(dir, "--out out --set workload.pattern=trace --set workload.trace_path=odd.csv"
                              " --set workload.trace_format=csv --set workload.trace_timing=open" + kSmall);
  REQUIRE(odd.code == 0);
  CHECK_THAT(odd.out, Contains("trace warn  1 requests timed before an earlier line's (first at line 3)") &&
                          Contains("trace warn  1 request sizes not a multiple of 512 B (first at line 2)"));
  const auto w = nlohmann::json::parse(slurp(dir + "/out/summary.json"))["host"]["trace"]["warnings"];
  CHECK(w["backward_times"] == 1);
  CHECK(w["first_backward_line"] == 3);
  CHECK(w["unaligned_sizes"] == 1);
  CHECK(w["first_unaligned_line"] == 2);
  std::ofstream(dir + "/empty.csv") << "# nothing here\n";
  const CliRun empty = run_in(dir, "--out out2 --quiet --set workload.pattern=trace --set workload.trace_path=empty.csv"
                                " --set workload.trace_format=csv" + kSmall);
  CHECK(empty.code == 2);
  CHECK_THAT(empty.err, Contains("empty.csv: no request in the trace"));
}
