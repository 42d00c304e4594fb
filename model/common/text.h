// Small text helpers: trimming, case folding and splitting of option values and input lines, and the forms
// numbers and bytes take in messages. The one copy of each: use these rather than a local one.
#pragma once
#include <cctype>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace ssdtlm {

// `s` without the blanks (space, \t, \n, \v, \f, \r: isspace in the C locale) at either end; a view into s.
inline std::string_view trim(std::string_view s) {
  auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; };
  size_t b = 0, e = s.size();
  while (b < e && blank(s[b])) ++b;
  while (e > b && blank(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// `s` in lower case (ASCII letters only).
inline std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The fields of `s` between the `sep` characters, empty ones included ("a,,b" -> a, "", b; "" -> one empty field).
inline std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.emplace_back(s.substr(start, p == std::string_view::npos ? std::string_view::npos : p - start));
    if (p == std::string_view::npos) return out;
    start = p + 1;
  }
}

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

// `s` quoted for a message about user input: control characters (NUL, newline, ...) as \n, \t, \0 or \xNN, so
// that a message is never cut at a NUL nor split across lines; other bytes (UTF-8 text) as they are.
inline std::string quote_text(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out = "'";
  for (unsigned char c : s) {
    if (c >= 0x20 && c != 0x7F) {
      out += char(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == 0) {
      out += "\\0";
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out + "'";
}

// quote_text without the quotes.
inline std::string escape_text(const std::string& s) {
  const std::string q = quote_text(s);
  return q.substr(1, q.size() - 2);
}

}  // namespace ssdtlm
