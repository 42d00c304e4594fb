// Small text helpers for error messages.
#pragma once
#include <sstream>
#include <string>

namespace ssdtlm {

// Shortest readable form of a number ("80", "0.25").
inline std::string format_number(double v) {
  std::ostringstream o;
  o << v;
  return o.str();
}

}  // namespace ssdtlm
