// Transfer-size mixes (fio `bssplit`) and offset alignment (fio `blockalign`).
//
// bssplit syntax (one direction, as fio's first comma-separated list):
//   <size>[/<percent>][:<size>[/<percent>]...]      e.g. 512/4:1k/1:4k/67:64k/28
// <size> is an integer or decimal with an optional binary suffix k, m, g (optionally followed
// by b or ib, any case: 4k = 4KiB = 4096); it must come to a whole number of bytes, > 0 and
// < 4 GiB. <percent> is a decimal in [0, 100]. Entries whose percentage is empty ("8k/" or
// "8k") share equally what the explicit percentages leave, as in fio. After that the
// percentages must add up to 100 (fio tolerates less; we refuse it as a likely typo).
// Sizes are drawn by count: P(size_i) = percent_i / 100.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "common/rng.h"

namespace ssdtlm {

struct SizeEntry {
  uint32_t bytes = 0;
  double percent = 0;  // share of the requests (by count), 0..100
};

class SizeMix {
 public:
  SizeMix() = default;  // empty: sample() must not be called
  // Entries with their final percentages; throws std::invalid_argument unless they are
  // non-empty, every size > 0, and the percentages are >= 0 and add up to 100.
  explicit SizeMix(std::vector<SizeEntry> entries);
  static SizeMix fixed(uint32_t bytes);

  // O(number of entries). A mix of one size draws nothing from rng.
  uint32_t sample(Rng& rng) const { return single_ ? single_ : draw(rng); }
  const std::vector<SizeEntry>& entries() const { return entries_; }
  bool empty() const { return entries_.empty(); }
  uint32_t min_bytes() const;   // smallest size with a non-zero share
  uint32_t max_bytes() const;   // largest size with a non-zero share
  double mean_bytes() const;    // sum of bytes * percent / 100

 private:
  std::vector<SizeEntry> entries_;
  std::vector<double> cum_;  // cumulative share in [0, 1]
  uint32_t single_ = 0;      // the size when only one has a non-zero share
  uint32_t draw(Rng& rng) const;
};

// Parses a fio size token ("512", "4k", "1.5KiB", "1m"); throws std::invalid_argument
// naming the token.
uint64_t parse_size(const std::string& token);

// Parses a bssplit string; throws std::invalid_argument naming the spec and the bad token.
SizeMix parse_bssplit(const std::string& spec);

// fio's blockalign: random offsets are multiples of `align`. JESD219 needs a finer alignment for
// short transfers: with small_align != 0, transfers shorter than `align` are aligned to
// small_align instead (small_align must divide align).
struct BlockAlign {
  uint32_t align = 512;
  uint32_t small_align = 0;

  uint32_t for_size(uint32_t bytes) const {
    return small_align != 0 && bytes < align ? small_align : align;
  }
  // Rounds offset down to the alignment of a transfer of `bytes`.
  uint64_t align_down(uint64_t offset, uint32_t bytes) const {
    const uint32_t a = for_size(bytes);
    return (a & (a - 1)) == 0 ? offset & ~uint64_t(a - 1) : offset - offset % a;
  }
};

}  // namespace ssdtlm
