// Catch2 runs inside sc_main (libsystemc owns main()). Each TEST_CASE runs in its own process under
// ctest (catch_discover_tests), since SystemC elaborates once per process.
// Every test process works in a private temporary folder (removed at exit): the outputs tests write under
// relative names never land in the source tree or the folder the binary was started from (issue 47).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>
#include <unistd.h>

#include "common/temp_dir.h"

int sc_main(int argc, char* argv[]) {
  int status = 0;
  {
    ssdtlm::test::TempDir work("cwd");
    if (::chdir(work.path().c_str()) != 0) return 2;
    status = Catch::Session().run(argc, argv);
    if (::chdir("/") != 0) status = status ? status : 2;  // leave the folder before it is removed
  }
  return status;
}
