// ftl.gc_unit as a policy object: the unit of allocation and garbage collection. Which blocks form a unit (its unit
// pool's shape: a die's block, or lines of blocks over a group of dies), what a die short of free units
// is, which die a page meant for a die goes to, and whether taking or freeing a unit concerns every die of its
// group. The block manager owns the one chosen (BlockParams::unit); the GC engine, the GC victims, the host page
// job and the timed FTL ask it, never a unit by name. Registered in gc_unit.cpp's table, whose names are the
// schema's choices (config_schema.cpp); FDP's reclaim units (fdp.enabled) are built by the assembly
// (ftl_assembly.cpp). A new unit is one file with its class and factory plus one line in the table; its blocks are
// those of a die, lines (gc/line_pool.h: groups of dies, depth blocks per die) or those of a unit pool of its own
// (unit_pool.h: one file with the shape's state, its allocation, closing and freeing, and the questions GC, the flush
// scheduler and the preconditioning ask), which shape() names (BlockParams::pool); the block manager needs no code.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

class BlockManager;
struct BlockParams;

// What a unit is built with: the victim policy of its lines (ftl.gc_victim, and its key for errors) and, for FDP's
// reclaim units, the reclaim groups and the blocks per die of a reclaim unit.
struct UnitConfig {
  std::string victim = "greedy", victim_key = "ftl.gc_victim";
  uint32_t groups = 1, depth = 1;
};

class GcUnit {
 public:
  // places_pages: the unit may send a page elsewhere than the die it is meant for (placed_die); else page_die
  // costs no virtual call (it runs once per page).
  explicit GcUnit(bool places_pages = false) : places_pages_(places_pages) {}
  virtual ~GcUnit() = default;
  // summary.json "ftl.gc_unit".
  virtual const char* name() const = 0;
  // Which blocks form the unit: lines (BlockParams::lines: their victim policy, groups and depth) or none, and the
  // unit pool its callers ask (BlockParams::pool: make_line_pool for lines; null: the block pool), the
  // free blocks (lines) host writes leave for GC (`gc_free_blocks`: the GC threshold), and the write pointer when
  // the unit fixes it.
  virtual void shape(BlockParams& b, uint32_t gc_free_blocks) const = 0;
  // Still short of free units on the die (below `threshold`) once the victims being collected are erased?
  // `pending`: the die's victims scanned or being erased.
  virtual bool short_of_free(const BlockManager& b, uint32_t die, uint32_t pending, uint32_t threshold) const = 0;
  // The die a page of `frontier` meant for `die` is programmed on (FDP: where the RU's write pointer is).
  uint32_t page_die(const BlockManager& b, uint32_t die, uint32_t frontier) const {
    return places_pages_ ? placed_die(b, die, frontier) : die;
  }
  // May page_die send a page elsewhere (a hot path may ask this once, at construction)?
  bool places_pages() const { return places_pages_; }
  // Does taking or freeing a unit change what every die of its group may take (FDP: a group's dies share its RUs)?
  virtual bool shared_by_group() const { return false; }

 protected:
  // A unit that places pages (places_pages): where a page of `frontier` meant for `die` goes.
  virtual uint32_t placed_die(const BlockManager&, uint32_t die, uint32_t) const { return die; }

 private:
  const bool places_pages_;
};

using GcUnitFactory = std::unique_ptr<GcUnit> (*)(const UnitConfig&);

// A registered unit: its factory, and whether its blocks form lines (the configuration's rules on lines:
// validation.cpp).
struct GcUnitEntry {
  GcUnitFactory make;
  bool lines;
};

std::unique_ptr<GcUnit> make_block_unit(const UnitConfig& c);       // block_unit.cpp
std::unique_ptr<GcUnit> make_superblock_unit(const UnitConfig& c);  // superblock_unit.cpp
std::unique_ptr<GcUnit> make_reclaim_unit(const UnitConfig& c);     // reclaim_unit.cpp (FDP)

// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
const GcUnitEntry& find_gc_unit(const std::string& name, const std::string& key);
std::vector<std::string> gc_unit_names();

}  // namespace ssdtlm
