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

// Whether `s` is well-formed UTF-8 (JSON output can hold nothing else): no stray continuation byte, no
// overlong form, no UTF-16 surrogate, nothing above U+10FFFF.
inline bool valid_utf8(const std::string& s) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(s[i]); };
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = byte(i);
    size_t n;                          // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the first continuation byte
    if (c < 0x80) {
      ++i;
      continue;
    } else if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return false;
    }
    if (i + n >= s.size()) return false;  // cut short
    if (byte(i + 1) < lo || byte(i + 1) > hi) return false;
    for (size_t k = 2; k <= n; ++k)
      if ((byte(i + k) & 0xC0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

// `s` quoted with every byte outside printable ASCII as \xNN, for messages about bad bytes.
inline std::string escape_bytes(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "'";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7F) {
      out += char(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "'";
}

}  // namespace ssdtlm
