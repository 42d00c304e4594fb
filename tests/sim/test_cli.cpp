// The command line as a user meets it: --fio, --output-format, --version, --quiet, trace fitting, and the
// promise that a fio job file and the equivalent --set run give the same summary.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using ssdtlm::test::CliRun;
using ssdtlm::test::run_in;
using ssdtlm::test::slurp;
using ssdtlm::test::source_path;
namespace fs = std::filesystem;

namespace {

// Runs ssdtlm-generic with `args` in a private directory (cleared first); the output directory is dir/out.
CliRun run(const std::string& dir, const std::string& args) {
  fs::remove_all(dir);
  return run_in(dir, "--out out " + args);
}

const std::string kSmall = ssdtlm::test::kSmallDrive;

// summary.json without the fields that measure the host machine rather than the model.
nlohmann::json model_summary(const std::string& path) {
  nlohmann::json s = nlohmann::json::parse(slurp(path));
  s.erase("wall_time_s");
  s["precondition"].erase("wall_time_s");
  s.erase("memory");
  return s;
}

}  // namespace

TEST_CASE("cli: --fio runs a job file, and an unknown option exits 2 naming file, line and option", "[cli][fio]") {
  const std::string dir = "cli_fio";
  fs::create_directories(dir);
  std::ofstream(dir + "/../bad.fio") << "[global]\nrw=randwrite\n[j]\ncolour=blue\n";
  const CliRun bad = run(dir, "--fio ../bad.fio");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("bad.fio:4") && Contains("unknown fio option 'colour'"));
  CHECK_FALSE(fs::exists(dir + "/out/summary.json"));

  std::ofstream(dir + "/../good.fio") << "[global]\nioengine=libaio\ndirect=1\nrw=randrw\nrwmixread=70\nbs=4k\n"
                                         "size=64m\n[a]\nnumber_ios=3000\niodepth=4\n[b]\nstonewall\nnumber_ios=2000\n";
  const CliRun good = run(dir, "--fio ../good.fio" + kSmall);
  REQUIRE(good.code == 0);
  CHECK_THAT(good.err, Contains("ignored (no effect on the modelled device): ioengine\n"));  // direct=1: no page cache
  CHECK_THAT(good.out, Contains("I/Os        5000"));
  const auto cfg = nlohmann::json::parse(slurp(dir + "/out/config.json"));
  REQUIRE(cfg["jobs"].size() == 2);
  CHECK(cfg["jobs"][0]["queue_depth"] == 4);
  CHECK(cfg["jobs"][1]["stonewall"] == true);
  const auto fio = nlohmann::json::parse(slurp(dir + "/out/fio.json"));
  CHECK(fio["jobs"].size() == 2);
  CHECK(fio["jobs"][0]["job options"]["iodepth"] == "4");
  CHECK(fio["global options"]["rw"] == "randrw");

  // A --set after the job file wins in every job.
  const CliRun over = run(dir, "--fio ../good.fio" + kSmall + " --set host.queue_depth=2 --set workload.io_count=100 --quiet");
  REQUIRE(over.code == 0);
  const auto cfg2 = nlohmann::json::parse(slurp(dir + "/out/config.json"));
  CHECK(cfg2["jobs"][0]["queue_depth"] == 2);
  CHECK(cfg2["jobs"][1]["io_count"] == 100);
  CHECK(over.out.empty());
  CHECK(over.err.find("ignored") == std::string::npos);  // --quiet
}

TEST_CASE("cli: seed 004's zipf:1.2 job file and the equivalent --set run give the same summary", "[cli][fio]") {
  const std::string common = " --config " + source_path("examples/fio/seed004_femu.json") + " --quiet";
  const CliRun fio = run("cli_eq_fio", "--fio " + source_path("examples/fio/seed004_zipf12.fio") + common +
                                        " --set workload.runtime_ms=30ms");
  REQUIRE(fio.code == 0);
  const CliRun set = run("cli_eq_set", common.substr(1) +
                                        " --set workload.pattern=random --set workload.distribution=zipf:1.2"
                                        " --set workload.block_bytes=4k --set workload.read_fraction=0"
                                        " --set workload.io_count=0 --set workload.runtime_ms=30ms"
                                        " --set host.queues=1 --set host.queue_depth=32"
                                        " --set host.engine=libaio");  // the job file's ioengine=libaio
  REQUIRE(set.code == 0);
  const auto a = model_summary("cli_eq_fio/out/summary.json"), b = model_summary("cli_eq_set/out/summary.json");
  CHECK(a["host"]["ios"].get<uint64_t>() > 1000);
  CHECK(a == b);
}

