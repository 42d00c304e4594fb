// GC victim selection behind a small interface. A block becomes a candidate when its last page is
// programmed; its valid count only falls after that. pick() removes and returns a die's victim.
// A new policy is one new file plus one line in victim_policy.cpp.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

class VictimPolicy {
 public:
  virtual ~VictimPolicy() = default;
  virtual void insert(uint32_t gblock, uint32_t valid) = 0;
  virtual void update(uint32_t gblock, uint32_t old_valid, uint32_t new_valid) = 0;
  virtual uint32_t pick(uint32_t die) = 0;                    // kInvalid when the die has no candidate
  virtual uint32_t peek(uint32_t die) = 0;                    // what pick() would return, left a candidate
  // Takes a given candidate out (read reclaim relocates a block whatever its valid count).
  virtual void remove(uint32_t gblock) = 0;
  virtual size_t memory_bytes() const = 0;                    // state held, for the memory figures
  // Saves or loads the policy's state (controller/snapshot); a policy without one throws SnapshotError.
  virtual void snapshot(SnapshotArchive& a);
};

using VictimFactory = std::function<std::unique_ptr<VictimPolicy>(const Geometry&)>;

std::unique_ptr<VictimPolicy> make_greedy_victim(const Geometry& g);
std::unique_ptr<VictimPolicy> make_fifo_victim(const Geometry& g);

// Name -> factory; throws ConfigError naming `key` and the known names for an unknown name.
std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name, const Geometry& g, const std::string& key);
std::vector<std::string> victim_policy_names();

}  // namespace ssdtlm
