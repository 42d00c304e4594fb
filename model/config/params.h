// The typed parameter tree: every configuration key read once, at the edge, into the structs the modules
// take. read_params() reads the keys (params.cpp) and checks every rule that spans keys (validation.cpp);
// after it, nothing below the runner reads a key by its name.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/choices.h"
#include "config/config.h"
#include "controller/block_manager.h"
#include "controller/dram.h"
#include "controller/ftl.h"
#include "controller/mapping/map_cache.h"
#include "controller/nvme_controller.h"
#include "controller/power_loss/power_loss.h"
#include "host/converge_params.h"
#include "controller/slc/slc_cache.h"
#include "flash/reliability/rber_model.h"
#include "controller/placement/fdp.h"
#include "controller/streams/streams.h"
#include "flash/channel.h"
#include "flash/flash_params.h"
#include "flash/geometry.h"
#include "host/completion_log.h"
#include "power/power_params.h"
#include "workload/workload_factory.h"

namespace ssdtlm {

// The keys a module still needs by name: the policy registries name them in their errors (validation.cpp
// refuses an unknown name before a module is built, so these only label).
namespace keys {
constexpr const char* kGcVictim = "ftl.gc_victim";
constexpr const char* kGcPacing = "ftl.gc_pacing";
constexpr const char* kWritePointer = "ftl.write_pointer";
constexpr const char* kGcUnit = "ftl.gc_unit";
constexpr const char* kBufferPolicy = "buffer.policy";
constexpr const char* kMapping = "ftl.mapping";
constexpr const char* kStreamAssign = "streams.assign";
}  // namespace keys

// ftl.gc_* : when garbage collection runs and what it may collect.
struct GcParams {
  std::string victim = "greedy";      // ftl.gc_victim (a registered VictimPolicy)
  uint32_t free_blocks = 2;           // ftl.gc_free_blocks: per die, GC runs below this
  double min_invalid = 0;             // ftl.gc_min_invalid: a victim's least invalid share (0 = any)
  uint32_t urgent_free_blocks = 2;    // ftl.gc_urgent_free_blocks: below this, any victim
  std::string unit = "block";         // ftl.gc_unit (a registered GcUnit, gc/gc_unit.h)
  bool superblock = false;            // its blocks form lines (GcUnitEntry::lines: superblock)
  std::string write_pointer = "per_die";  // ftl.write_pointer (a registered WritePointer, gc/write_pointer.h)
  std::string pacing = "credit";      // ftl.gc_pacing (gc/gc_pacing.h)
  uint32_t wear_level_spread = 0;     // ftl.wear_level_spread: static wear levelling past this spread (0 = off)
  bool fdp = false;                   // fdp.enabled: GC reclaims whole reclaim units (lines within reclaim groups)
  // Blocks per die kept from data: with gc_min_invalid only the urgent ones.
  uint32_t kept_free_blocks() const { return min_invalid > 0 ? urgent_free_blocks : free_blocks; }
};

// buffer.* not in FtlParams: the flush policy and its capacity in bytes.
struct BufferParams {
  uint64_t bytes = 64ull << 20;  // buffer.bytes
  std::string policy = "fifo";   // buffer.policy (a registered FlushPolicy)
};

// ftl.mapping with map.*: the scheme and its cache.
struct MapParams {
  std::string scheme = "page";   // ftl.mapping
  MapCacheParams cache;          // map.*
  bool pages_on_flash = false;   // translation pages written to flash (map_on_flash)
};

// precondition.*
struct PreconditionParams {
  bool fill = true;
  double drive_writes = 0;
  unsigned threads = 0;
  // Preconditioned-drive snapshots (controller/snapshot): precondition.snapshot_dir (empty = off),
  // precondition.snapshot, and the key: the configuration the preconditioning reads.
  std::string snapshot_dir, snapshot_key;
  SnapshotMode snapshot_mode = SnapshotMode::Auto;
  bool any() const { return fill || drive_writes > 0; }
  bool snapshots() const { return any() && !snapshot_dir.empty() && snapshot_mode != SnapshotMode::Off; }
};

// fault.* : the power-loss schedule and what the capacitors protect.
struct FaultParams {
  std::vector<uint64_t> power_loss_ps;  // fault.power_loss_at_ms and fault.power_loss_count, sorted instants
  PowerLossParams recovery;             // power.*, buffer.power_protected, map.protected_ratio, firmware.*
};

// stats.*
struct StatsParams {
  uint64_t interval_ps = 0;       // stats.interval_ms
  bool lpn_writes = false;        // stats.lpn_writes
  // stats.lifetimes: StreamParams::lifetimes (streams.h)
};

// sim.* and check.*
struct SimParams {
  uint64_t seed = 0;              // sim.seed
  uint64_t max_memory_bytes = 0;  // sim.max_memory_bytes (0 = the machine's memory)
  bool check_integrity = false;   // check.integrity
  bool loosely_timed = false;     // sim.timing=lt
  uint64_t quantum_ps = 0;        // sim.quantum_ns (0 with sim.timing=at)
  ConvergeParams converge;        // sim.converge*
};

// One host job (a "jobs" entry, or workload.* and host.* without jobs).
struct JobParams {
  std::string name;
  uint32_t queues = 1, queue_depth = 1;  // host.queues, host.queue_depth
  uint8_t sq_priority = 2;               // host.sq_priority: 0 urgent, 1 high, 2 medium, 3 low (QPRIO)
  bool open_loop = false;                // a trace replayed at its own times (workload.trace_timing=open)
  int64_t report_group = 0;              // workload.report_group
  WorkloadParams workload;               // workload.* with the job's overrides (and its seed_offset)
  IoLogParams log;                       // workload.log_*: fio's log files
};

struct Params {
  Geometry geometry;             // geometry.* (derived; validated with the reserved blocks below)
  uint32_t reserved_blocks_per_die = 0;
  FlashParams flash;             // timing.* and flash.*
  SlcParams slc;                 // slc.* (its timing.slc_* in flash.slc)
  ReliabilityParams reliability; // reliability.*
  ChannelParams bus;             // timing.channel_*, timing.cmd_ns
  FtlParams ftl;                 // firmware.*, buffer watermarks, ftl.die_queue_depth, sched.policy
  GcParams gc;
  BufferParams buffer;
  MapParams map;
  StreamParams streams;          // streams.*
  FdpParams fdp;                 // fdp.* (the streams above carry it out)
  FrontierLayout frontiers;      // write frontiers of every die, from streams and map
  NvmeParams nvme;               // nvme.* (queues: the host's)
  DramParams dram;               // dram.*
  PowerParams power;             // power.* (energy, budget, power states; power.protected_bytes is in fault)
  ThermalParams thermal;         // thermal.*
  uint32_t host_queues = 1, host_queue_depth = 1;  // host.* outside the jobs
  struct HostCost {
    uint64_t submit_ps = 0, complete_ps = 0;  // host.submit_ns, host.complete_ns
  } host_cost;
  std::vector<JobParams> jobs;   // at least one
  bool jobs_listed = false;      // the configuration has a "jobs" array (else one job of workload.*, host.*)
  PreconditionParams precondition;
  // The jobs' write patterns for preconditioning (their own workload.seed_offset, not the job index).
  std::vector<WorkloadParams> precondition_workloads;
  FaultParams fault;
  StatsParams stats;
  SimParams sim;
};

// Reads every key of `c` and checks every cross-key rule; ConfigError naming the key(s) otherwise.
Params read_params(const Config& c);

// Builders of one part, for tests and tools; each checks the rules of its keys.
Geometry read_geometry(const Config& c, uint32_t reserved_blocks_per_die);
FlashParams read_flash_params(const Config& c);
// reliability.*: the RBER model and the ECC ladder (the lists checked).
ReliabilityParams read_reliability_params(const Config& c);
// slc.*: the cache's mode and size (bits per cell from flash.cell).
SlcParams read_slc_params(const Config& c);
ChannelParams read_channel_params(const Config& c);
FtlParams read_ftl_params(const Config& c);
GcParams read_gc_params(const Config& c);
MapCacheParams read_map_cache_params(const Config& c, const Geometry& g);
MapParams read_map_params(const Config& c, const Geometry& g);
StreamParams read_stream_params(const Config& c);
NvmeParams read_nvme_params(const Config& c);
DramParams read_dram_params(const Config& c);
PowerParams read_power_params(const Config& c);      // power_config.cpp
ThermalParams read_thermal_params(const Config& c);  // power_config.cpp
PowerLossParams read_power_loss_params(const Config& c);
ConvergeParams read_converge_params(const Config& c);  // sim.converge*
std::vector<uint64_t> read_power_loss_instants(const Config& c);
std::vector<JobParams> read_job_params(const Config& c);
AppParams read_app_params(const Config& c);
WorkloadParams read_workload_params(const Config& c);
// workload.log_* of one job's view; a log name with a directory in it is a ConfigError naming the key.
IoLogParams read_log_params(const Config& c, const std::string& prefix = "workload.");

// Reads workload.* of `c` (one job), checks its rules against the device (logical_bytes) and builds it.
std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition);

// The snapshot key of a configuration (snapshot_key.cpp): "key=value" lines of every key the preconditioning
// reads, the trace files it replays (size and content hash) and `build` (the binary's version).
std::string precondition_snapshot_key(const Config& c, const Params& p, const std::string& build);

}  // namespace ssdtlm
