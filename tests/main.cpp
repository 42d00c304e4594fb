// Catch2 runs inside sc_main (libsystemc owns main()). Each TEST_CASE runs in its own process under
// ctest (catch_discover_tests), since SystemC elaborates once per process.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
