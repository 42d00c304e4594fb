// Hostile configuration input (issue 30): nesting without bound, duplicate keys, unknown empty objects,
// hexadecimal and underflowing numbers, files that are not regular files, control characters in messages.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "common/temp_dir.h"
#include "config/config.h"
#include "config/json_input.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
std::string repeat(const std::string& s, size_t n) {
  std::string out;
  for (size_t i = 0; i < n; ++i) out += s;
  return out;
}
}  // namespace

TEST_CASE("config input: nesting is bounded at 64 levels, named by key, never a crash", "[config][input]") {
  Config c;
  // 50,000 nested objects used to overflow the stack in flatten; 100,000 nested arrays in the serializer.
  const std::string objects = repeat("{\"a\":", 50000) + "1" + repeat("}", 50000);
  CHECK_THAT(test::config_error_of([&] { c.merge_text(objects, "deep.json"); }),
             Contains("deep.json: key 'a.a.a") && Contains("nested deeper than 64 levels"));
  const std::string arrays = "{\"host\":{\"queues\":" + repeat("[", 100000) + repeat("]", 100000) + "}}";
  CHECK_THAT(test::config_error_of([&] { c.merge_text(arrays, "arr.json"); }),
             Contains("arr.json: key 'host.queues[0][0]") && Contains("nested deeper than 64 levels"));
  CHECK_THAT(test::config_error_of([&] { c.set("jobs=" + repeat("[", 100000)); }), Contains("--set: key 'jobs[0][0]") && Contains("64 levels"));
  // At the limit, the document is read (and refused only for what it says).
  const std::string at_limit = repeat("{\"a\":", 63) + "1" + repeat("}", 63);
  CHECK_THAT(test::config_error_of([&] { c.merge_text(at_limit, "ok.json"); }), Contains("unknown key 'a'"));
  // merge() of a document built in code walks only into sections: never deeper than the schema's keys.
  nlohmann::json deep = 1;
  for (int i = 0; i < 20000; ++i) {
    nlohmann::json o = nlohmann::json::object();
    o["host"] = std::move(deep);
    deep = std::move(o);
  }
  CHECK_THAT(test::config_error_of([&] { c.merge(deep, "built"); }), Contains("built: unknown key 'host.host'"));
}

TEST_CASE("config input: a key given twice, or flat and nested with different values, is refused", "[config][input]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"host":{"queues":2},"host":{"queue_depth":4}})", "dup.json"); }),
             Contains("dup.json: key 'host': given twice"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"host":{"queues":2,"queues":2}})", "dup.json"); }),
             Contains("key 'host.queues': given twice"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"host.queues":2,"host":{"queues":4}})", "flat.json"); }),
             Contains("flat.json: key 'host.queues' given twice") && Contains("different values"));
  c.merge_text(R"({"host.queues":3,"host":{"queues":3}})", "same.json");  // the same value: no conflict
  CHECK(c.i("host.queues") == 3);
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"hostx":{}})", "x.json"); }), Contains("x.json: unknown key 'hostx'"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"host":{"x":{}}})", "x.json"); }), Contains("unknown key 'host.x'"));
  c.merge_text(R"({"host":{}})", "empty_section.json");  // an empty section of known keys is harmless
}

TEST_CASE("config input: hexadecimal is refused, a nonzero number that underflows to 0 as 1e400 is", "[config][input]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"host":{"queues":"0x10"}})", "hex.json"); }),
             Contains("hex.json: key 'host.queues'") && Contains("hexadecimal"));
  CHECK_THAT(test::config_error_of([&] { c.set("buffer.bytes=0x100000"); }), Contains("buffer.bytes") && Contains("hexadecimal"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"timing":{"t_read_us":1e-400}})", "u.json"); }),
             Contains("u.json: key 'timing.t_read_us'") && Contains("reads as 0"));
  CHECK_THAT(test::config_error_of([&] { c.merge_text(R"({"jobs":[{"read_fraction":1e-999}]})", "u.json"); }),
             Contains("key 'jobs[0].read_fraction'") && Contains("reads as 0"));
  CHECK_THAT(test::config_error_of([&] { c.set("timing.cmd_ns=1e-400"); }), Contains("timing.cmd_ns"));
  c.merge_text(R"({"timing":{"cmd_ns":0e-400}, "workload":{"read_fraction": 1e-300}})", "fine.json");  // zero, and a tiny nonzero
  CHECK(c.d("timing.cmd_ns") == 0.0);
  c.set("timing.cmd_ns=0.0e-999");
  CHECK(number_underflows("1e-400"));
  CHECK(number_underflows("-0.0001e-320"));
  CHECK_FALSE(number_underflows("0e-400"));
  CHECK_FALSE(number_underflows("1e-300"));
  CHECK_FALSE(number_underflows("2e10"));
}

TEST_CASE("config input: only regular files, at most 16 MiB, are read as --config", "[config][input]") {
  Config c;
  CHECK_THAT(test::config_error_of([&] { c.merge_file("/dev/zero"); }),
             Contains("--config '/dev/zero': expected a regular file, got a character device"));
  test::TempDir dir("config_input");
  const std::string folder = std::filesystem::path(dir.write("probe", "")).parent_path().string();
  CHECK_THAT(test::config_error_of([&] { c.merge_file(folder); }), Contains("expected a regular file, got a directory"));
  const std::string big = dir.write("big.json", "{\"host\":{\"queues\":2}" + std::string(17u << 20, ' ') + "}");
  CHECK_THAT(test::config_error_of([&] { c.merge_file(big); }), Contains("big.json") && Contains("larger than 16 MiB"));
}

TEST_CASE("config input: control characters in quoted input are escaped, the message stays whole", "[config][input]") {
  Config c;
  const std::string nul = test::config_error_of([&] { c.merge_text("{\"ho\\u0000st\":1}", "n.json"); });
  CHECK_THAT(nul, Contains("unknown key 'ho\\0st'"));
  CHECK(std::string(nul.c_str()) == nul);  // no NUL cuts what() short
  const std::string nl = test::config_error_of([&] { c.set(std::string("ho\nst=1")); });
  CHECK_THAT(nl, Contains("unknown key 'ho\\nst'"));
  CHECK(nl.find('\n') == std::string::npos);
  CHECK_THAT(test::config_error_of([&] { c.set("host.queues=1\x01"); }), Contains("\\u0001"));  // as JSON escapes it
}
