#include "common/units.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/text.h"

namespace ssdtlm {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Splits "12.5 MiB" into the number and the unit (blanks between them allowed). The number is the
// longest prefix of digits, '.', and (with exponent) an e/E exponent.
void split_number(std::string_view t, bool exponent, std::string_view& number, std::string_view& unit) {
  size_t i = 0;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {  // hex integer
    i = 2;
    while (i < t.size() && std::isxdigit(static_cast<unsigned char>(t[i]))) ++i;
  } else {
    while (i < t.size() && (std::isdigit(static_cast<unsigned char>(t[i])) || t[i] == '.')) ++i;
    if (exponent && i > 0 && i + 1 < t.size() && (t[i] == 'e' || t[i] == 'E')) {
      size_t j = i + 1;
      if (t[j] == '+' || t[j] == '-') ++j;
      if (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) {
        while (j < t.size() && std::isdigit(static_cast<unsigned char>(t[j]))) ++j;
        i = j;
      }
    }
  }
  number = t.substr(0, i);
  unit = trim(t.substr(i));
}

bool to_double(std::string_view s, double& out) {
  if (s.empty()) return false;
  std::string buf(s);
  errno = 0;
  char* end = nullptr;
  out = std::strtod(buf.c_str(), &end);
  return errno == 0 && end == buf.c_str() + buf.size() && std::isfinite(out);
}

const char* const kSizeHelp = "a size such as 4096, 4k, 64M, 1g or 1GiB";

}  // namespace

uint64_t parse_size(std::string_view text, const SizeSyntax& syntax) {
  const std::string_view t = trim(text);
  auto fail = [&](const std::string& why) -> uint64_t { throw UnitError(kSizeHelp, text, why); };
  if (t.empty()) return fail("");
  if (t[0] == '-' || t[0] == '+') return fail("no sign: a size cannot be negative");
  std::string_view num, unit;
  split_number(t, false, num, unit);
  if (num.empty()) return fail("");

  // The number as mantissa * 10^-decimals, exactly.
  unsigned __int128 mantissa = 0;
  int decimals = 0;
  const unsigned __int128 kLimit = (unsigned __int128)1 << 100;
  if (num.size() > 2 && (num[1] == 'x' || num[1] == 'X')) {
    for (char c : num.substr(2)) {
      mantissa = mantissa * 16 + unsigned(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : std::tolower(c) - 'a' + 10);
      if (mantissa > kLimit) return fail("too large: sizes go up to 16 EiB");
    }
  } else {
    bool dot = false, digit = false;
    for (char c : num) {
      if (c == '.') {
        if (dot) return fail("");
        dot = true;
        continue;
      }
      digit = true;
      mantissa = mantissa * 10 + unsigned(c - '0');
      if (dot) ++decimals;
      if (mantissa > kLimit || decimals > 30) return fail("too large or too many digits");
    }
    if (!digit) return fail("");
  }

  const std::string u = lower(unit);
  const unsigned base = syntax.kb_base == 1000 ? 1000 : 1024;
  const unsigned iec = syntax.fio_iec_inversion && base == 1024 ? 1000 : 1024;
  int power = 0;
  unsigned mult = base;
  static const char kPrefixes[] = "kmgtp";
  if (u.empty() || u == "b") {
    power = 0;
  } else {
    const char* at = std::char_traits<char>::find(kPrefixes, 5, u[0]);
    if (!at) return fail("unknown unit " + quoted(unit) + "");
    power = int(at - kPrefixes) + 1;
    const std::string rest = u.substr(1);
    if (rest.empty() || rest == "b")
      mult = base;
    else if (rest == "i" || rest == "ib")
      mult = iec;
    else
      return fail("unknown unit " + quoted(unit) + "");
  }
  unsigned __int128 value = mantissa;
  for (int k = 0; k < power; ++k) {
    if (value > ((unsigned __int128)1 << 116)) return fail("too large: sizes go up to 16 EiB");
    value *= mult;  // mult <= 1024: no overflow below 2^126
  }
  unsigned __int128 div = 1;
  for (int k = 0; k < decimals; ++k) div *= 10;
  if (value % div != 0) return fail("it is not a whole number of bytes");
  value /= div;
  if (value > ~uint64_t(0)) return fail("too large: sizes go up to 16 EiB");
  return uint64_t(value);
}

