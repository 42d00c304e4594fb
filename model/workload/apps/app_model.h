// The common interface of the application models (workload/apps/, docs/reference/apps.md) and what they share: the file
// layer, the request queue their file operations feed, process ids, and the write statistics the tests use.
//
// A model advances in steps. A step performs file operations (create, append, remove) and pushes the requests
// they cause onto AppIo's queue at once: so a trim of freed extents always precedes a later write that reuses
// them, whatever the interleaving of the model's concurrent activities (lanes). Every write carries the
// program context (pc) of the code path that issued it, the developer's manual stream hint, the process
// instance and its lane (proc_slot); a trim carries the process that deleted the file (pc 0, no hint).
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/rng.h"
#include "workload/apps/file_layer.h"
#include "workload/apps/zone_store.h"
#include "host/io_request.h"

namespace ssdtlm {

struct WriteOrigin {
  uint32_t pc = 0;
  uint16_t hint = 0;  // manual stream hint (0 = none)
  uint32_t proc = 0;
  uint16_t slot = 0;
  uint16_t run = 0;  // the app's run (gcc: build number from 1; 0 = none): IoRequest::run
};

// workload.app.placement: the app's writes carry only its stream hints, FDP placement identifiers, or go to zones.
enum class AppPlacement : uint8_t { None, Fdp, Zns };

// Parameters of every model (workload.app.* keys; docs/reference/apps.md has the defaults and why).
struct AppParams {
  std::string app = "lsm";
  double age_fraction = 0.9;
  uint64_t age_file_bytes = 1 << 20;
  uint64_t max_io_bytes = 128 << 10;
  double mixed_ratio = 0.5;
  ExtentAllocator::Fit allocation = ExtentAllocator::Fit::Best;  // workload.app.allocation: file data placement
  bool trim = true;  // the file system discards deleted files' extents (TRIM); false = mounted without discard
  double age_churn = 0;           // aging churn: aged files deleted and replaced, this many x the aged volume written
  double warmup_drive_writes = 0;  // the app runs this many x the logical capacity of writes before the measured run
  // lsm
  double lsm_db_fraction = 0.04;
  uint64_t lsm_memtable_bytes = 2 << 20;
  uint64_t lsm_table_bytes = 2 << 20;
  uint32_t lsm_fanout = 10;
  uint32_t lsm_l0_trigger = 4;
  uint64_t lsm_wal_write_bytes = 4096;
  double lsm_reads_per_write = 1.0;
  bool lsm_random_pick = false;  // lsm_compaction_pick=random (else round_robin)
  // sqlite
  double sqlite_db_fraction = 0.04;
  uint32_t sqlite_checkpoint_pages = 1000;
  double sqlite_miss_ratio = 0.1;
  // tpcc (InnoDB-like, tpcc_app.cpp)
  double tpcc_db_fraction = 0.04;
  uint64_t tpcc_pool_bytes = 128ull << 20;
  uint64_t tpcc_log_bytes = 96ull << 20;
  uint32_t tpcc_threads = 10;
  bool tpcc_doublewrite = true;
  // gcc
  uint32_t gcc_sources = 3000;
  uint64_t gcc_source_bytes = 16 << 10;
  uint32_t gcc_jobs = 8;
  uint32_t gcc_builds = 30;
  double gcc_modify_fraction = 1.0 / 3;
  uint32_t gcc_pcs = 24;
  uint64_t gcc_gap_ns = 0;  // idle time before every build after the first (workload.app.gcc_gap_ms)
  // cache (CacheLib-like flash cache, cache_app.h)
  double cache_fraction = 0.9;
  double cache_soc_fraction = 0.04;
  double cache_soc_write_share = 0.5;
  uint64_t cache_region_bytes = 1 << 20;
  bool cache_lru = false;
  double cache_reads_per_write = 1.0;
  AppPlacement placement = AppPlacement::None;  // workload.app.placement (docs/reference/placement.md)
  uint32_t fdp_rgs = 1, fdp_ruhs = 1;  // the device's FDP layout (fdp.reclaim_groups, fdp.ruhs)
  ZoneGeometry zones;                  // the device's zones (zns.*)
  uint32_t zone_gc_free_zones = 4;     // workload.app.zone_gc_free_zones
  uint32_t zone_finish_percent = 0;    // workload.app.zone_finish_threshold (ZenFS finish_threshold)
  bool zone_close = false;             // workload.app.zone_close (ZenFS closes a zone when its file is closed)
  uint64_t seed = 1;
};

// The shared state of the models of one run.
class AppIo {
 public:
  AppIo(uint64_t total_units, uint32_t max_io_units) : fs(total_units), max_io_units_(max_io_units) {}

