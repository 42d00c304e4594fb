// The application models' files on a zoned namespace, as ZenFS places RocksDB's files (workload.app.placement=zns,
// docs/reference/placement.md): a file's data is appended at the write pointer of the active zone of its lifetime class
// (the app's stream hint: the WAL, L0, each level), one active zone per class, so a zone only ever holds one
// class's data; nothing is ever overwritten in place. A zone whose data are all dead (its files deleted) and
// that is full is reset at once (a trim of the whole zone, which the zoned namespace takes as the zone reset).
// Host-side zone GC (ZenFS's GC): when fewer than gc_free_zones zones are empty, the full zone with the fewest
// live units is collected: its live extents are read and appended to the GC class's active zone (the files'
// extents move there), and the zone is reset. Its copies are counted apart from the app's own writes.
// ZenFS's finish_threshold (finish_percent): a class's active zone left with less than that share of its capacity
// is finished (Zone Management Send Finish: full, its rest never written), so its class takes a new zone.
// Every operation is O(log n) in the zones and a file's extents (a collection is O(pieces moved)).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "workload/apps/file_layer.h"

namespace ssdtlm {

struct ZoneGeometry {
  uint64_t zones = 0, zone_units = 0, capacity_units = 0;  // the namespace's zones (4 KiB units)
  uint32_t max_active = 0;                                 // zns.max_active (0 = no limit)
};

// Counters of one lifetime class (and of the GC class).
struct ZoneClassStats {
  uint64_t written_units = 0;     // units appended (the app's writes, or GC copies for the GC class)
  uint64_t zones_opened = 0;      // zones this class made active
  uint64_t zones_reset = 0;       // zones of this class reset because their data all died
  uint64_t zones_collected = 0;   // zones of this class collected by GC (then reset)
  uint64_t gc_moved_units = 0;    // live units GC copied out of this class's zones
};

class ZoneStore {
 public:
  static constexpr uint16_t kGcClass = 0xFFFF;

  ZoneStore(const ZoneGeometry& g, uint32_t gc_free_zones, uint32_t finish_percent = 0);

  // The class a stream hint writes to: hint mod (max_active - 1) with an active-zone limit (one left for GC).
  uint16_t class_of(uint16_t hint) const;
  // Appends file units [offset, offset + units) (offset must be the file's written length: zones are written
  // sequentially) to class `cls`'s active zone(s); appends the LBA extents to out. Zones that fill up become full.
  // Throws FileLayerFull when no zone is empty.
  void append(FileId f, uint64_t offset, uint64_t units, uint16_t cls, std::vector<Extent>& out);
  // The LBA extents of written file units [offset, offset + units).
  void map(FileId f, uint64_t offset, uint64_t units, std::vector<Extent>& out) const;
  uint64_t written(FileId f) const;
  // The file is deleted: its units die; full zones left with nothing live are reset (their indices appended).
  void remove(FileId f, std::vector<uint64_t>& resets);

  // GC: when fewer than gc_free_zones zones are empty, the victim (the full zone with the fewest live units,
  // if it has any dead ones). collect() moves its live extents to the GC class: `reads` gets their old LBA
  // extents, `writes` their new ones (same order, same total), and the victim is reset (returned).
  bool gc_wanted() const;
  uint64_t collect(std::vector<Extent>& reads, std::vector<Extent>& writes);

  const ZoneGeometry& geometry() const { return g_; }
  uint64_t free_zones() const { return free_.size(); }
  uint64_t active_zones() const { return active_.size(); }
  uint64_t full_zones() const { return full_.size(); }
  uint64_t live_units() const { return live_; }
  uint64_t resets() const { return resets_; }
  uint64_t gc_runs() const { return gc_runs_; }
  uint64_t gc_units() const { return gc_units_; }
  const std::map<uint16_t, ZoneClassStats>& classes() const { return cls_stats_; }
  uint64_t zone_start(uint64_t z) const { return z * g_.zone_units; }
  // Zones finished (finish_percent) since the last call, in order: the caller sends their Finish.
  std::vector<uint64_t> take_finished() {
    std::vector<uint64_t> f;
    f.swap(finished_);
    return f;
  }
  uint64_t finishes() const { return finishes_; }
  // The class's active zone if it holds data (neither empty nor full), else kNoZone (ZenFS closes such a zone
  // when the file writing it is closed).
  static constexpr uint64_t kNoZone = ~uint64_t(0);
  uint64_t written_active_zone(uint16_t cls) const;
  // Invariants: every zone's live count equals the units of the pieces in it, live + dead = written;
  // "" or the first violation.
  std::string check() const;

 private:
  struct Zone {
    uint16_t cls = 0;
    bool used = false;     // active or full (else empty)
    bool finished = false; // full by a Finish, its write pointer short of the capacity
    uint64_t wp = 0;       // units written
    uint64_t live = 0;     // units of live file data
    std::set<std::pair<FileId, uint64_t>> pieces;  // (file, file offset of the piece)
  };
  struct Piece {
    uint64_t lba = 0, units = 0;
  };
  uint64_t take_zone(uint16_t cls);
  void kill(uint64_t zone, uint64_t units, std::vector<uint64_t>* resets);
  void reset(uint64_t zone);
  void set_full(uint64_t z);
  void place(FileId f, uint64_t offset, uint64_t units, uint16_t cls, std::vector<Extent>& out);

  bool full(const Zone& z) const { return z.finished || z.wp == g_.capacity_units; }
  void maybe_finish(uint16_t cls);

  ZoneGeometry g_;
  uint32_t gc_free_;
  uint64_t finish_units_ = 0;         // finish a zone with less than this left (0: never)
  std::vector<uint64_t> finished_;
  uint64_t finishes_ = 0;
  std::vector<Zone> zones_;
  std::set<uint64_t> free_;                           // empty zones, lowest first
  std::map<uint16_t, uint64_t> active_;               // class -> its active zone
  std::set<std::pair<uint64_t, uint64_t>> full_;      // (live units, zone) of full zones
  std::unordered_map<FileId, std::map<uint64_t, Piece>> files_;  // file -> its pieces by file offset
  std::unordered_map<FileId, uint64_t> written_;
  std::map<uint16_t, ZoneClassStats> cls_stats_;
  uint64_t live_ = 0, resets_ = 0, gc_runs_ = 0, gc_units_ = 0;
};

}  // namespace ssdtlm