double parse_time_ns(std::string_view text, double default_unit_ns, bool fio_minutes) {
  const std::string_view t = trim(text);
  const char* help = fio_minutes ? "a time such as 300, 10s, 1.5ms, 2m (minutes), 1h"
                                 : "a time such as 0.7ms, 700us, 20ns, 1.5s or 2min";
  auto fail = [&](const std::string& why) -> double { throw UnitError(help, text, why); };
  if (t.empty()) return fail("");
  if (t[0] == '-') return fail("a time cannot be negative");
  std::string_view num, unit;
  split_number(t[0] == '+' ? t.substr(1) : t, true, num, unit);
  double v = 0;
  if (!to_double(num, v)) return fail("");
  const std::string u = lower(unit);
  double mult = 0;
  if (u.empty())
    mult = default_unit_ns;
  else if (u == "ns" || u == "nsec")
    mult = 1;
  else if (u == "us" || u == "usec" || u == "\xC2\xB5s")
    mult = 1e3;
  else if (u == "ms" || u == "msec")
    mult = 1e6;
  else if (u == "s" || u == "sec" || u == "secs")
    mult = 1e9;
  else if (u == "min" || u == "mins" || (fio_minutes && u == "m"))
    mult = 60e9;
  else if (u == "h" || u == "hr" || u == "hour" || u == "hours")
    mult = 3600e9;
  else if (u == "d" || u == "day" || u == "days")
    mult = 86400e9;
  else if (u == "m")
    return fail("'m' is ambiguous here: write ms or min");
  else
    return fail("unknown unit " + quoted(unit) + "");
  const double ns = v * mult;
  if (!std::isfinite(ns) || ns > 1e30) return fail("too large");
  return ns;
}

namespace {
// The number of a rate and its unit, lower-cased, without a trailing "/s" or "ps".
bool split_rate(std::string_view text, double& v, std::string& unit) {
  std::string_view num, u;
  split_number(trim(text), true, num, u);
  if (!to_double(num, v) || v < 0) return false;
  unit = lower(u);
  if (unit.size() >= 2 && unit.compare(unit.size() - 2, 2, "/s") == 0) unit.resize(unit.size() - 2);
  return true;
}
}  // namespace

double parse_bandwidth_mbps(std::string_view text) {
  const char* help = "a bandwidth such as 3938 (MB/s), 3.9GB/s or 500MiB/s";
  double v = 0;
  std::string u;
  if (!split_rate(text, v, u)) throw UnitError(help, text);
  static const struct {
    const char* name;
    double bytes;
  } kUnits[] = {{"", 1e6},     {"b", 1},           {"kb", 1e3},          {"mb", 1e6},
                {"gb", 1e9},   {"tb", 1e12},       {"kib", 1024.0},      {"mib", 1048576.0},
                {"gib", 1073741824.0}, {"tib", 1099511627776.0}};
  for (auto& k : kUnits)
    if (u == k.name) return v * k.bytes / 1e6;
  throw UnitError(help, text, "unknown unit '" + u + "'");
}

double parse_transfer_rate_mts(std::string_view text) {
  const char* help = "a transfer rate such as 400 (MT/s) or 1.2GT/s";
  double v = 0;
  std::string u;
  if (!split_rate(text, v, u)) throw UnitError(help, text);
  if (u.empty() || u == "mt") return v;
  if (u == "gt") return v * 1e3;
  if (u == "kt") return v / 1e3;
  throw UnitError(help, text, "unknown unit '" + u + "'");
}

