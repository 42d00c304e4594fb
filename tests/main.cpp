// Catch2 runs inside sc_main (libsystemc owns main()). SystemC elaborates once per process, so each TEST_CASE runs
// in a process of its own: under ctest (catch_discover_tests) one per test, and when this binary is started by hand
// with several test cases selected (`ssdtlm_tests "[ftl]"`, or no filter at all), it runs each selected test case as
// a child process of itself, with the same options, and prints each child's failures and a total at the end.
// Every test process works in a private temporary folder (removed at exit): the outputs tests write under
// relative names never land in the source tree or the folder the binary was started from (issue 47).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <systemc>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/temp_dir.h"

namespace {

constexpr const char* kChildTest = "SSDTLM_TEST_CASE";  // set in a child: the one test case it runs

// A test name as a Catch2 test spec that matches it alone: the characters a spec gives a meaning escaped.
std::string exact_spec(const std::string& name) {
  std::string spec;
  for (char c : name) {
    if (std::strchr("\\,[]\"~*", c)) spec += '\\';
    spec += c;
  }
  return spec;
}

// The test cases this invocation selects, in Catch2's order (hidden ones only when a filter names them).
std::vector<Catch::TestCase> selected(Catch::Session& session) {
  const Catch::Config& config = session.config();
  const std::vector<Catch::TestCase>& all = Catch::getAllTestCasesSorted(config);
  if (config.hasTestFilters()) return Catch::filterTests(all, config.testSpec(), config);
  std::vector<Catch::TestCase> shown;
  for (const Catch::TestCase& t : all)
    if (!t.isHidden()) shown.push_back(t);
  return shown;
}

// Runs each selected test case in a child process (this binary, the same arguments, kChildTest naming the case).
int run_each_in_child(char* argv[], const std::vector<Catch::TestCase>& tests) {
  std::vector<std::string> failed;
  for (const Catch::TestCase& t : tests) {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      ::setenv(kChildTest, t.name.c_str(), 1);
      ::execv("/proc/self/exe", argv);
      std::_Exit(127);
    }
    int status = 0;
    if (::waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed.push_back(t.name);
  }
  std::printf("\n%zu test cases, each in its own process: %zu passed, %zu failed\n", tests.size(),
              tests.size() - failed.size(), failed.size());
  for (const std::string& name : failed) std::printf("  failed: %s\n", name.c_str());
  return failed.empty() ? 0 : 1;
}

int run_tests(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  Catch::ConfigData& data = session.configData();
  if (const char* one = std::getenv(kChildTest)) {
    data.testsOrTags = {exact_spec(one)};
    session.useConfigData(data);
    return session.run();
  }
  const bool listing = data.listTests || data.listTestNamesOnly || data.listTags || data.listReporters || data.showHelp;
  if (!listing) {
    const std::vector<Catch::TestCase> tests = selected(session);
    if (tests.size() > 1) return run_each_in_child(argv, tests);
  }
  return session.run();
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  int status = 0;
  {
    ssdtlm::test::TempDir work("cwd");
    if (::chdir(work.path().c_str()) != 0) return 2;
    status = run_tests(argc, argv);
    if (::chdir("/") != 0) status = status ? status : 2;  // leave the folder before it is removed
  }
  return status;
}
