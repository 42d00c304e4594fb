// Runs a platform: the executable's main. The command line (command_line.h), the run (run.h) and its
// outputs (run_outputs.h) are separate; this header gathers them for callers of the whole.
#pragma once
#include <string>

#include "sim/command_line.h"
#include "sim/platform.h"
#include "sim/run.h"
#include "sim/version.h"

namespace ssdtlm {

// The platform executable's main: ssdtlm-<name> [--config FILE]... [--fio JOBFILE] [--set key=value]...
// [--out DIR] [--vcd FILE | --fst FILE] [--vcd-window START_MS:END_MS] [--seed N]
// [--output-format text|json|json+|fio-json|summary-json] [--quiet] [--version].
// Exit status 0 ok, 1 integrity errors, 2 bad input or outputs that could not be written (the previous set
// whole), 3 model error (a run the watchdog stopped included: incomplete.json beside the untouched set).
// SIGINT, SIGTERM, SIGHUP: the staging folder removed, then the signal's default action.
int run_platform(int argc, char** argv, const PlatformInfo& info);

}  // namespace ssdtlm
