// Runs a platform executable as a process, for a second simulation in one test case (SystemC elaborates one
// per process) or a run through the command line: exit status 0 is required; returns its summary.json.
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>

namespace ssdtlm::test {

// `out` names the output directory (and OUT.err, the run's stderr); `args` are further command-line options.
inline nlohmann::json run_cli(const std::string& out, const std::string& args, const std::string& platform = "generic") {
  const std::string cmd = std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-" + platform + " --quiet --out " + out + " " +
                          args + " 2>" + out + ".err";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream f(out + "/summary.json");
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

}  // namespace ssdtlm::test
