// Issue 44, the waveform outputs (--vcd): a write that fails removes its partial file and says so, partial files
// of runs that are gone (SIGKILL) are removed by the next run, an --out or --vcd that would collide or name nothing
// is refused before the simulation (exit 2), a --vcd-window after the run's end is warned of; an fio log name
// that is not a file name is refused naming the option or key. Every run works in a temporary folder.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <string>

#include "common/cli_run.h"
#include "common/temp_dir.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::run_in;
using ssdtlm::test::shell;
using ssdtlm::test::TempDir;
namespace fs = std::filesystem;

namespace {
const std::string kSmall = ssdtlm::test::kSmallDrive;

// Files in `dir` whose name holds ".partial-".
int partial_files(const std::string& dir) {
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir)) n += e.path().filename().string().find(".partial-") != std::string::npos;
  return n;
}
}  // namespace

TEST_CASE("waveform: a write that fails removes the partial file and says why, exit 2 (issue 44)", "[cli][wave]") {
  // A file-size limit (ulimit -f, SIGXFSZ ignored: writes fail with EFBIG) stands for a full disk. 2000 I/Os make
  // about 69 KB of VCD, written at the end (one buffer); 20000 make 2.9 MB, written as the run goes.
  TempDir dir("wave_full");
  for (const char* ios : {"2000", "20000"}) {
    const CliRun r = shell(dir.path(), "trap '' XFSZ; ulimit -f 32; " + ssdtlm::test::cli_binary() +
                                           " --out out --quiet --vcd w.vcd --set workload.io_count=" + ios + kSmall);
    INFO(ios << " I/Os: " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("w.vcd") && Contains("cannot write the waveform") && Contains("File too large") &&
                          Contains("removed"));
    CHECK(partial_files(dir.path()) == 0);
    CHECK_FALSE(fs::exists(dir.path() + "/w.vcd"));
    CHECK_FALSE(fs::exists(dir.path() + "/out/summary.json"));
  }
}

TEST_CASE("waveform: partial files of runs that are gone are removed by the next run into that path (issue 44)",
          "[cli][wave]") {
  TempDir dir("wave_stale");
  // A pid above the kernel's pid_max (gone), and this test's own (alive): only the first goes, and only for w.vcd.
  const std::string gone = dir.write("w.vcd.partial-999999999", "x");
  const std::string alive = dir.write("w.vcd.partial-" + std::to_string(::getpid()), "x");
  const std::string other = dir.write("v.vcd.partial-999999999", "x");
  const CliRun r = run_in(dir.path(), "--out out --quiet --vcd w.vcd --set workload.io_count=100" + kSmall);
  REQUIRE(r.code == 0);
  CHECK_FALSE(fs::exists(gone));
  CHECK(fs::exists(alive));
  CHECK(fs::exists(other));
  CHECK(fs::exists(dir.path() + "/w.vcd"));
}

TEST_CASE("waveform: --vcd on --out's path, on a file of the output set, or empty is refused before the run "
          "(issue 44)", "[cli][wave]") {
  TempDir dir("wave_paths");
  // A fresh folder: the run used to simulate, then fail to move the waveform onto the folder --out had made.
  for (const std::string args : {"--out out --vcd out", "--out out --vcd out/summary.json", "--out out/sub --vcd out",
                                 "--out out --vcd ./out/"}) {
    const CliRun r = run_in(dir.path(), args + " --quiet --set workload.io_count=100" + kSmall);
    INFO(args << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("option --vcd") && Contains("--out"));
    CHECK_FALSE(fs::exists(dir.path() + "/out/summary.json"));
  }
  const CliRun empty = run_in(dir.path(), "--out out --quiet --vcd '' --set workload.io_count=100" + kSmall);
  CHECK(empty.code == 2);
  CHECK_THAT(empty.err, Contains("option --vcd") && Contains("expected a file name"));
  const CliRun fst = run_in(dir.path(), "--out out --quiet --fst '' --set workload.io_count=100" + kSmall);
  CHECK(fst.code == 2);
  CHECK_THAT(fst.err, Contains("option --fst") && Contains("expected a file name"));
}

