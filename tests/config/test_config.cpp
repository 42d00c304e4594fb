// Configuration validation: every class of bad input gets a clear error naming the key.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "config/config.h"
#include "config/params.h"
#include "workload/trace/trace_reader.h"
#include "platform/platform_run.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("unknown keys are rejected with their path", "[config]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"geometry": {"chanels": 4}})", "my.json"); }),
             Contains("my.json") && Contains("unknown key 'geometry.chanels'"));
  CHECK_THAT(test::config_error_of([&] { c.set("host.depth=3"); }), Contains("unknown key 'host.depth'"));
}

TEST_CASE("wrong types and out-of-range values name the key and the expectation", "[config]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"geometry": {"channels": "eight"}})", "f.json"); }),
             Contains("geometry.channels") && Contains("expected an integer"));
  CHECK_THAT(test::config_error_of([&] { c.set("geometry.channels=0"); }), Contains("geometry.channels") && Contains("out of range"));
  CHECK_THAT(test::config_error_of([&] { c.set("precondition.fill=maybe"); }), Contains("true or false"));
  CHECK_THAT(test::config_error_of([&] { c.set("workload.pattern=zigzag"); }), Contains("random") && Contains("sequential"));
  CHECK_THAT(test::config_error_of([&] { c.set("geometry.channels"); }), Contains("expected key.path=value"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text("{ not json", "broken.json"); }), Contains("broken.json") && Contains("JSON"));
  CHECK_THAT(test::config_error_of([&] { c.merge_file("/nonexistent/x.json"); }), Contains("cannot open"));
  CHECK(c.i("geometry.channels") == 8);  // failed assignments leave the value alone
}

TEST_CASE("jobs are validated field by field", "[config]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.set("jobs=[{\"read_fraction\": 2}]"); }), Contains("jobs[0].read_fraction") && Contains("out of range"));
  CHECK_THAT(test::config_error_of([&] { c.set("jobs=[{\"colour\": 1}]"); }), Contains("unknown key 'jobs[0].colour'"));
  CHECK_THAT(test::config_error_of([&] { c.set("jobs={}"); }), Contains("array of job objects"));
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
  CHECK_THAT(test::config_error_of([&] { read_geometry(c, 4); }),
             Contains("geometry.over_provisioning") && Contains("spare blocks"));
  Config d;
  d.set("geometry.page_bytes=6144");
  CHECK_THAT(test::config_error_of([&] { read_geometry(d, 4); }), Contains("geometry.page_bytes"));
  Config e;
  e.set("geometry.page_bytes=65536");
  e.set("geometry.planes_per_die=4");
  CHECK_THAT(test::config_error_of([&] { read_geometry(e, 4); }), Contains("planes_per_die"));
}

TEST_CASE("unknown policy names list the known ones", "[config]") {
  // The policy keys' choices are the registries' names (config_schema.cpp), checked where the key is set.
  CHECK_THAT(test::config_error_of([&] { test::generic_config({"ftl.gc_victim=oldest"}); }),
             Contains("ftl.gc_victim") && Contains("greedy") && Contains("fifo"));
  CHECK_THAT(test::config_error_of([&] { test::generic_config({"ftl.gc_pacing=eager"}); }),
             Contains("ftl.gc_pacing") && Contains("credit") && Contains("gc_first"));
}

