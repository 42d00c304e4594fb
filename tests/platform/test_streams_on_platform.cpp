// Stream separation through the platform: configuration checks, integrity under every assignment policy and
// GC stream mode, placement by stream, and the hot/cold WAF of ../shared/VALIDATION.md.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>

#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
using Catch::Matchers::Contains;

namespace {

std::string error_of(const Config& c) {
  try {
    run_generic(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("stream settings the model cannot honour are refused, naming the key", "[platform][streams][config]") {
  CHECK_THAT(error_of(generic_config({"streams.assign=hotcold"})), Contains("streams.count"));
  CHECK_THAT(error_of(generic_config({"streams.count=2", "buffer.policy=hexa"})), Contains("buffer.policy"));
  CHECK_THAT(error_of(generic_config({"ftl.gc_unit=superblock"})), Contains("ftl.gc_unit"));
  CHECK_THAT(error_of(generic_config({"workload.stream_hint=zone"})), Contains("workload.stream_hint"));
  // The command line exits 2 with the message.
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-generic";
  const int status = std::system((bin + " --quiet --out streams_cli_out --set streams.assign=manual 2>streams_cli.txt").c_str());
  CHECK(WEXITSTATUS(status) == 2);
  std::ifstream f("streams_cli.txt");
  std::string err((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK_THAT(err, Contains("streams.count"));
}
