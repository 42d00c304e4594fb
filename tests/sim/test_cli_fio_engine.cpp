// A job file's ioengine sets the host's cost per I/O (host.engine) unless the configuration sets it, run as a user
// runs it: the QD1 latency grows by the cited per-I/O cost, an explicit key wins, conflicting engines exit 2.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::run_in;
using ssdtlm::test::slurp;

namespace {
const std::string kQd1 = "[r]\nrw=randread\nsize=4m\nio_size=2m\nbs=4k\niodepth=1\n";

double read_mean_us(const std::string& dir, const std::string& job, const std::string& extra = "") {
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/" + job + ".fio") << kQd1 << extra;
  const auto r = run_in(dir, "--out " + job + " --fio " + job + ".fio" + ssdtlm::test::kSmallDrive +
                                 " --set precondition.fill=true");
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto s = nlohmann::json::parse(slurp(dir + "/" + job + "/summary.json"));
  return s["host"]["latency_us"]["read"]["mean"].get<double>();
}
}  // namespace

TEST_CASE("cli fio engine: ioengine=libaio costs the cited 1,645 ns per QD1 read, posixaio (no cited cost) none",
          "[cli][fio][host]") {
  const double none = read_mean_us("eng", "posixaio", "ioengine=posixaio\n");
  const double libaio = read_mean_us("eng", "libaio", "ioengine=libaio\n");
  const double poll = read_mean_us("eng", "poll", "ioengine=io_uring\nhipri\n");
  CHECK(libaio - none == Approx(1e6 / 608e3).epsilon(0.02));  // 1.645 us: submit + complete, one I/O at a time
  CHECK(poll - none == Approx(1e6 / 1620e3).epsilon(0.02));   // 0.617 us
  const auto r = run_in("eng", "--out noted --fio libaio.fio" + ssdtlm::test::kSmallDrive);
  CHECK_THAT(r.err, Contains("note: host.engine=libaio from ioengine=libaio"));
}

TEST_CASE("cli fio engine: host.engine or host.submit_ns set by the configuration wins, with a note",
          "[cli][fio][host]") {
  const double with_libaio = read_mean_us("win", "a", "ioengine=libaio\n");  // writes win/a.fio
  const auto r = run_in("win", "--out b --fio a.fio --set host.engine=none" + ssdtlm::test::kSmallDrive +
                                   " --set precondition.fill=true");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.err, Contains("host.engine=none with host.submit_ns and host.complete_ns set by the configuration"));
  const double drive_only = nlohmann::json::parse(slurp("win/b/summary.json"))["host"]["latency_us"]["read"]["mean"];
  CHECK(with_libaio - drive_only == Approx(1.645).epsilon(0.02));
  std::ofstream("win/cost.json") << R"({"host": {"submit_ns": 100}})";
  const auto c = run_in("win", "--quiet --out c --config cost.json --fio a.fio" + ssdtlm::test::kSmallDrive);
  CHECK(c.code == 0);  // host.submit_ns from a file: the job file's engine does not add host.engine beside it
  const auto s = run_in("win", "--out d --fio a.fio --set host.engine=spdk" + ssdtlm::test::kSmallDrive);
  CHECK(s.code == 0);
  CHECK_THAT(s.err, Contains("host.engine=spdk set by the configuration applies to every job"));
}

TEST_CASE("cli fio engine: jobs whose engines cost differently exit 2 naming the line, unless host.engine is set",
          "[cli][fio][host]") {
  std::ofstream("mix.fio") << "[a]\nrw=read\nsize=1m\nioengine=libaio\n[b]\nrw=read\nsize=1m\nioengine=spdk\n";
  const auto r = run_in(".", "--out mix --fio mix.fio" + ssdtlm::test::kSmallDrive);
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("mix.fio:8:") && Contains("one host cost per run"));
  const auto ok = run_in(".", "--quiet --out mix2 --fio mix.fio --set host.engine=libaio" + ssdtlm::test::kSmallDrive);
  CHECK(ok.code == 0);
}
