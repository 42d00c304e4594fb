// What a configuration's model will allocate, estimated from the configuration alone, before anything is
// allocated: the per-unit arrays of the dies (out-of-band LPN, kind, versions), the page map and valid bitmap,
// block metadata, the write buffer and its index, the map cache's bookkeeping, the integrity checker, the
// optional statistics (lpn_writes, lifetimes, hot/cold counts) and the host's queues. simulate() refuses a
// configuration whose estimate exceeds sim.max_memory_bytes (0 = the machine's physical memory), or the
// address space left under the process's limit (ulimit -v), with exit 2.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "common/memory_part.h"

namespace ssdtlm {

struct Params;

struct MemoryEstimate {
  std::vector<MemoryPart> parts;  // largest first
  uint64_t total = 0;
  std::string describe() const;  // "12.5 GiB (dies' per-unit arrays 9 GiB, write buffer 3 GiB, ...)"
};

MemoryEstimate estimate_memory(const Params& p);

// The machine's physical memory in bytes (sysconf, else /proc/meminfo's MemTotal; 0 if neither says).
uint64_t physical_memory_bytes();
// The process's address-space limit (getrlimit RLIMIT_AS, ulimit -v) in bytes; 0 = none.
uint64_t address_space_limit_bytes();
// The address space the process uses now (/proc/self/statm); 0 if it does not say.
uint64_t address_space_used_bytes();

// The estimate's total; throws ConfigError when it exceeds the limit: sim.max_memory_bytes (0 = the machine's
// physical memory), naming that key, or what the address-space limit leaves (ulimit -v), naming the key of
// the largest part (buffer.bytes, geometry.*, ...). `address_limit`, `address_used`: for tests (0 = ask the
// system).
uint64_t check_memory(const Params& p, uint64_t address_limit = 0, uint64_t address_used = 0);

}  // namespace ssdtlm
