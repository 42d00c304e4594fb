// Every configuration rule that spans keys, or that checks a value against what other keys make of it.
// One function per rule family, named after what it checks; each throws ConfigError naming its key(s) and
// what was expected. read_params() (params.cpp) calls them in the order the model used to meet them.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/params.h"
#include "host/io_engine_cost.h"

namespace ssdtlm {

enum class StreamsInternal : uint8_t;  // streams.internal (config/choices.h)

// geometry.page_bytes (a multiple of 4 KiB), geometry.planes_per_die x geometry.page_bytes (at most
// kMaxUnitsPerPage units), the 32-bit physical address space, and geometry.over_provisioning (room for
// the logical share, `reserved_blocks_per_die` (ftl.gc_free_blocks + open blocks) and one block).
void check_geometry(const Geometry& g, uint32_t reserved_blocks_per_die);

// A zoned namespace's limits (NVMe ZNS: Maximum Open / Active Resources): zns.max_open at most zns.max_active,
// and from 1 to 63 (an open zone writes through one of the 64 user write streams; one is left to drain);
// zns.max_active at most the zones (0 = no limit); zns.zasl_bytes 0 or 2^n x 4 KiB; zns.zone_ext_bytes a
// multiple of 64.
void check_zns_limits(const ZnsParams& z, const ZnsLayout& l);
// A zone's blocks come from its capacity, not from the spare: the blocks a die's zones fill (zones of its die
// group x the blocks a zone fills per die, its capacity striped page by page) plus the reserve
// (`reserved_blocks_per_die`: the GC threshold, the GC frontier, a map frontier) and one block fit the die.
void check_zns_capacity(const ZnsLayout& l, const Geometry& g, uint32_t reserved_blocks_per_die);

// nvme.interface=register: pcie.lanes 1, 2, 4, 8 or 16, pcie.mps_bytes and pcie.mrrs_bytes powers of two,
// host.coalesce_time_us a multiple of 100 us (the feature's unit) up to 25,500; with nvme.interface=command, a pcie.*
// or host.* key of the register interface set away from its default is refused (it would change nothing).
void check_register_interface(const Config& c, const NvmeParams& p);
// nvme.interface=register with power.apst: the idle times of power.apst_idle_ms (or its default) as the NVMe APST
// table's whole milliseconds per transition (PowerParams::apst_itpt_ms), each from 1 to 2^24 - 1.
void check_register_apst(const PowerParams& p);
// nvme.interface=register with zns.enabled: the zone size a power of two (the driver refuses others, as Linux does).
void check_register_zones(const ZnsLayout& l, bool zns, bool register_interface);
// The host's per-I/O costs: host.engine's (model/host/io_engine_cost.h), else host.submit_ns and host.complete_ns;
// both set is an error naming the key.
EngineCostNs host_cost_ns(const Config& c);
// host.sq_priority other than medium (a job's, or the single job's) needs nvme.interface=register.
void check_queue_priorities(const std::vector<JobParams>& jobs, bool listed, bool register_interface);
// sim.quantum_ns applies with sim.timing=lt only.
void check_timing(const Config& c);
// cache.read_ahead_*: only with cache.read_ahead=sequential; its DRAM budget holds what it fetches at a time.
void check_read_ahead(const Config& c, const ReadAheadParams& ra, const Geometry& g);
// sim.converge_*: only with sim.converge on; sim.converge_metrics a non-empty list of known metrics.
void check_converge(const Config& c);

// timing.page_read_us, timing.page_prog_us, flash.one_shot against flash.cell: slc has one page type.
void check_page_types_for_cell(const std::string& cell, const std::string& page_read_us,
                               const std::string& page_prog_us, bool one_shot);

// fault.power_loss_window_ms > 0 when fault.power_loss_count draws instants from it.
void check_power_loss_window(uint64_t count, double window_ms);
// Power-loss instants (ps) that the run cannot tell apart (the same picosecond) are refused, not merged: in the
// list (fault.power_loss_at_ms; the same number listed twice is one power loss), among the random draws, or a
// draw on a listed instant (the first `listed`).
void check_power_loss_list_apart(const std::vector<uint64_t>& ps, const std::vector<double>& ms, const std::string& list);
void check_power_loss_draws_apart(const std::vector<uint64_t>& ps, size_t listed);
// fault.power_loss_at_ms / fault.power_loss_count need check.integrity=true.
void check_power_loss_needs_integrity(const std::vector<uint64_t>& instants, bool check_integrity);
// Power losses with zns.reset_erase=reset: refused (not supported yet).

// streams.autostream_chunk_bytes: a multiple of the 4 KiB mapping unit.
void check_stream_chunk(uint64_t chunk_bytes);
// streams.internal against streams.gc_stream and streams.gc_frontier set to other than their defaults.
void check_streams_internal(StreamsInternal internal, const std::string& gc_stream, const std::string& gc_frontier);
// streams.internal=true with ftl.gc_unit=superblock; streams.assign a registered policy; streams.count
// against streams.assign and streams.gc_stream=hotcold; buffer.policy=hexa with streams.
void check_streams(const StreamParams& s, StreamsInternal internal, bool superblock_gc, const std::string& buffer_policy);

// ftl.gc_urgent_free_blocks at most ftl.gc_free_blocks (with ftl.gc_min_invalid); superblock GC
// (ftl.gc_unit) against the free lines it needs, streams.gc_stream and a map on flash (ftl.mapping,
// map.protected_ratio).
void check_gc(const GcParams& gc, const FrontierLayout& layout, uint32_t dies);
// fdp.enabled: GC of whole reclaim units (check_gc calls it).
void check_fdp_gc(const GcParams& gc, const FrontierLayout& layout);
// reliability.reclaim_*: read reclaim (block victims) is refused with fdp.enabled.
void check_fdp_read_reclaim(bool fdp, bool reliability, uint32_t reclaim_reads, uint32_t reclaim_steps);
// slc.*: a native mode of several bits per cell, block GC, no zones or FDP, a static size when static.
void check_slc(const SlcParams& slc, const Geometry& g, const GcParams& gc, const StreamParams& streams,
               const FdpParams& fdp);
// slc.static_bytes: the static cache's blocks and the blocks that fold them fit the die's spare blocks (beside
// its data, `reserved_blocks_per_die` and one block of slack); the message gives the most it can be.
void check_slc_static(const SlcParams& slc, const Geometry& g, uint32_t reserved_blocks_per_die);
// Blocks per die the SLC cache keeps from data: static = its blocks and the TLC/QLC blocks a fold of them all
// needs; dynamic = one (the cache never takes more than the die can fold).
uint32_t slc_reserved_blocks(const SlcParams& slc, const Geometry& g, const GcParams& gc);

// ftl.gc_victim names a registered victim policy.
void check_victim_policy_name(const GcParams& gc);
// buffer.policy names a registered flush policy.
void check_flush_policy_name(const BufferParams& buffer);

// map.segment_bytes (a multiple of map.entry_bytes; at most a flash page when the map reaches flash),
// map.cache_bytes (0 or at least a segment; room in both PTSD areas), map.clean_fraction in (0, 1).
void check_map_cache(const MapCacheParams& p, const std::string& scheme, const Geometry& g);

// buffer.low_watermark at most buffer.high_watermark.
void check_buffer_watermarks(const FtlParams& f);
// buffer.bytes: at least one flash page and one request (workload.block_bytes).
void check_buffer_size(const BufferParams& b, const Geometry& g, uint64_t block_bytes);

// One job's workload against the device and the drive: workload.stream_hint=zone (streams.assign=manual; a
// synthetic zoned: distribution, not app or trace); workload.trace_path with workload.pattern=trace;
// workload.address_offset and workload.address_range within the logical capacity; workload.io_count,
// workload.io_bytes, workload.runtime_ms not all 0 (timed); workload.read_fraction + workload.trim_fraction
// at most 1; pattern=app: precondition.fill with workload.app.trim (timed), workload.app.max_io_bytes
// against buffer.bytes. `timed`: the job's timed workload (else its preconditioning writes).
// workload.app.placement against the namespace: fdp needs fdp.enabled and no workload.dataplacement; zns needs
// zns.enabled, an append-only app (lsm) and one host queue (a zone's writes reach the drive in issue order); an app
// on a zoned namespace needs placement=zns.
void check_app_placement(const WorkloadParams& w, bool fdp, bool zns, uint32_t host_queues);
void check_workload(const WorkloadParams& w, const std::string& streams_assign, uint64_t logical_bytes,
                    bool precondition_fill, uint64_t buffer_bytes, bool timed);
// The simulated time the job's pacing needs, at least, within SystemC's 2^64 ps: workload.start_delay_ms;
// workload.runtime_ms (with workload.ramp_ms); workload.thinktime_us, workload.rate_iops or workload.rate_mbps
// over the I/O count of a synthetic job (workload.io_count, or workload.io_bytes over its largest transfer)
// that nothing may stop early (`may_stop_early`: another job's workload.exit_what). The key named is
// `prefix` ("workload." or "jobs[j].") and the field, with fio's name of the option.
void check_job_time(const WorkloadParams& w, uint64_t logical_bytes, bool may_stop_early, const std::string& prefix);
// check_job_time for every job ("jobs[j]." when `jobs_listed`, else "workload."), each possibly stopped early when
// some job has workload.exit_what.
void check_jobs_time(const std::vector<JobParams>& jobs, bool jobs_listed, uint64_t logical_bytes);
// jobs[j].pattern=app cannot share the namespace with other jobs when the precondition writes their patterns.
// workload.wait_for names an earlier job.
void check_job_dependencies(const std::vector<JobParams>& jobs, bool jobs_listed);
void check_precondition_jobs(const std::vector<WorkloadParams>& jobs, bool jobs_listed);

// What a configuration allows but should not do without a word (printed on stderr before the run, silenced by
// --quiet): power.protected_bytes smaller than the write buffer that buffer.power_protected=true saves at a power
// loss (docs/reference/power_loss.md: the save stops where the budget ends, and acknowledged writes can be lost).
std::vector<std::string> config_warnings(const Config& c);

// power.budget_w and thermal.*: budgets that let the drive run (the idle floor plus one array operation),
// thresholds in order.
void check_power(const PowerParams& p, const ThermalParams& t, uint32_t dies);

}  // namespace ssdtlm