  FileLayer fs;
  std::deque<IoRequest> out;  // requests not yet handed to the host

  // A file written before the timed run (aged files, the app's initial files): the precondition writes it.
  FileId layout_file(uint64_t units, const WriteOrigin& o);
  // Requests for file units [offset, offset + units): split at extent boundaries and max_io_units.
  void write(FileId f, uint64_t offset, uint64_t units, const WriteOrigin& o);
  void read(FileId f, uint64_t offset, uint64_t units, const WriteOrigin& o);
  // Deletes the file and trims its extents (unless trims are off: the device then learns of the death only
  // when the extents are reused and overwritten).
  void remove(FileId f, const WriteOrigin& o);
  // The app closed file f, written with origin o (zns with zone_close: ZenFS closes the zone it was writing,
  // Zone Management Send Close, when that zone holds data and is not full).
  void close(FileId f, const WriteOrigin& o);
  // Creates a file of `units` and writes it whole.
  FileId create_written(uint64_t units, const WriteOrigin& o);
  uint32_t new_proc() { return ++procs_; }
  // The next request pushed carries an idle gap of ns before it (IoRequest::idle_ns): the app pauses.
  void idle_before_next(uint64_t ns) { idle_ns_ += ns; }
  uint16_t new_slots(uint16_t n) {  // reserves n lanes; returns the first
    const uint16_t first = uint16_t(slots_ + 1);
    slots_ = uint16_t(slots_ + n);
    return first;
  }

  // The layout writes, in order (precondition).
  struct LayoutFile {
    FileId f;
    WriteOrigin o;
  };
  const std::vector<LayoutFile>& layout() const { return layout_; }
  uint64_t layout_units() const { return layout_units_; }

  // Statistics of the requests pushed (timed run).
  std::unordered_map<uint32_t, uint64_t> written_by_pc;    // units
  std::unordered_map<uint16_t, uint64_t> written_by_hint;  // units
  uint64_t written_units = 0, read_units = 0, trimmed_units = 0;
  uint32_t max_io_units() const { return max_io_units_; }
  bool trim = true;
  // Starts the statistics afresh (the timed run after the aging and the warm-up).
  void reset_stats() {
    written_by_pc.clear();
    written_by_hint.clear();
    written_units = read_units = trimmed_units = 0;
    gc_read_units = gc_written_units = zone_resets = gc_runs = zone_finishes = zone_closes = 0;
  }

  // Placement (workload.app.placement): fdp puts on every write the FDP placement identifier of RUH
  // (hint mod ruhs), reclaim groups taken round robin per write; zns places the files in zones (ZoneStore:
  // ZenFS-like, zone resets and host-side zone GC, whose copies are counted apart from the app's writes).
  void place_fdp(uint32_t rgs, uint32_t ruhs) { fdp_rgs_ = rgs, fdp_ruhs_ = ruhs; }
  void place_in_zones(const ZoneGeometry& g, uint32_t gc_free_zones, uint32_t finish_percent = 0, bool close = false) {
    zones = std::make_unique<ZoneStore>(g, gc_free_zones, finish_percent);
    zone_close_ = close;
  }
  std::unique_ptr<ZoneStore> zones;  // null unless zns
  uint64_t gc_read_units = 0, gc_written_units = 0, zone_resets = 0, gc_runs = 0;  // host-side zone GC (timed run)
  uint64_t zone_finishes = 0, zone_closes = 0;  // Zone Management Send Finish and Close issued (timed run)

