// Hostile fio job files (issue 30): nesting without bound, inputs that are not regular files, and nonsense
// fio accepts or ssdtlm used to accept without a word. Each is refused naming file:line and what was expected.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "common/temp_dir.h"
#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
constexpr uint64_t kDevice = 16ull << 30;
std::string error_of(const std::string& text, const std::string& path = "job.fio") {
  return test::config_error_of([&] { parse_fio_job_text(text, path, kDevice); });
}
}  // namespace

TEST_CASE("fio input: expressions nest at most 256 deep, never a crash", "[fio][input]") {
  const std::string deep = "[j]\nrw=randwrite\nbs=(" + std::string(30000, '(') + "4k" + std::string(30000, ')') + ")\n";
  const std::string e = error_of(deep);
  CHECK_THAT(e, Contains("job.fio:3") && Contains("nested deeper than 256 levels"));
  CHECK(e.size() < 1000);  // the 60,000-character value is cut in the message
  CHECK_THAT(error_of("[j]\nsize=(" + std::string(30000, '-') + "1)\n"), Contains("256 levels"));
  CHECK_THAT(error_of("[j]\nsize=(2" + [] { std::string s; for (int i = 0; i < 30000; ++i) s += "^2"; return s; }() + ")\n"),
             Contains("256 levels"));
  // Within the limit, an expression still reads.
  const std::string ok = "[j]\nrw=randwrite\nbs=(" + std::string(100, '(') + "4k" + std::string(100, ')') + ")\n";
  CHECK(parse_fio_job_text(ok, "job.fio", kDevice).jobs.at(0).config["block_bytes"] == 4096);
}

TEST_CASE("fio input: only regular files are read, the job file and its includes", "[fio][input]") {
  try {
    read_fio_job_file("/dev/zero", kDevice);
    FAIL("read /dev/zero");
  } catch (const ConfigError& e) {
    CHECK_THAT(std::string(e.what()), Contains("--fio '/dev/zero': expected a regular file"));
  }
  test::TempDir dir("fio_input");
  const std::string folder = std::filesystem::path(dir.write("probe", "")).parent_path().string();
  CHECK_THAT(error_of("[j]\ninclude " + folder + "\n"), Contains("job.fio:2") && Contains("expected a regular file"));
  CHECK_THAT(error_of("[j]\ninclude /dev/zero\n"), Contains("job.fio:2") && Contains("expected a regular file"));
  const std::string big = dir.write("big.fio", "[j]\n" + std::string(17u << 20, ';') + "\n");
  try {
    read_fio_job_file(big, kDevice);
    FAIL("read a 17 MiB job file");
  } catch (const ConfigError& e) {
    CHECK_THAT(std::string(e.what()), Contains("big.fio") && Contains("larger than 16 MiB"));
  }
}

TEST_CASE("fio input: nonsense values are refused naming file:line", "[fio][input]") {
  CHECK_THAT(error_of("[j]\nrw=randwrite\nblockalign=3\n"), Contains("job.fio:3") && Contains("multiple of 512"));
  CHECK_THAT(error_of("[j]\nbsrange=64k-4k\n"), Contains("job.fio:2") && Contains("smaller block size first"));
  CHECK_THAT(error_of("[j]\nbs=4k,,,\n"), Contains("job.fio:2") && Contains("at most three"));
  CHECK_THAT(error_of("[j]\nbs=,,\n"), Contains("job.fio:2") && Contains("expected a value"));
  CHECK_THAT(error_of("[ ]\nrw=read\n"), Contains("job.fio:1") && Contains("section name"));
  CHECK_THAT(error_of("[\t]\nrw=read\n"), Contains("job.fio:1") && Contains("section name"));
  // Still read: a list of one to three values, fio's hexadecimal sizes.
  CHECK(parse_fio_job_text("[j]\nbs=4k,8k,\n", "job.fio", kDevice).jobs.size() == 1);
  CHECK(parse_fio_job_text("[j]\nbs=0x1000\n", "job.fio", kDevice).jobs.at(0).config["block_bytes"] == 4096);
}

TEST_CASE("fio input: control characters in a quoted line are escaped", "[fio][input]") {
  const std::string e = error_of(std::string("[j]\nbogus\x01key=1\n"));
  CHECK_THAT(e, Contains("job.fio:2") && Contains("\\x01"));
}
