// The message of the ConfigError that `f` throws ("" when it throws none): for tests of what bad input says.
#pragma once
#include <functional>
#include <string>

#include "config/config.h"

namespace ssdtlm::test {

inline std::string config_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace ssdtlm::test
