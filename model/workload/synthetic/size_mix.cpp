#include "workload/synthetic/size_mix.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "common/text.h"

namespace ssdtlm {
namespace {

std::string num(double v) { return format_number(v); }

bool parse_double(const std::string& s, double& out) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && std::isfinite(out);
}

}  // namespace

SizeMix::SizeMix(std::vector<SizeEntry> entries) : entries_(std::move(entries)) {
  if (entries_.empty()) throw std::invalid_argument("size mix: no entry");
  double total = 0;
  for (const auto& e : entries_) {
    if (e.bytes == 0) throw std::invalid_argument("size mix: a transfer size is 0");
    if (!(e.percent >= 0.0 && e.percent <= 100.0))
      throw std::invalid_argument("size mix: percentage " + num(e.percent) +
                                  " of size " + std::to_string(e.bytes) + " is not in [0, 100]");
    total += e.percent;
  }
  if (std::fabs(total - 100.0) > 1e-6)
    throw std::invalid_argument("size mix: percentages add up to " + num(total) +
                                ", expected 100");
  double cum = 0;
  for (const auto& e : entries_) {
    cum += e.percent / total;
    cum_.push_back(cum);
  }
  bool many = false;
  for (const auto& e : entries_)
    if (e.percent > 0) {
      many = many || (single_ != 0 && single_ != e.bytes);
      single_ = e.bytes;
    }
  if (many) single_ = 0;
}

SizeMix SizeMix::fixed(uint32_t bytes) { return SizeMix({{bytes, 100.0}}); }

uint32_t SizeMix::draw(Rng& rng) const {
  const double u = rng.uniform();
  for (size_t i = 0; i < cum_.size(); ++i)
    if (u < cum_[i] && entries_[i].percent > 0) return entries_[i].bytes;
  for (size_t i = entries_.size(); i-- > 0;)  // u beyond the last cumulative share (rounding)
    if (entries_[i].percent > 0) return entries_[i].bytes;
  return entries_.back().bytes;
}

uint32_t SizeMix::min_bytes() const {
  uint32_t m = 0;
  for (const auto& e : entries_)
    if (e.percent > 0 && (m == 0 || e.bytes < m)) m = e.bytes;
  return m;
}

uint32_t SizeMix::max_bytes() const {
  uint32_t m = 0;
  for (const auto& e : entries_)
    if (e.percent > 0 && e.bytes > m) m = e.bytes;
  return m;
}

double SizeMix::mean_bytes() const {
  double m = 0;
  for (const auto& e : entries_) m += double(e.bytes) * e.percent / 100.0;
  return m;
}

uint64_t parse_size(const std::string& token) {
  auto fail = [&]() -> uint64_t {
    throw std::invalid_argument("bad size '" + token +
                                "' (expected <number>[k|m|g], e.g. 512, 4k, 1.5k, 1m)");
  };
  size_t i = 0;
  while (i < token.size() && (std::isdigit(static_cast<unsigned char>(token[i])) || token[i] == '.'))
    ++i;
  double v = 0;
  if (!parse_double(token.substr(0, i), v)) fail();
  const std::string suffix = lower(token.substr(i));
  double mult = 1;
  if (suffix.empty() || suffix == "b") {
    mult = 1;
  } else {
    const char unit = suffix[0];
    const std::string rest = suffix.substr(1);
    if (!(rest.empty() || rest == "b" || rest == "ib")) fail();
    if (unit == 'k') mult = 1024.0;
    else if (unit == 'm') mult = 1024.0 * 1024;
    else if (unit == 'g') mult = 1024.0 * 1024 * 1024;
    else fail();
  }
  const double bytes = v * mult;
  if (bytes <= 0 || bytes >= 18446744073709551616.0) fail();
  if (bytes != std::floor(bytes))
    throw std::invalid_argument("bad size '" + token + "': not a whole number of bytes");
  return uint64_t(bytes);
}

SizeMix parse_bssplit(const std::string& spec) {
  auto fail = [&](const std::string& why) -> void {
    throw std::invalid_argument("bssplit '" + spec + "': " + why);
  };
  if (spec.empty()) fail("empty (expected <size>[/<percent>][:<size>[/<percent>]...])");
  if (spec.find(',') != std::string::npos)
    fail("per-direction lists (',') are not supported; give one list");

  std::vector<SizeEntry> entries;
  std::vector<bool> missing;
  size_t start = 0;
  for (;;) {
    const size_t colon = spec.find(':', start);
    const std::string tok = spec.substr(start, colon == std::string::npos ? colon : colon - start);
    if (tok.empty()) fail("empty entry (expected <size>[/<percent>] between ':')");
    const size_t slash = tok.find('/');
    const std::string size_str = tok.substr(0, slash);
    const std::string perc_str = slash == std::string::npos ? "" : tok.substr(slash + 1);
    uint64_t bytes = 0;
    try {
      bytes = parse_size(size_str);
    } catch (const std::invalid_argument& e) {
      fail(std::string(e.what()) + " in entry '" + tok + "'");
    }
    if (bytes > 0xFFFFFFFFull) fail("size '" + size_str + "' in entry '" + tok + "' is not below 4 GiB");
    double perc = 0;
    if (!perc_str.empty() && (!parse_double(perc_str, perc) || perc < 0 || perc > 100))
      fail("bad percentage '" + perc_str + "' in entry '" + tok + "' (expected 0..100)");
    entries.push_back({uint32_t(bytes), perc});
    missing.push_back(perc_str.empty());
    if (colon == std::string::npos) break;
    start = colon + 1;
  }

  double sum = 0;
  int nmissing = 0;
  for (size_t i = 0; i < entries.size(); ++i) {
    if (missing[i])
      ++nmissing;
    else
      sum += entries[i].percent;
  }
  if (sum > 100.0 + 1e-9) fail("percentages add up to " + num(sum) + ", more than 100");
  if (nmissing) {
    for (size_t i = 0; i < entries.size(); ++i)
      if (missing[i]) entries[i].percent = (100.0 - sum) / nmissing;
  } else if (std::fabs(sum - 100.0) > 1e-6) {
    fail("percentages add up to " + num(sum) + ", expected 100");
  }
  return SizeMix(std::move(entries));
}

}  // namespace ssdtlm
