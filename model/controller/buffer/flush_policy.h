// The order in which the write buffer flushes dirty units. A new policy is one new file plus one line
// in flush_policy.cpp (buffer.policy). Times are simulated picoseconds.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

class MapCache;

class FlushPolicy {
 public:
  virtual ~FlushPolicy() = default;
  virtual void on_dirty(uint32_t slot, uint32_t lpn, uint64_t now_ps) = 0;  // a slot became dirty
  virtual void on_overwrite(uint32_t slot, uint32_t lpn) {}                 // a dirty slot absorbed a newer write
  virtual uint32_t pop(uint64_t now_ps) = 0;  // next dirty slot to flush, kInvalid if none
  virtual size_t memory_bytes() const { return 0; }
  virtual uint64_t aged_picks() const { return 0; }  // choices forced by an age bound
  // Firmware steps of one insert into or pop from the flush order, as it stands (buffer/buffer_cost.h).
  virtual uint32_t order_steps() const { return 1; }
  // The slots the k-th, (k+1)-th, ... next pop()s would return if nothing changed meanwhile (k = 0: the next), into
  // slots[0, n): kNoPeek where the policy cannot tell cheaply or holds no more. A hint for prefetching only: nothing
  // may be decided on it.
  virtual void peek(uint32_t k, uint32_t n, uint32_t* slots) const { std::fill(slots, slots + n, kNoPeek); }
  static constexpr uint32_t kNoPeek = ~uint32_t(0);
};

// What a policy may know about the drive.
struct FlushContext {
  uint32_t capacity_units = 0;
  uint32_t entries_per_segment = 1;  // map entries per map segment: units sharing a segment share a map write-back
  uint32_t segments = 0;             // map segments (the logical space / entries_per_segment)
  uint64_t max_age_ps = 0;           // buffer.max_age_ms
  MapCache* cache = nullptr;         // the map cache (which segments are dirty); may be null in unit tests
};

using FlushFactory = std::function<std::unique_ptr<FlushPolicy>(const FlushContext&)>;

std::unique_ptr<FlushPolicy> make_fifo_flush(const FlushContext& c);
std::unique_ptr<FlushPolicy> make_hexa_flush(const FlushContext& c);
std::unique_ptr<FlushPolicy> make_hexa_always_flush(const FlushContext& c);

// A registered policy (flush_policy.cpp's table): its factory, whether it orders the whole buffer by map segment
// (HEXA's: streams cannot be kept apart, validation.cpp), and the bytes its own lists take per buffered unit (the
// memory estimate, report/memory_estimate.cpp: HEXA's group links about 24 B, fifo's queue 4 B).
struct FlushPolicyEntry {
  FlushFactory make;
  bool orders_by_map_segment;
  uint32_t bytes_per_unit;
};
// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
const FlushPolicyEntry& find_flush_policy(const std::string& name, const std::string& key);
std::unique_ptr<FlushPolicy> make_flush_policy(const std::string& name, const FlushContext& c, const std::string& key);
std::vector<std::string> flush_policy_names();

}  // namespace ssdtlm
