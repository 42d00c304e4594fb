#include "workload/trace/trace_parse.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>

namespace ssdtlm {
namespace traceparse {
namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

void split_ws(std::string_view s, std::vector<std::string_view>& out) {
  out.clear();
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_blank(s[i])) ++i;
    const size_t b = i;
    while (i < s.size() && !is_blank(s[i])) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
}

void split_char(std::string_view s, char sep, std::vector<std::string_view>& out) {
  out.clear();
  size_t b = 0;
  for (;;) {
    const size_t p = s.find(sep, b);
    out.push_back(trim(s.substr(b, p == std::string_view::npos ? std::string_view::npos : p - b)));
    if (p == std::string_view::npos) return;
    b = p + 1;
  }
}

bool parse_u64(std::string_view s, uint64_t& out) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (char c : s) {
    if (!is_digit(c)) return false;
    const uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool parse_fixed(std::string_view s, int decimals, uint64_t& out) {
  if (s.empty()) return false;
  if (s.find_first_of("eE") != std::string_view::npos) {
    if (!is_digit(s[0]) && s[0] != '.') return false;  // no sign, no "inf"/"nan"
    const std::string str(s);
    errno = 0;
    char* end = nullptr;
    const double v = std::strtod(str.c_str(), &end);
    if (errno != 0 || end != str.c_str() + str.size() || !std::isfinite(v) || v < 0) return false;
    const double scaled = std::floor(v * std::pow(10.0, decimals));
    if (scaled >= 18446744073709551616.0) return false;
    out = uint64_t(scaled);
    return true;
  }
  const size_t dot = s.find('.');
  const std::string_view ip = s.substr(0, dot);
  const std::string_view fp = dot == std::string_view::npos ? std::string_view() : s.substr(dot + 1);
  if (ip.empty() && fp.empty()) return false;
  uint64_t v = 0;
  if (!ip.empty() && !parse_u64(ip, v)) return false;
  for (char c : fp)
    if (!is_digit(c)) return false;
  for (int i = 0; i < decimals; ++i) {
    const uint64_t d = size_t(i) < fp.size() ? uint64_t(fp[size_t(i)] - '0') : 0;
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  out = v;
  return true;
}

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i])))
      return false;
  return true;
}

}  // namespace traceparse
}  // namespace ssdtlm
