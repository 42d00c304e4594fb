// ptsd_entry's dirty area gives up a segment when it is full (map.dirty_victim): the order is a registered policy,
// one file per policy and one line in dirty_order.cpp's table.
// - greedy (dirty_order_greedy.cpp): the segment with the most dirty entries (seed 001, PTSD's batch update);
// - lru (dirty_order_lru.cpp): the segment updated least recently.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

class SnapshotArchive;

class DirtyOrder {
 public:
  virtual ~DirtyOrder() = default;
  // A write recorded entries of `seg`: its dirty-entry count went from `before` to `after` (after >= before).
  virtual void updated(uint32_t seg, uint32_t before, uint32_t after) = 0;
  // Removes the next victim from the order and returns it (some segment has dirty entries).
  virtual uint32_t take_victim() = 0;
  virtual uint32_t segments() const = 0;  // segments with dirty entries
  virtual size_t memory_bytes() const = 0;
  virtual void snapshot(SnapshotArchive& a) = 0;
};

// `segments`: the map's segments; `entries_per_segment`: the most dirty entries one segment can hold.
using DirtyOrderFactory = std::unique_ptr<DirtyOrder> (*)(uint32_t segments, uint32_t entries_per_segment);
std::unique_ptr<DirtyOrder> make_dirty_order_greedy(uint32_t segments, uint32_t entries_per_segment);
std::unique_ptr<DirtyOrder> make_dirty_order_lru(uint32_t segments, uint32_t entries_per_segment);

std::vector<std::string> dirty_order_names();
std::unique_ptr<DirtyOrder> make_dirty_order(const std::string& name, uint32_t segments, uint32_t entries_per_segment);

}  // namespace ssdtlm
