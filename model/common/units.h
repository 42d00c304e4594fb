// Human units: one parser for sizes, times, ratios and booleans, used by configuration files, --set and
// fio job files, and the matching formatters for messages ("up to 1 TiB", "10 ns .. 100 ms").
//
// Sizes: an integer (decimal or 0x hex) or a decimal number, optionally followed by a unit, any case:
//   k m g t p            powers of kb_base (1024 by default, as fio; 1000 with kb_base = 1000)
//   kb mb gb tb pb       the same (fio: "kB is the same as k")
//   ki mi gi ti pi       fio reads these like k, m, g, ... (a quirk of its parser; kept for job files)
//   kib mib gib tib pib  IEC: powers of 1024 — except under fio's compatibility rule (fio_iec_inversion,
//                        job files with kb_base = 1024) where fio reads them as powers of 1000
//   b                    bytes ("4096b"); a bare number is bytes
// Blanks between number and unit are allowed ("64 MiB"). The value must come to a whole number of bytes
// that fits in 64 bits; a sign is an error.
//
// Times: a decimal number and a unit: ns, us (usec, µs), ms (msec), s (sec), min, h, d; fio job files also
// take "m" for minutes, as fio does. A bare number is in the caller's default unit.
// Ratios: "0.25" or "25%". Booleans: true/false, 1/0, yes/no, on/off (any case).
// Rates: bandwidths in MB/s (10^6 B/s) from "3938", "3.9GB/s", "500MiB/s", "800kB/s" (kB, MB, GB, TB decimal;
// KiB, MiB, GiB, TiB binary; the "/s" may be left out); transfer rates in MT/s from "400" or "1.2GT/s"; counts
// per second (IOPS) from "10000", "10k", "1.5M" (SI prefixes k, M, G).
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/text.h"
#include <string_view>

namespace ssdtlm {

// Bad text for a unit; the message says what was expected and quotes the text.
struct UnitError : std::invalid_argument {
  // what(): "expected <syntax>, got '<text>' (<reason>)"; reason(): the short cause ("unknown unit 'Q'",
  // "a size cannot be negative", ...), empty when the text is simply not a number.
  UnitError(const std::string& expected, std::string_view text, const std::string& reason = "")
      : std::invalid_argument("expected " + expected + ", got " + quote_text(std::string(text)) +
                              (reason.empty() ? "" : " (" + reason + ")")),
        reason_(reason) {}
  const std::string& reason() const { return reason_; }

 private:
  std::string reason_;
};

struct SizeSyntax {
  unsigned kb_base = 1024;          // 1024 or 1000: the multiplier of k, m, g, t, p
  bool fio_iec_inversion = false;   // fio job files: with kb_base 1024, KiB, MiB... are powers of 1000
};

uint64_t parse_size(std::string_view text, const SizeSyntax& syntax = SizeSyntax());

// A time in ns; a bare number is in units of default_unit_ns (e.g. 1000 for microseconds). `fio_minutes`
// accepts fio's "m" for minutes (elsewhere "m" is refused as ambiguous: write "min" or "ms").
double parse_time_ns(std::string_view text, double default_unit_ns, bool fio_minutes = false);

// "0.25" or "25%" -> 0.25.
double parse_ratio(std::string_view text);

bool parse_bool(std::string_view text);

// A decimal or 0x-hex integer with an optional sign, nothing else ("12", "-1", "0x10").
int64_t parse_integer(std::string_view text);

// A bandwidth in MB/s (a bare number is MB/s).
double parse_bandwidth_mbps(std::string_view text);
// A transfer rate in MT/s (a bare number is MT/s).
double parse_transfer_rate_mts(std::string_view text);
// A number with an optional SI prefix k, M or G ("10k" = 10000; for IOPS).
double parse_si(std::string_view text);

// A plain decimal number ("1.5", "2e6"); finite.
double parse_number(std::string_view text);

// Nanoseconds per unit for a configuration key's unit name ("ns", "us", "ms", "s"), 0 when not a time unit.
double time_unit_ns(const std::string& unit);

// "4 KiB", "64 MiB", "1 TiB", "1.5 GiB", "4097 B": exact when a binary multiple, else 4 significant digits.
std::string format_size(double bytes);
// A byte count in messages, exact and readable: "512 bytes", "1 MiB" (a whole number of KiB, MiB, ...), else the
// count and its approximate size: "5000 bytes (4.883 KiB)".
std::string format_bytes(uint64_t bytes);
// "10 ns", "0.7 us", "100 ms", "300 s".
std::string format_time_ns(double ns);

}  // namespace ssdtlm
