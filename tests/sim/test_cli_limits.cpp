// Issue 44: runs that must be refused before the simulation (exit 2, naming the key) or end with a message,
// never simulate for nothing, stall or hang: simulated time past 2^64 ps, memory beyond the address-space
// limit (ulimit -v), a worker thread that cannot start. Every run works in a temporary folder.
#include <catch2/catch.hpp>

#include <systemc>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <new>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli_run.h"
#include "common/temp_dir.h"
#include "generic_platform.h"
#include "sim/runner.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::run_in;
using ssdtlm::test::TempDir;
namespace fs = std::filesystem;

namespace {
const std::string kSmall = ssdtlm::test::kSmallDrive;

// run_platform in this process with `info` (ssdtlm-generic's command line `args` after --out DIR --quiet):
// its exit status and what it wrote on stderr.
CliRun run_here(const ssdtlm::PlatformInfo& info, const std::string& dir, const std::vector<std::string>& args) {
  std::vector<std::string> words = {"ssdtlm-generic", "--out", dir + "/out", "--quiet"};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  std::ostringstream err;
  std::streambuf* old = std::cerr.rdbuf(err.rdbuf());
  const int code = ssdtlm::run_platform(int(argv.size()), argv.data(), info);
  std::cerr.rdbuf(old);
  return {code, "", err.str()};
}

const std::vector<std::string> kSmallArgs = {"--set", "geometry.channels=2", "--set", "geometry.dies_per_channel=2",
                                             "--set", "geometry.blocks_per_plane=64", "--set", "geometry.pages_per_block=64",
                                             "--set", "buffer.bytes=1M", "--set", "precondition.drive_writes=0",
                                             "--set", "workload.io_count=100"};
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
#if defined(__SANITIZE_ADDRESS__)  // ASan reserves terabytes of shadow address space: no ulimit -v under it
  SUCCEED("not under ASan");
  return;
#endif
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

TEST_CASE("cli: a model beyond the address-space limit (ulimit -v) is refused before allocating, naming the key "
          "(issue 44)", "[cli][memory]") {
#if defined(__SANITIZE_ADDRESS__)  // ASan reserves terabytes of shadow address space: no ulimit -v under it
  SUCCEED("not under ASan");
#else
  // A 512 GiB write buffer needs about 4.5 GiB: within this machine's memory, beyond 3 GB of address space. It
  // used to pass the check (against physical memory alone) and die of std::bad_alloc once allocating.
  TempDir dir("cli_ulimit");
  const CliRun r = ssdtlm::test::shell(dir.path(), "ulimit -v 3000000 && timeout 120 " + ssdtlm::test::cli_binary() +
                                                       " --out out --quiet" + kSmall + " --set buffer.bytes=512G");
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("key 'buffer.bytes'") && Contains("ulimit -v") && Contains("write buffer"));
  CHECK_FALSE(fs::exists(dir.path() + "/out/summary.json"));
#endif
}

TEST_CASE("run: std::bad_alloc ends the run with a message saying memory ran out, not a crash (issue 44)",
          "[cli][memory]") {
  TempDir dir("bad_alloc");
  ssdtlm::PlatformInfo info = ssdtlm::generic_platform_info();
  info.make = [](const ssdtlm::Params&) -> std::unique_ptr<ssdtlm::Platform> { throw std::bad_alloc(); };
  const CliRun r = run_here(info, dir.path(), kSmallArgs);
  CHECK(r.code == 3);
  CHECK_THAT(r.err, Contains("out of memory") && Contains("ulimit -v"));
}

TEST_CASE("run: std::bad_alloc inside the simulation ends the run with a message saying memory ran out (issue 44)",
          "[cli][memory]") {
  TempDir dir("bad_alloc_sim");
  ssdtlm::PlatformInfo info = ssdtlm::generic_platform_info();
  const auto make = info.make;
  info.make = [make](const ssdtlm::Params& p) {
    std::unique_ptr<ssdtlm::Platform> platform = make(p);
    sc_core::sc_spawn([] {
      sc_core::wait(sc_core::sc_time(1, sc_core::SC_US));
      throw std::bad_alloc();
    });
    return platform;
  };
  const CliRun r = run_here(info, dir.path(), kSmallArgs);
  CHECK(r.code == 3);
  CHECK_THAT(r.err, Contains("out of memory") && Contains("ulimit -v"));
}

TEST_CASE("cli: fio numjobs=4096 expands in linear time: the run ends well within its timeout (issue 44)",
          "[cli][fio]") {
  // Each job's view of the configuration used to copy the whole configuration, every other job included:
  // numjobs=1024 took 22 s before the run, 4096 some 6 minutes. `timeout` bounds the run (exit 124).
  TempDir dir("cli_numjobs");
  dir.write("many.fio", "[j]\nrw=randwrite\nsize=1m\nnumjobs=4096\nnumber_ios=1\n");
  const CliRun r = ssdtlm::test::shell(dir.path(), "timeout 120 " + ssdtlm::test::cli_binary() +
                                                       " --out out --quiet --output-format summary-json --fio many.fio" +
                                                       kSmall);
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(r.out);
  CHECK(s["host"]["ios"] == 4096);
  // iodepth=65536 for each of 1024 jobs: 2^26 queue slots, refused for memory before anything is allocated.
  dir.write("deep.fio", "[j]\nrw=randwrite\nsize=1m\nnumjobs=1024\niodepth=65536\nnumber_ios=1\n");
  const CliRun deep = ssdtlm::test::shell(dir.path(), "timeout 120 " + ssdtlm::test::cli_binary() +
                                                          " --out out --quiet --fio deep.fio" + kSmall);
  INFO(deep.err);
  CHECK(deep.code == 2);
  CHECK_THAT(deep.err, Contains("host queues"));
}