 private:
  void push(IoOp op, const std::vector<Extent>& ext, const WriteOrigin& o, uint32_t max_units, bool host_gc = false);
  void zone_gc();
  void reset_zone(uint64_t z, const WriteOrigin& o);
  void zone_command(uint64_t z, ZoneAction a, const WriteOrigin& o);  // a Zone Management Send of zone z
  void send_finishes(const WriteOrigin& o);                          // the zones the store finished
  bool zone_close_ = false;
  uint32_t max_io_units_;
  uint32_t fdp_rgs_ = 0, fdp_ruhs_ = 0, fdp_next_rg_ = 0;
  uint32_t procs_ = 0;
  uint16_t slots_ = 0;
  uint64_t idle_ns_ = 0;  // idle_before_next: for the next request pushed
  std::vector<LayoutFile> layout_;
  uint64_t layout_units_ = 0;
  std::vector<Extent> scratch_;
};

// Fair interleaving of an app's concurrent activities (client thread, flush, compaction; make -j slots):
// each lane is a queue of steps; the runnable lane that has issued the fewest bytes runs next, and a lane
// that becomes busy again starts level with the others (no catch-up burst).
class Lanes {
 public:
  using Step = std::function<void()>;
  explicit Lanes(size_t n) : lanes_(n) {}
  void push(size_t lane, Step s);
  bool idle(size_t lane) const { return lanes_[lane].steps.empty(); }
  bool all_idle() const;
  // Runs one step of the lane chosen (blocked[lane] lanes are skipped); false when no lane can run.
  bool run_one(AppIo& io, const std::vector<bool>* blocked = nullptr);
  size_t size() const { return lanes_.size(); }

 private:
  struct Lane {
    std::deque<Step> steps;
    uint64_t vbytes = 0;
  };
  std::vector<Lane> lanes_;
};

class AppModel {
 public:
  virtual ~AppModel() = default;
  virtual const char* name() const = 0;
  // Runs one step (its requests go to io.out); false when the app has finished (gcc after its builds).
  virtual bool step() = 0;
  virtual WorkProgress progress() const { return WorkProgress{0, 0, "app steps"}; }
  // Units this app's files may occupy at most (for the out-of-space message).
  virtual uint64_t footprint_units() const = 0;
  // Warm-up (workload.app.warmup_drive_writes): start_warmup() before the first step lifts the app's own end
  // (gcc's build count); the warm-up ends at a step after which between_runs() (gcc: no build in progress);
  // start_measuring() then starts the measured run (gcc: gcc_builds builds from here).
  virtual void start_warmup() {}
  virtual bool between_runs() const { return true; }
  virtual void start_measuring() {}
};

// PC ranges (docs/reference/apps.md): lsm 1000-1099, sqlite 2000-2099, gcc 3000-3199, tpcc 4000-4099, cache 5000-5099, aged files 0 (no program).
constexpr uint32_t kLsmPc = 1000, kSqlitePc = 2000, kGccPc = 3000, kTpccPc = 4000, kCachePc = 5000;

std::unique_ptr<AppModel> make_lsm_app(AppIo& io, const AppParams& p, uint64_t seed);
std::unique_ptr<AppModel> make_sqlite_app(AppIo& io, const AppParams& p, uint64_t seed);
std::unique_ptr<AppModel> make_tpcc_app(AppIo& io, const AppParams& p, uint64_t seed);
std::unique_ptr<AppModel> make_gcc_app(AppIo& io, const AppParams& p, uint64_t seed);
std::unique_ptr<AppModel> make_cache_app(AppIo& io, const AppParams& p, uint64_t seed);

}  // namespace ssdtlm
