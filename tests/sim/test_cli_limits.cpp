// Issue 44: runs that must be refused before the simulation (exit 2, naming the key) or end with a message,
// never simulate for nothing, stall or hang: simulated time past 2^64 ps, memory beyond the address-space
// limit (ulimit -v), a worker thread that cannot start. Every run works in a temporary folder.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "common/cli_run.h"
#include "common/temp_dir.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::run_in;
using ssdtlm::test::TempDir;
namespace fs = std::filesystem;

namespace {
const std::string kSmall = ssdtlm::test::kSmallDrive;
}  // namespace

TEST_CASE("cli: pacing past 2^64 ps of simulated time is refused before the run, --set and fio alike (issue 44)",
          "[cli][workload]") {
  TempDir dir("cli_limits");
  for (const std::string set : {"workload.thinktime_us=1e12", "workload.rate_iops=1e-9", "workload.start_delay_ms=1e12"}) {
    const CliRun r = run_in(dir.path(), "--out out --quiet --set " + set + kSmall);
    INFO(set << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("key '" + set.substr(0, set.find('=')) + "'") && Contains("2^64 ps"));
    CHECK_FALSE(fs::exists(dir.path() + "/out/incomplete.json"));  // refused, not stopped after simulating
  }
  // fio's thinktime, rate and startdelay reach the same check (rate=1: 4096 s per 4 KiB I/O over 64 MiB).
  dir.write("think.fio", "[j]\nrw=randwrite\nsize=64m\nthinktime=1000000s\n");
  dir.write("rate.fio", "[j]\nrw=randwrite\nsize=64m\nrate=1\n");
  dir.write("delay.fio", "[j]\nrw=randwrite\nsize=64m\nstartdelay=300d\n");
  for (const std::string job : {"think", "rate", "delay"}) {
    const CliRun r = run_in(dir.path(), "--out out --quiet --fio " + job + ".fio" + kSmall);
    INFO(job << ": " << r.err);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains("jobs[0].") && Contains("(fio ") && Contains("2^64 ps"));
    CHECK_FALSE(fs::exists(dir.path() + "/out/incomplete.json"));
  }
}

TEST_CASE("cli: precondition.threads that cannot all start end the run with exit 2 naming the key, never a hang "
          "(issue 44)", "[cli][precondition]") {
  // 1023 helpers of 8 MiB stacks cannot fit 2 GB of address space: a thread fails to start. `timeout` turns the
  // hang this used to be into exit 124.
  TempDir dir("cli_threads");
  const CliRun r = ssdtlm::test::shell(dir.path(), "ulimit -s 8192 && ulimit -v 2000000 && timeout 60 " +
                                                       ssdtlm::test::cli_binary() + " --out out --quiet --set "
                                                       "precondition.threads=1024 --set workload.io_count=100" + kSmall);
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("key 'precondition.threads'") && Contains("cannot start helper thread"));
  CHECK_FALSE(fs::exists(dir.path() + "/out/summary.json"));
}
