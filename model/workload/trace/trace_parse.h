// Allocation-free field splitting and number parsing shared by the trace readers.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "common/text.h"  // trim

namespace ssdtlm {
namespace traceparse {

// Splits on runs of blanks (space, tab); out is cleared first. Views point into s.
void split_ws(std::string_view s, std::vector<std::string_view>& out);

// Splits on every `sep` and trims blanks around each field; out is cleared first.
void split_char(std::string_view s, char sep, std::vector<std::string_view>& out);

// Unsigned decimal integer, digits only (no sign, no blanks); false on overflow.
bool parse_u64(std::string_view s, uint64_t& out);

// Non-negative decimal "123", "123.", "123.456", ".5" scaled by 10^decimals and truncated:
// parse_fixed("1.5", 6) = 1500000. Exponent forms ("1.5e3") are accepted too (via strtod,
// then rounded). False on garbage or overflow.
bool parse_fixed(std::string_view s, int decimals, uint64_t& out);

bool iequals(std::string_view a, std::string_view b);

}  // namespace traceparse
}  // namespace ssdtlm
