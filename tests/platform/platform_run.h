// Helpers for platform tests: one simulation per TEST_CASE (each runs in its own process).
#pragma once
#include <initializer_list>
#include <string>

#include "generic_platform.h"
#include "sim/runner.h"

namespace ssdtlm::test {

inline Config generic_config(std::initializer_list<std::string> sets) {
  Config c = platform_config(generic_platform_info());
  for (auto& s : sets) c.set(s);
  return c;
}

inline RunResult run_generic(const Config& c) { return simulate(c, generic_platform_info(), RunOptions{}); }

}  // namespace ssdtlm::test
