// One part of the memory a configuration's model will allocate, estimated before anything is allocated: what
// it is, the key that sizes it, its bytes. A component states its own parts (e.g. Streams::memory_estimate) and
// report/memory_estimate.cpp sums them.
#pragma once
#include <cstdint>
#include <string>

namespace ssdtlm {

struct MemoryPart {
  std::string what;  // "write buffer"
  std::string key;   // what sizes it: "buffer.bytes", "geometry.*"
  uint64_t bytes = 0;
};

}  // namespace ssdtlm
