// ssdtlm-generic: the baseline SSD platform.
#include "generic_platform.h"
#include "sim/runner.h"

int sc_main(int argc, char* argv[]) { return ssdtlm::run_platform(argc, argv, ssdtlm::generic_platform_info()); }