double parse_si(std::string_view text) {
  const char* help = "a number such as 10000, 10k or 1.5M";
  double v = 0;
  std::string_view num, u;
  split_number(trim(text), true, num, u);
  if (!to_double(num, v)) throw UnitError(help, text);
  if (u.empty()) return v;
  if (u == "k" || u == "K") return v * 1e3;
  if (u == "M") return v * 1e6;
  if (u == "G") return v * 1e9;
  throw UnitError(help, text, "unknown prefix '" + std::string(u) + "' (k, M or G)");
}

double parse_ratio(std::string_view text) {
  std::string_view t = trim(text);
  bool percent = false;
  if (!t.empty() && t.back() == '%') {
    percent = true;
    t = trim(t.substr(0, t.size() - 1));
  }
  double v = 0;
  if (!to_double(t, v)) throw UnitError("a ratio such as 0.25 or 25%", text);
  return percent ? v / 100.0 : v;
}

bool parse_bool(std::string_view text) {
  const std::string t = lower(trim(text));
  if (t == "true" || t == "1" || t == "yes" || t == "on") return true;
  if (t == "false" || t == "0" || t == "no" || t == "off") return false;
  throw UnitError("true or false (also 1/0, yes/no, on/off)", text);
}

int64_t parse_integer(std::string_view text) {
  std::string_view t = trim(text);
  bool negative = false;
  if (!t.empty() && (t[0] == '-' || t[0] == '+')) {
    negative = t[0] == '-';
    t.remove_prefix(1);
  }
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (t.empty()) throw UnitError("an integer", text);
  unsigned __int128 v = 0;
  for (char c : t) {
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
            : base == 16 && std::isxdigit(static_cast<unsigned char>(c)) ? std::tolower(c) - 'a' + 10
                                                                         : -1;
    if (d < 0) throw UnitError("an integer", text);
    v = v * unsigned(base) + unsigned(d);
    if (v > (unsigned __int128)INT64_MAX + 1) throw UnitError("an integer", text, "out of range");
  }
  if (!negative && v > (unsigned __int128)INT64_MAX) throw UnitError("an integer", text, "out of range");
  return negative ? int64_t(-(__int128)v) : int64_t(v);
}

double parse_number(std::string_view text) {
  double v = 0;
  if (!to_double(trim(text), v)) throw UnitError("a number", text);
  return v;
}

double time_unit_ns(const std::string& unit) {
  if (unit == "ns") return 1;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  return 0;
}

std::string format_size(double bytes) {
  static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  char buf[64];
  if (!(bytes >= 1024.0)) {
    std::snprintf(buf, sizeof buf, "%.4g B", bytes);
    return buf;
  }
  int k = 0;
  double scaled = bytes;
  while (scaled >= 1024.0 && k < 6) {
    scaled /= 1024.0;
    ++k;
  }
  if (scaled == std::floor(scaled) && scaled < 1e15)
    std::snprintf(buf, sizeof buf, "%.0f %s", scaled, kUnits[k]);
  else
    std::snprintf(buf, sizeof buf, "%.4g %s", scaled, kUnits[k]);
  return buf;
}

std::string format_bytes(uint64_t bytes) {
  const std::string exact = std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
  if (bytes < 1024) return exact;
  uint64_t unit = 1;  // the unit format_size picks: the largest power of 1024 not above bytes
  for (int k = 0; k < 6 && bytes / unit >= 1024; ++k) unit *= 1024;
  return bytes % unit == 0 ? format_size(double(bytes)) : exact + " (" + format_size(double(bytes)) + ")";
}

std::string format_time_ns(double ns) {
  char buf[64];
  const double a = std::fabs(ns);
  if (a < 1e3)
    std::snprintf(buf, sizeof buf, "%.4g ns", ns);
  else if (a < 1e6)
    std::snprintf(buf, sizeof buf, "%.4g us", ns / 1e3);
  else if (a < 1e9)
    std::snprintf(buf, sizeof buf, "%.4g ms", ns / 1e6);
  else
    std::snprintf(buf, sizeof buf, "%.4g s", ns / 1e9);
  return buf;
}

}  // namespace ssdtlm