TEST_CASE("cli: --output-format json, summary-json and fio-json print JSON on stdout, text the summary", "[cli]") {
  const CliRun json = run("cli_json", "--output-format json --set workload.io_count=2000" + kSmall);
  REQUIRE(json.code == 0);
  const auto printed = nlohmann::json::parse(json.out);  // nothing else on stdout
  CHECK(printed == nlohmann::json::parse(slurp("cli_json/out/summary.json")));
  CHECK_FALSE(fs::exists("cli_json/out/fio.json"));

  const CliRun fio = run("cli_fiojson", "--output-format=fio-json --quiet --set workload.io_count=2000" + kSmall);
  REQUIRE(fio.code == 0);
  const auto f = nlohmann::json::parse(fio.out);
  CHECK(f["jobs"][0]["write"]["total_ios"] == 2000);
  CHECK(f["jobs"][0]["jobname"] == "ssdtlm");
  CHECK_THAT(f["drive state"].get<std::string>(), StartsWith("filled sequentially before the timed run"));  // kSmall: fill only
  CHECK(nlohmann::json::parse(slurp("cli_fiojson/out/fio.json")) == f);

  // From a fio job file, json is fio's layout (as fio prints it); summary-json is ours in any case.
  fs::remove_all("cli_json_fio");
  fs::create_directories("cli_json_fio");
  std::ofstream("cli_json_fio/j.fio") << "[j]\nrw=write\nsize=1m\n";
  const CliRun fj = run_in("cli_json_fio", "--out out --fio j.fio --output-format json --quiet" + kSmall);
  REQUIRE(fj.code == 0);
  CHECK(nlohmann::json::parse(fj.out)["jobs"][0]["jobname"] == "j");
  const CliRun sj = run_in("cli_json_fio", "--out out --fio j.fio --output-format summary-json --quiet" + kSmall);
  CHECK(nlohmann::json::parse(sj.out).contains("waf"));

  const CliRun text = run("cli_text", "--set workload.io_count=2000" + kSmall);
  CHECK_THAT(text.out, Contains("write lat   min") && Contains("p95") && Contains("outputs in out/"));
  CHECK_THAT(text.out, Contains("drive       filled sequentially before the timed run"));

  const CliRun bad = run("cli_badfmt", "--output-format xml");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("--output-format") && Contains("fio-json"));
}

TEST_CASE("cli: --quiet at queue depth 1 prints nothing on stdout (no SystemC warning)", "[cli]") {
  const CliRun q = run("cli_quiet", "--quiet --set host.queues=1 --set host.queue_depth=1 --set workload.io_count=500" + kSmall);
  REQUIRE(q.code == 0);
  CHECK(q.out.empty());
  CHECK(q.err.find("Warning") == std::string::npos);
  const CliRun loud = run("cli_loud", "--set host.queues=1 --set host.queue_depth=1 --set workload.io_count=500" + kSmall);
  CHECK(loud.out.find("Warning") == std::string::npos);  // reports never go to stdout
}

TEST_CASE("cli: --version prints the version and the git revision", "[cli]") {
  const CliRun v = run("cli_version", "--version");
  CHECK(v.code == 0);
  CHECK_THAT(v.out, Contains("ssdtlm-generic 0.") && Contains("git") && Contains("SystemC 2."));
}

TEST_CASE("cli: a trace beyond the device stops with the choices, unless trace_fit says how", "[cli][trace]") {
  const std::string trace = " --set workload.pattern=trace --set workload.trace_path=" + source_path("tests/data/tpcc-small.trace") +
                            " --set workload.trace_format=mqsim --set precondition.drive_writes=0 --quiet";
  const CliRun refused = run("cli_fit", trace.substr(1));
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Contains("workload.trace_fit") && Contains("6864 of 6999 requests (98.1%)") &&
                              Contains("wrap") && Contains("scale") && Contains("shift") && Contains("216.7 GiB"));
  const CliRun strict = run("cli_fit_error", trace.substr(1) + " --set workload.trace_fit=error");
  CHECK(strict.code == 2);
  CHECK_THAT(strict.err, Contains("tpcc-small.trace:1") && Contains("first request beyond"));
  for (const char* mode : {"wrap", "scale", "shift"}) {
    INFO(mode);
    // shift: device 8's requests all sit near 216.7 GiB; shifted down, they fit
    const CliRun ok = run(std::string("cli_fit_") + mode, trace.substr(1) + " --set workload.trace_fit=" + mode +
                                                           (std::string(mode) == "shift" ? " --set workload.trace_devno=8" : ""));
    REQUIRE(ok.code == 0);
    const auto s = nlohmann::json::parse(slurp(std::string("cli_fit_") + mode + "/out/summary.json"));
    CHECK(s["host"]["trace"]["fit"] == mode);
    CHECK(s["host"]["trace"]["refitted_requests"].get<uint64_t>() > 0);
  }
  const auto wrap = nlohmann::json::parse(slurp("cli_fit_wrap/out/summary.json"));
  CHECK(wrap["host"]["folded_requests"] == 6864);
  CHECK(wrap["host"]["trace"]["refitted_requests"] == 6864);
  const CliRun text = run("cli_fit_text", trace.substr(1, trace.size() - 9) + " --set workload.trace_fit=scale");
  CHECK_THAT(text.out, Contains("trace fit   scale: ") && Contains("of 6999 trace requests"));
}