TEST_CASE("a buffer smaller than a request is rejected", "[config]") {
  Config c = test::generic_config({"buffer.bytes=4096"});
  CHECK_THAT(test::config_error_of([&] { test::run_generic(c); }), Contains("buffer.bytes"));
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

TEST_CASE("every configuration key is documented in docs/reference/config.md", "[config][docs]") {
  std::ifstream f(std::string(SSDTLM_SOURCE_DIR) + "/docs/reference/config.md");
  REQUIRE(f.good());
  std::string readme((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  for (auto& k : config_schema()) {
    INFO("key " << k.path << " (regenerate the page with python3 scripts/config_reference.py)");
    CHECK(readme.find("`" + k.path + "`") != std::string::npos);
  }
}

TEST_CASE("sizes, times, ratios and booleans take human units in --set and in files", "[config][units]") {
  Config c;
  c.set("buffer.bytes=64M");
  CHECK(c.i("buffer.bytes") == 64ll << 20);
  c.set("buffer.bytes=1GiB");
  CHECK(c.i("buffer.bytes") == 1ll << 30);
  c.set("workload.block_bytes=4k");
  CHECK(c.i("workload.block_bytes") == 4096);
  c.set("timing.t_prog_us=0.7ms");
  CHECK(c.d("timing.t_prog_us") == Approx(700));
  c.set("timing.t_read_us=60000ns");
  CHECK(c.d("timing.t_read_us") == Approx(60));
  c.set("timing.t_read_us=45");  // a bare number stays in the key's unit
  CHECK(c.d("timing.t_read_us") == Approx(45));
  c.set("stats.interval_ms=1s");
  CHECK(c.d("stats.interval_ms") == Approx(1000));
  c.set("geometry.over_provisioning=7%");
  CHECK(c.d("geometry.over_provisioning") == Approx(0.07));
  c.set("precondition.fill=no");
  CHECK_FALSE(c.b("precondition.fill"));
  c.set("precondition.fill=1");
  CHECK(c.b("precondition.fill"));
  c.set("check.integrity=off");
  CHECK_FALSE(c.b("check.integrity"));
  c.set("workload.io_count=1e5");
  CHECK(c.i("workload.io_count") == 100000);
  c.set("workload.trace_devno=-1");
  CHECK(c.i("workload.trace_devno") == -1);
  c.merge_text(R"({"buffer": {"bytes": "256MiB"}, "timing": {"t_erase_us": "3.5ms"}, "check": {"integrity": "yes"},
                   "jobs": [{"name": "j", "block_bytes": "64k", "read_fraction": "30%"}]})", "units.json");
  CHECK(c.i("buffer.bytes") == 256ll << 20);
  CHECK(c.d("timing.t_erase_us") == Approx(3500));
  CHECK(c.b("check.integrity"));
  CHECK(c.job_config(0).i("workload.block_bytes") == 65536);
  CHECK(c.job_config(0).d("workload.read_fraction") == Approx(0.3));
  // The effective configuration holds plain numbers, so it runs again unchanged.
  CHECK(c.json()["buffer"]["bytes"].is_number_integer());
  CHECK(c.json()["jobs"][0]["block_bytes"] == 65536);
}

TEST_CASE("unit errors name the key, print limits in units and say why", "[config][units]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.set("buffer.bytes=2TiB"); }),
             Contains("buffer.bytes") && Contains("[0, 1 TiB]") && Contains("out of range"));
  CHECK_THAT(test::config_error_of([&] { c.set("buffer.bytes=64Q"); }), Contains("buffer.bytes") && Contains("unknown unit 'Q'"));
  CHECK_THAT(test::config_error_of([&] { c.set("buffer.bytes=-4k"); }), Contains("negative"));
  CHECK_THAT(test::config_error_of([&] { c.set("workload.block_bytes=100M"); }), Contains("[512 B, 64 MiB]"));
  CHECK_THAT(test::config_error_of([&] { c.set("timing.t_read_us=1s"); }), Contains("timing.t_read_us") && Contains("[10 ns, 100 ms]"));
  CHECK_THAT(test::config_error_of([&] { c.set("timing.t_read_us=fast"); }), Contains("a time") && Contains("ns, us, ms, s"));
  CHECK_THAT(test::config_error_of([&] { c.set("geometry.over_provisioning=lots"); }), Contains("percentage"));
  CHECK_THAT(test::config_error_of([&] { c.set("workload.io_count=12abc"); }), Contains("workload.io_count") && Contains("integer"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"buffer": {"bytes": "huge"}})", "u.json"); }),
             Contains("u.json") && Contains("buffer.bytes"));
  CHECK_THAT(test::config_error_of([&] { c.set("workload.io_count=1099511627777"); }), Contains("1099511627776"));
  CHECK(c.i("buffer.bytes") == 64ll << 20);
}

