// The flush-policy context the buffer tests share: `units` buffer slots over a map of 1024 segments of 4 entries.
#pragma once
#include <cstdint>

#include "controller/buffer/flush_policy.h"

namespace ssdtlm::test {

inline FlushContext flush_context(uint32_t units) {
  FlushContext c;
  c.capacity_units = units;
  c.entries_per_segment = 4;
  c.segments = 1024;
  return c;
}

}  // namespace ssdtlm::test
