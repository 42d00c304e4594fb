// Runs the simulator (or a script) as a process, the way a user does from a shell: for a run through the
// command line, or a second simulation in one test case (SystemC elaborates one per process).
#pragma once
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace ssdtlm::test {

// What a finished process left: its exit status and what it wrote to stdout and stderr.
struct CliRun {
  int code;
  std::string out, err;
};

// The whole file, byte for byte ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The rows of a CSV whose cells are all numbers (timeseries.csv), each by column name.
inline std::vector<std::map<std::string, double>> read_csv_rows(const std::string& text) {
  std::istringstream in(text);
  std::string line, cell;
  std::getline(in, line);
  std::vector<std::string> names;
  for (std::istringstream h(line); std::getline(h, cell, ',');) names.push_back(cell);
  std::vector<std::map<std::string, double>> rows;
  while (std::getline(in, line)) {
    std::istringstream l(line);
    std::map<std::string, double> row;
    for (size_t i = 0; std::getline(l, cell, ','); ++i) row[names.at(i)] = std::stod(cell);
    rows.push_back(row);
  }
  return rows;
}

// `dir`, emptied (created if missing).
inline std::string fresh(const std::string& dir) {
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// Command-line options for a small drive that runs in a fraction of a second: 2 x 2 dies of 64 blocks of 64
// pages, a 1 MiB buffer, no overwrite preconditioning.
inline const std::string kSmallDrive =
    " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64"
    " --set geometry.pages_per_block=64 --set buffer.bytes=1M --set precondition.drive_writes=0";

// The platform executable ssdtlm-<platform>, quoted for the shell.
inline std::string cli_binary(const std::string& platform = "generic") {
  return "'" + std::string(SSDTLM_BINARY_DIR) + "/bin/ssdtlm-" + platform + "'";
}

// A file of the source tree, quoted for the shell.
inline std::string source_path(const std::string& rel) { return "'" + std::string(SSDTLM_SOURCE_DIR) + "/" + rel + "'"; }

// Runs the shell command line `command` in `dir` (which must exist); its stdout and stderr go to
// dir/stdout.txt and dir/stderr.txt, which are kept.
inline CliRun shell(const std::string& dir, const std::string& command) {
  const std::string full = "cd '" + dir + "' && " + command + " >stdout.txt 2>stderr.txt";
  const int status = std::system(full.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(std::filesystem::path(dir) / "stdout.txt"),
          slurp(std::filesystem::path(dir) / "stderr.txt")};
}

// Runs ssdtlm-<platform> with the command-line `args` in `dir` (created if missing, not cleared: a test
// may look at what earlier runs left there).
inline CliRun run_in(const std::string& dir, const std::string& args, const std::string& platform = "generic") {
  std::filesystem::create_directories(dir);
  return shell(dir, cli_binary(platform) + " " + args);
}

// A run that must succeed: `out` names the output directory (and OUT.err, the run's stderr); `args` are
// further command-line options. Returns its summary.json.
inline nlohmann::json run_cli(const std::string& out, const std::string& args, const std::string& platform = "generic") {
  const std::string cmd = cli_binary(platform) + " --quiet --out " + out + " " + args + " 2>" + out + ".err";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::ifstream f(out + "/summary.json");
  REQUIRE(f.good());
  return nlohmann::json::parse(f);
}

}  // namespace ssdtlm::test