TEST_CASE("the trace formats the readers support are the key's choices", "[config][trace]") {
  const KeySpec* k = find_key("workload.trace_format");
  REQUIRE(k);
  std::vector<std::string> formats = trace_formats();
  formats.push_back("capture");  // ssdtlm-capture files: CaptureReader, replayed through the file system
  CHECK(k->choices == formats);
  Config c;
  c.set("workload.trace_format=mqsim");
  CHECK(c.s("workload.trace_format") == "mqsim");
}

TEST_CASE("rates take their units: MB/s, MT/s and IOPS keys", "[config][units]") {
  Config c;
  c.set("nvme.link_mbps=7.88GB/s");
  CHECK(c.d("nvme.link_mbps") == Approx(7880));
  c.set("timing.channel_mts=1.2GT/s");
  CHECK(c.d("timing.channel_mts") == Approx(1200));
  c.set("workload.rate_iops=20k");
  CHECK(c.d("workload.rate_iops") == Approx(20000));
  c.set("workload.rate_mbps=100MiB/s");
  CHECK(c.d("workload.rate_mbps") == Approx(104.8576));
  CHECK_THAT(test::config_error_of([&] { c.set("nvme.link_mbps=fast"); }), Contains("nvme.link_mbps") && Contains("3.9GB/s"));
  CHECK_THAT(test::config_error_of([&] { c.set("timing.channel_mts=500GT/s"); }), Contains("out of range"));
}

TEST_CASE("a number that overflows a double names its key in files and in --set", "[config]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"timing": {"t_read_us": 1e400}})", "big.json"); }),
             Contains("big.json") && Contains("key 'timing.t_read_us'") && Contains("1e400"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"jobs": [{"name": "a"}, {"read_fraction": -1e400}]})", "jobs.json"); }),
             Contains("key 'jobs[1].read_fraction'"));
  CHECK_THAT(test::config_error_of([&] { c.set("timing.t_read_us=1e400"); }), Contains("key 'timing.t_read_us'") && Contains("1e400"));
  CHECK_THAT(test::config_error_of([&] { c.set("geometry.channels=1e400"); }), Contains("key 'geometry.channels'"));
  CHECK_THAT(test::config_error_of([&] { c.set(R"(jobs=[{"read_fraction": 1e400}])"); }), Contains("--set: key 'jobs[0].read_fraction'"));
}

TEST_CASE("string keys must be UTF-8: config.json and summary.json hold them", "[config]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.set("workload.trace_path=/tmp/\xff\xfe.trace"); }),
             Contains("key 'workload.trace_path'") && Contains("UTF-8") && Contains("\\xff\\xfe"));
  CHECK_THAT(test::config_error_of([&] { c.set("workload.trace_path=/tmp/\xed\xa0\x80"); }), Contains("UTF-8"));  // a surrogate
  c.set("workload.trace_path=/tmp/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80.trace");  // é € and an emoji are fine
  CHECK(c.s("workload.trace_path") == "/tmp/caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80.trace");
}

TEST_CASE("a tri-state auto/true/false key takes JSON booleans and nothing else", "[config]") {
  Config c;
  c.merge_text(R"({"streams": {"internal": true}})", "a.json");
  CHECK(c.s("streams.internal") == "true");
  c.merge_text(R"({"streams": {"internal": false}})", "a.json");
  CHECK(c.s("streams.internal") == "false");
  c.set("streams.internal=auto");
  CHECK(c.s("streams.internal") == "auto");
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"streams": {"internal": 1}})", "b.json"); }),
             Contains("b.json") && Contains("streams.internal"));
  // An ordinary string key still refuses a boolean.
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"streams": {"assign": true}})", "c.json"); }), Contains("streams.assign"));
}
