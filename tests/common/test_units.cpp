// The one parser of human units: sizes (fio's suffixes and kb_base), times, ratios, booleans, and the
// formatting of limits in messages.
#include <catch2/catch.hpp>

#include "common/units.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
std::string size_error(const std::string& text, SizeSyntax s = SizeSyntax()) {
  try {
    parse_size(text, s);
  } catch (const UnitError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("sizes: every suffix, any case, powers of 1024 by default", "[units]") {
  CHECK(parse_size("4096") == 4096);
  CHECK(parse_size("0x1000") == 4096);
  CHECK(parse_size("4096b") == 4096);
  CHECK(parse_size("4096B") == 4096);
  CHECK(parse_size("4k") == 4096);
  CHECK(parse_size("4K") == 4096);
  CHECK(parse_size("4kb") == 4096);
  CHECK(parse_size("4KB") == 4096);
  CHECK(parse_size("4KiB") == 4096);
  CHECK(parse_size("4ki") == 4096);
  CHECK(parse_size("64M") == 64ull << 20);
  CHECK(parse_size("64MiB") == 64ull << 20);
  CHECK(parse_size("1g") == 1ull << 30);
  CHECK(parse_size("1GiB") == 1ull << 30);
  CHECK(parse_size("1 GiB") == 1ull << 30);
  CHECK(parse_size(" 2t ") == 2ull << 40);
  CHECK(parse_size("1TiB") == 1ull << 40);
  CHECK(parse_size("1p") == 1ull << 50);
  CHECK(parse_size("1PiB") == 1ull << 50);
  CHECK(parse_size("1.5k") == 1536);
  CHECK(parse_size("0.5m") == 512ull << 10);
  CHECK(parse_size("0") == 0);
}

TEST_CASE("sizes: kb_base=1000 and fio's reading of KiB under kb_base=1024", "[units]") {
  const SizeSyntax si{1000, false};
  CHECK(parse_size("4k", si) == 4000);
  CHECK(parse_size("1MB", si) == 1000000);
  CHECK(parse_size("4KiB", si) == 4096);
  CHECK(parse_size("1ti", si) == 1ull << 40);
  const SizeSyntax fio{1024, true};  // fio's compatibility mode: the IEC suffixes mean powers of 1000
  CHECK(parse_size("4k", fio) == 4096);
  CHECK(parse_size("4KiB", fio) == 4000);
  CHECK(parse_size("1mi", fio) == 1000000);
  CHECK(parse_size("1000ki", fio) == 1000000);
  const SizeSyntax fio1000{1000, true};
  CHECK(parse_size("4KiB", fio1000) == 4096);
  CHECK(parse_size("4k", fio1000) == 4000);
}

TEST_CASE("sizes: negative, overflow, fractions of a byte and garbage are refused with the reason", "[units]") {
  CHECK_THAT(size_error("-4k"), Contains("negative") && Contains("'-4k'"));
  CHECK_THAT(size_error("+4k"), Contains("negative"));
  CHECK_THAT(size_error("16384p"), Contains("too large"));
  CHECK(parse_size("15p") == 15ull << 50);
  CHECK_THAT(size_error("18446744073709551616"), Contains("too large"));
  CHECK(parse_size("18446744073709551615") == ~uint64_t(0));
  CHECK_THAT(size_error("99999999999999999999999999999999999"), Contains("too large"));
  CHECK_THAT(size_error("1.5"), Contains("whole number of bytes"));
  CHECK_THAT(size_error("0.1k"), Contains("whole number of bytes"));
  CHECK_THAT(size_error("4q"), Contains("unknown unit 'q'"));
  CHECK_THAT(size_error("4kk"), Contains("unknown unit"));
  CHECK_THAT(size_error("k"), Contains("expected a size"));
  CHECK_THAT(size_error(""), Contains("expected a size"));
  CHECK_THAT(size_error("1.2.3k"), Contains("expected a size"));
  CHECK_THAT(size_error("four"), Contains("expected a size"));
  try {
    parse_size("4q");
  } catch (const UnitError& e) {
    CHECK(e.reason() == "unknown unit 'q'");
  }
}

TEST_CASE("times: ns, us, ms, s, min, h, d, bare numbers in the caller's unit", "[units]") {
  CHECK(parse_time_ns("20ns", 1e3) == Approx(20));
  CHECK(parse_time_ns("0.7ms", 1e3) == Approx(700000));
  CHECK(parse_time_ns("700us", 1e3) == Approx(700000));
  CHECK(parse_time_ns("700usec", 1e3) == Approx(700000));
  CHECK(parse_time_ns("2msec", 1e3) == Approx(2e6));
  CHECK(parse_time_ns("1.5s", 1e3) == Approx(1.5e9));
  CHECK(parse_time_ns("2min", 1e3) == Approx(120e9));
  CHECK(parse_time_ns("1h", 1e3) == Approx(3600e9));
  CHECK(parse_time_ns("1d", 1e3) == Approx(86400e9));
  CHECK(parse_time_ns("700", 1e3) == Approx(700000));  // a bare number in us
  CHECK(parse_time_ns("300", 1e9) == Approx(300e9));   // ... or in s
  CHECK(parse_time_ns("1e3us", 1) == Approx(1e6));
  CHECK(parse_time_ns("2m", 1e9, true) == Approx(120e9));  // fio: m = minutes
  CHECK_THROWS_WITH(parse_time_ns("2m", 1e9), Contains("ambiguous"));
  CHECK_THROWS_WITH(parse_time_ns("-1ms", 1e3), Contains("negative"));
  CHECK_THROWS_WITH(parse_time_ns("1 fortnight", 1e3), Contains("unknown unit"));
  CHECK_THROWS_WITH(parse_time_ns("fast", 1e3), Contains("expected a time"));
  CHECK_THROWS_WITH(parse_time_ns("1e400s", 1e3), Contains("expected a time"));
}

TEST_CASE("ratios, booleans, integers and numbers", "[units]") {
  CHECK(parse_ratio("0.25") == Approx(0.25));
  CHECK(parse_ratio("25%") == Approx(0.25));
  CHECK(parse_ratio(" 12.5 % ") == Approx(0.125));
  CHECK_THROWS_AS(parse_ratio("a quarter"), UnitError);
  CHECK_THROWS_AS(parse_ratio("%"), UnitError);
  for (const char* t : {"true", "TRUE", "1", "yes", "Yes", "on"}) CHECK(parse_bool(t));
  for (const char* f : {"false", "0", "no", "NO", "off"}) CHECK_FALSE(parse_bool(f));
  CHECK_THROWS_WITH(parse_bool("maybe"), Contains("true or false"));
  CHECK(parse_integer("-1") == -1);
  CHECK(parse_integer("0x10") == 16);
  CHECK(parse_integer("9223372036854775807") == INT64_MAX);
  CHECK(parse_integer("-9223372036854775808") == INT64_MIN);
  CHECK_THROWS_WITH(parse_integer("9223372036854775808"), Contains("out of range"));
  CHECK_THROWS_AS(parse_integer("12abc"), UnitError);
  CHECK_THROWS_AS(parse_integer(""), UnitError);
  CHECK(parse_number("1e6") == 1e6);
  CHECK_THROWS_AS(parse_number("1e6x"), UnitError);
}

TEST_CASE("limits print in human units", "[units]") {
  CHECK(format_size(4096) == "4 KiB");
  CHECK(format_size(64.0 * (1 << 20)) == "64 MiB");
  CHECK(format_size(double(1ull << 40)) == "1 TiB");
  CHECK(format_size(double(1ull << 52)) == "4 PiB");
  CHECK(format_size(1.5 * (1ull << 30)) == "1.5 GiB");
  CHECK(format_size(512) == "512 B");
  CHECK(format_size(4097) == "4.001 KiB");
  // Messages name byte counts exactly: a whole number of a binary unit as that, else the count and its size.
  CHECK(format_bytes(1) == "1 byte");
  CHECK(format_bytes(512) == "512 bytes");
  CHECK(format_bytes(4096) == "4 KiB");
  CHECK(format_bytes(1ull << 20) == "1 MiB");
  CHECK(format_bytes(3ull << 30) == "3 GiB");
  CHECK(format_bytes(5000) == "5000 bytes (4.883 KiB)");
  CHECK(format_bytes(3ull << 29) == "1610612736 bytes (1.5 GiB)");
  CHECK(format_time_ns(10) == "10 ns");
  CHECK(format_time_ns(700) == "700 ns");
  CHECK(format_time_ns(700000) == "700 us");
  CHECK(format_time_ns(1e8) == "100 ms");
  CHECK(format_time_ns(300e9) == "300 s");
  CHECK(time_unit_ns("us") == 1e3);
  CHECK(time_unit_ns("MB/s") == 0);
}

TEST_CASE("rates: bandwidths, transfer rates and counts per second", "[units]") {
  CHECK(parse_bandwidth_mbps("3938") == Approx(3938));
  CHECK(parse_bandwidth_mbps("3.9GB/s") == Approx(3900));
  CHECK(parse_bandwidth_mbps("3.9 GB/s") == Approx(3900));
  CHECK(parse_bandwidth_mbps("500MiB/s") == Approx(524.288));
  CHECK(parse_bandwidth_mbps("800kB/s") == Approx(0.8));
  CHECK(parse_bandwidth_mbps("100MB") == Approx(100));
  CHECK(parse_bandwidth_mbps("1e9B/s") == Approx(1000));
  CHECK_THROWS_WITH(parse_bandwidth_mbps("3 furlongs/s"), Contains("unknown unit"));
  CHECK_THROWS_WITH(parse_bandwidth_mbps("-5MB/s"), Contains("bandwidth"));
  CHECK(parse_transfer_rate_mts("400") == Approx(400));
  CHECK(parse_transfer_rate_mts("1.2GT/s") == Approx(1200));
  CHECK(parse_transfer_rate_mts("800 MT/s") == Approx(800));
  CHECK_THROWS_AS(parse_transfer_rate_mts("1.2GHz"), UnitError);
  CHECK(parse_si("10k") == Approx(10000));
  CHECK(parse_si("1.5M") == Approx(1.5e6));
  CHECK(parse_si("2G") == Approx(2e9));
  CHECK(parse_si("250") == Approx(250));
  CHECK_THROWS_WITH(parse_si("10m"), Contains("k, M or G"));
}
