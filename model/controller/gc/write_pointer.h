// ftl.write_pointer as a policy object: which die takes a frontier's next page. The block manager owns the one
// chosen (BlockParams::write_pointer, by its registered name) and tells it of every page it allocates; the flush
// scheduler asks it where a host page goes, the GC engine where a GC copy goes. Registered in write_pointer.cpp's
// table, whose names are the schema's choices (config_schema.cpp): a new rule is one file with its class and
// factory plus one line there.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

class SnapshotArchive;

// The dies a write pointer moves over: `groups` groups of `group_dies` consecutive dies (FDP's reclaim groups;
// one group of every die otherwise), each with `frontiers` frontiers (FrontierLayout::frontiers()).
struct PointerShape {
  uint32_t groups = 1, group_dies = 1, frontiers = 1;
};

class WritePointer {
 public:
  // one_die: the rule names the die of every frontier's next page (pointer_die, moved); else it leaves the die to
  // the writer and the per-page calls below cost no virtual call.
  explicit WritePointer(bool one_die) : one_die_(one_die) {}
  virtual ~WritePointer() = default;
  // The die of the group that takes the frontier's next page, or kInvalid: any die of the group may (a host page
  // the die the flush scheduler's round robin picks, a GC copy its own die or the one the GC unit sends it to).
  uint32_t next_die(uint32_t frontier, uint32_t group) const {
    return one_die_ ? pointer_die(frontier, group) : kInvalid;
  }
  // Does every frontier's next page have one die (next_die never kInvalid)?
  bool one_die() const { return one_die_; }
  // A page of the frontier was allocated on `die` (once per page programmed).
  void allocated(uint32_t die, uint32_t frontier) {
    if (one_die_) moved(die, frontier);
  }
  // Saves or loads the pointer's state (controller/snapshot).
  virtual void snapshot(SnapshotArchive& a) = 0;

 protected:
  // A rule that names the die (one_die): the die of the frontier's next page in the group, and the pointer moving
  // on after a page of the frontier was allocated on `die`.
  virtual uint32_t pointer_die(uint32_t /*frontier*/, uint32_t /*group*/) const { return kInvalid; }
  virtual void moved(uint32_t /*die*/, uint32_t /*frontier*/) {}

 private:
  const bool one_die_;
};

using WritePointerFactory = std::unique_ptr<WritePointer> (*)(const PointerShape&);

// A registered rule: its factory, and whether it needs lines (ftl.gc_unit=superblock: in block mode a die's
// block pool is its own, so pages cannot follow one pointer over the dies).
struct WritePointerEntry {
  WritePointerFactory make;
  bool needs_lines;
};

// per_die_pointer.cpp: each die fills its own block of a frontier.
std::unique_ptr<WritePointer> make_per_die_pointer(const PointerShape& shape);
// striped_pointer.cpp: one pointer per (group, frontier) moving over the group's dies, channel first (FEMU bbssd).
std::unique_ptr<WritePointer> make_striped_pointer(const PointerShape& shape);

// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
const WritePointerEntry& find_write_pointer(const std::string& name, const std::string& key);
std::vector<std::string> write_pointer_names();

}  // namespace ssdtlm