TEST_CASE("waveform: a --vcd-window that starts after the run's end is warned of on stderr (issue 44)", "[cli][wave]") {
  TempDir dir("wave_window");
  const CliRun r = run_in(dir.path(), "--out out --quiet --vcd w.vcd --vcd-window 100000:200000 --set "
                                      "workload.io_count=100" + kSmall);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.err, Contains("warning") && Contains("--vcd-window") && Contains("holds no change"));
  const CliRun inside = run_in(dir.path(), "--out out --quiet --vcd w.vcd --vcd-window 0:1 --set workload.io_count=100" +
                                               kSmall);
  REQUIRE(inside.code == 0);
  CHECK(inside.err.find("--vcd-window") == std::string::npos);
}

TEST_CASE("fio logs: a log name that is not a file name is refused naming the option or key (issue 44)",
          "[cli][fio]") {
  TempDir dir("fio_log_names");
  // write_lat_log= takes the job's name, here a path: fio writes a/b_lat.1.log relative to its working folder,
  // which is --out here (issue 45: fio-plot's bench-fio names its logs with folders), the folder made as needed.
  dir.write("slash.fio", "[a/b]\nrw=randwrite\nsize=1m\nwrite_lat_log=\n");
  const CliRun fio = run_in(dir.path(), "--out out --quiet --fio slash.fio" + kSmall);
  CHECK(fio.code == 0);
  CHECK(fs::exists(dir.path() + "/out/a/b_lat.1.log"));
  CHECK_FALSE(fs::exists(dir.path() + "/out/b_lat.1.log"));
  dir.write("dir.fio", "[j]\nrw=randwrite\nsize=1m\nwrite_lat_log=a/\n");
  const CliRun folder = run_in(dir.path(), "--out out --quiet --fio dir.fio" + kSmall);
  CHECK(folder.code == 2);
  CHECK_THAT(folder.err, Contains("dir.fio:4") && Contains("write_lat_log") && Contains("file name at the end"));
  // Every output stays under --out: an absolute path or one climbing out is an error naming the line.
  dir.write("abs.fio", "[j]\nrw=randwrite\nsize=1m\nwrite_bw_log=/tmp/bench/x\n");
  const CliRun abs = run_in(dir.path(), "--out out --quiet --fio abs.fio" + kSmall);
  CHECK(abs.code == 2);
  CHECK_THAT(abs.err, Contains("abs.fio:4") && Contains("outside --out") && Contains("tmp/bench/x"));
  dir.write("up.fio", "[j]\nrw=randwrite\nsize=1m\nwrite_bw_log=a/../../x\n");
  const CliRun up = run_in(dir.path(), "--out out --quiet --fio up.fio" + kSmall);
  CHECK(up.code == 2);
  CHECK_THAT(up.err, Contains("up.fio:4") && Contains("climbing out"));
  const CliRun dot = run_in(dir.path(), "--out out --quiet --set workload.log_bw=.." + kSmall);
  CHECK(dot.code == 2);
  CHECK_THAT(dot.err, Contains("key 'workload.log_bw'"));
  const CliRun job = run_in(dir.path(), "--out out2 --quiet --set 'jobs=[{\"name\": \"x\", \"log_lat\": \"c/./d\"}]'" + kSmall);
  CHECK(job.code == 0);
  CHECK(fs::exists(dir.path() + "/out2/c/d_lat.1.log"));
  const CliRun out = run_in(dir.path(), "--out out --quiet --set 'jobs=[{\"name\": \"x\", \"log_lat\": \"/e\"}]'" + kSmall);
  CHECK(out.code == 2);
  CHECK_THAT(out.err, Contains("key 'jobs[0].log_lat'") && Contains("outside --out"));
}
