// What a configuration's model will allocate, estimated from the configuration alone, before anything is
// allocated: the per-unit arrays of the dies (out-of-band LPN, kind, versions), the page map and valid bitmap,
// block metadata, the write buffer and its index, the map cache's bookkeeping, the integrity checker, the
// optional statistics (lpn_writes, lifetimes, hot/cold counts) and the host's queues. simulate() refuses a
// configuration whose estimate exceeds sim.max_memory_bytes (0 = the machine's physical memory) with exit 2.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ssdtlm {

struct Params;

struct MemoryEstimate {
  std::vector<std::pair<std::string, uint64_t>> parts;  // what, bytes (largest first)
  uint64_t total = 0;
  std::string describe() const;  // "12.5 GiB (dies' per-unit arrays 9 GiB, write buffer 3 GiB, ...)"
};

MemoryEstimate estimate_memory(const Params& p);

// The machine's physical memory in bytes (sysconf, else /proc/meminfo's MemTotal; 0 if neither says).
uint64_t physical_memory_bytes();

// The estimate's total; throws ConfigError naming sim.max_memory_bytes and the estimate when it exceeds the limit.
uint64_t check_memory(const Params& p);

}  // namespace ssdtlm
