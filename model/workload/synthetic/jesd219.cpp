#include "workload/synthetic/jesd219.h"

namespace ssdtlm {
namespace jesd219 {

SizeMix size_mix() { return parse_bssplit(kBssplit); }

SyntheticSpec make_spec(uint64_t range_bytes, double read_fraction, uint64_t seed, uint64_t io_count,
                        uint64_t range_offset) {
  SyntheticSpec s;
  s.pattern = "random";
  s.read_fraction = read_fraction;
  s.trim_fraction = 0.0;
  s.distribution = kZoned;
  s.random_map = false;  // fio's example: norandommap
  s.scatter = false;     // irrelevant for zoned
  s.bssplit = kBssplit;
  s.block_align = kLargeAlign;
  s.small_align = kSmallAlign;
  s.range_offset = range_offset;
  s.range_bytes = range_bytes;
  s.io_count = io_count;
  s.seed = seed;
  return s;
}

}  // namespace jesd219
}  // namespace ssdtlm
