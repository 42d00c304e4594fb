// Configuration validation: every class of bad input gets a clear error naming the key.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "common/config.h"
#include "platform/platform_run.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("unknown keys are rejected with their path", "[config]") {
  Config c;
  CHECK_THAT(error_of([&] { c.merge_text(R"({"geometry": {"chanels": 4}})", "my.json"); }),
             Contains("my.json") && Contains("unknown key 'geometry.chanels'"));
  CHECK_THAT(error_of([&] { c.set("host.depth=3"); }), Contains("unknown key 'host.depth'"));
}

TEST_CASE("wrong types and out-of-range values name the key and the expectation", "[config]") {
  Config c;
  CHECK_THAT(error_of([&] { c.merge_text(R"({"geometry": {"channels": "eight"}})", "f.json"); }),
             Contains("geometry.channels") && Contains("expected an integer"));
  CHECK_THAT(error_of([&] { c.set("geometry.channels=0"); }), Contains("geometry.channels") && Contains("out of range"));
  CHECK_THAT(error_of([&] { c.set("precondition.fill=maybe"); }), Contains("true or false"));
  CHECK_THAT(error_of([&] { c.set("workload.pattern=zigzag"); }), Contains("random") && Contains("sequential"));
  CHECK_THAT(error_of([&] { c.set("geometry.channels"); }), Contains("expected key.path=value"));
  CHECK_THAT(error_of([&] { c.merge_text("{ not json", "broken.json"); }), Contains("broken.json") && Contains("JSON"));
  CHECK_THAT(error_of([&] { c.merge_file("/nonexistent/x.json"); }), Contains("cannot open"));
  CHECK(c.i("geometry.channels") == 8);  // failed assignments leave the value alone
}

TEST_CASE("jobs are validated field by field", "[config]") {
  Config c;
  CHECK_THAT(error_of([&] { c.set("jobs=[{\"read_fraction\": 2}]"); }), Contains("jobs[0].read_fraction") && Contains("out of range"));
  CHECK_THAT(error_of([&] { c.set("jobs=[{\"colour\": 1}]"); }), Contains("unknown key 'jobs[0].colour'"));
  CHECK_THAT(error_of([&] { c.set("jobs={}"); }), Contains("array of job objects"));
  c.set("jobs=[{\"name\": \"r\", \"queues\": 3, \"distribution\": \"zipf:1.2\"}]");
  CHECK(c.job_count() == 1);
  CHECK(c.job_name(0) == "r");
  CHECK(c.job_config(0).i("host.queues") == 3);
  CHECK(c.job_config(0).s("workload.distribution") == "zipf:1.2");
  CHECK(c.job_config(0).i("host.queue_depth") == c.i("host.queue_depth"));
}

TEST_CASE("impossible geometry is rejected", "[config]") {
  Config c;
  c.set("geometry.over_provisioning=0.001");
  CHECK_THAT(error_of([&] { Geometry::from_config(c, 4); }),
             Contains("geometry.over_provisioning") && Contains("spare blocks"));
  Config d;
  d.set("geometry.page_bytes=6144");
  CHECK_THAT(error_of([&] { Geometry::from_config(d, 4); }), Contains("geometry.page_bytes"));
  Config e;
  e.set("geometry.page_bytes=65536");
  e.set("geometry.planes_per_die=4");
  CHECK_THAT(error_of([&] { Geometry::from_config(e, 4); }), Contains("planes_per_die"));
}

TEST_CASE("unknown policy names list the known ones", "[config]") {
  Config c = test::generic_config({"ftl.gc_victim=oldest"});
  CHECK_THAT(error_of([&] { test::run_generic(c); }), Contains("ftl.gc_victim") && Contains("greedy"));
}

TEST_CASE("a buffer smaller than a request is rejected", "[config]") {
  Config c = test::generic_config({"buffer.bytes=4096"});
  CHECK_THAT(error_of([&] { test::run_generic(c); }), Contains("buffer.bytes"));
}

TEST_CASE("the command line exits 2 on bad input and leaves earlier outputs intact", "[config][cli]") {
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-generic";
  const std::string dir = "cli_test_out";
  std::system(("mkdir -p " + dir + " && echo keep > " + dir + "/summary.json").c_str());
  auto run = [&](const std::string& args) {
    std::string cmd = bin + " --quiet --out " + dir + " " + args + " 2>" + dir + "/stderr.txt";
    int status = std::system(cmd.c_str());
    std::ifstream f(dir + "/stderr.txt");
    std::string err((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    return std::make_pair(WEXITSTATUS(status), err);
  };
  auto [code1, err1] = run("--set geometry.channels=abc");
  CHECK(code1 == 2);
  CHECK_THAT(err1, Contains("geometry.channels"));
  auto [code2, err2] = run("--bogus");
  CHECK(code2 == 2);
  CHECK_THAT(err2, Contains("unknown option"));
  auto [code3, err3] = run("--config /nonexistent.json");
  CHECK(code3 == 2);
  std::system(("printf '0 0 8 8 0\\n10 0 oops 8 1\\n' > " + dir + "/bad.trace").c_str());
  auto [code4, err4] = run("--set workload.pattern=trace --set workload.trace_path=" + dir +
                           "/bad.trace --set workload.trace_format=disksim_ns --set precondition.drive_writes=0");
  CHECK(code4 == 2);
  CHECK_THAT(err4, Contains("bad.trace:2"));
  std::ifstream kept(dir + "/summary.json");
  std::string text((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>());
  CHECK(text == "keep\n");
}

TEST_CASE("every configuration key is documented in the README", "[config][docs]") {
  std::ifstream f(std::string(SSDTLM_SOURCE_DIR) + "/README.md");
  REQUIRE(f.good());
  std::string readme((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (auto& k : config_schema()) {
    INFO("key " << k.path << " (regenerate the table with ssdtlm-generic --help-config)");
    CHECK(readme.find("`" + k.path + "`") != std::string::npos);
  }
}
