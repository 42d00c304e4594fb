// Every configuration key the model knows, with type, default, range, unit and meaning.
// The README's "Configuration keys" table is generated from this list (ssdtlm-<platform> --help-config).
#include "common/config.h"

namespace ssdtlm {

const std::vector<KeySpec>& config_schema() {
  using T = KeyType;
  static const std::vector<KeySpec> keys = {
      // geometry
      {"geometry.channels", T::Int, 8, 1, 256, {}, "", "channels (independent NAND buses)"},
      {"geometry.dies_per_channel", T::Int, 8, 1, 64, {}, "", "dies (LUNs) sharing each channel bus"},
      {"geometry.planes_per_die", T::Int, 1, 1, 8, {}, "", "planes per die; the FTL programs and erases all planes of a die together (multi-plane)"},
      {"geometry.blocks_per_plane", T::Int, 160, 4, 1 << 20, {}, "", "erase blocks per plane"},
      {"geometry.pages_per_block", T::Int, 256, 2, 4096, {}, "", "pages per erase block"},
      {"geometry.page_bytes", T::Int, 8192, 4096, 65536, {}, "bytes", "flash page size; a multiple of the 4 KiB mapping unit"},
      {"geometry.over_provisioning", T::Real, 0.25, 0.001, 4.0, {}, "ratio", "physical/logical - 1; the logical capacity is derived from it"},
      // NAND and channel timing
      {"timing.t_read_us", T::Real, 60.0, 0.01, 1e5, {}, "us", "array read time tR"},
      {"timing.t_prog_us", T::Real, 700.0, 0.01, 1e6, {}, "us", "array program time tPROG"},
      {"timing.t_erase_us", T::Real, 3500.0, 0.01, 1e7, {}, "us", "block erase time tBERS"},
      {"timing.channel_mts", T::Real, 400.0, 1.0, 1e5, {}, "MT/s", "channel bus transfer rate"},
      {"timing.channel_width_bytes", T::Int, 1, 1, 8, {}, "bytes", "bytes moved per bus transfer"},
      {"timing.cmd_ns", T::Real, 20.0, 0.0, 1e5, {}, "ns", "command/address cycles on the bus per NAND operation"},
      {"timing.t_suspend_us", T::Real, 20.0, 0.0, 1e5, {}, "us", "flash.suspend: time for a die to suspend a program or erase before the read that interrupts it starts its tR"},
      {"timing.t_resume_us", T::Real, 20.0, 0.0, 1e5, {}, "us", "flash.suspend: time for a die to resume a suspended program or erase (added to its remaining array time)"},
      {"timing.page_read_us", T::String, "", 0, 0, {}, "us", "flash.cell mlc/tlc/qlc: tR per page type, comma-separated in wordline order (LSB, CSB, MSB, TSB), e.g. 50,70,110; empty = timing.t_read_us for every type"},
      {"timing.page_prog_us", T::String, "", 0, 0, {}, "us", "flash.cell mlc/tlc/qlc: tPROG per page type, comma-separated in wordline order, e.g. 500,2000,5000; empty = timing.t_prog_us for every type"},
      // flash-side hardware concurrency (docs/hardware.md)
      {"flash.suspend", T::String, "none", 0, 0, {"none", "program", "program_erase"}, "", "program/erase suspend: a read reaching the head of a die's queue while the die programs (program) or programs or erases (program_erase) suspends that operation, runs, and resumes it"},
      {"flash.max_suspends", T::Int, 8, 1, 1000000, {}, "", "flash.suspend: the most times one program or erase is suspended; later reads wait for it to end"},
      {"flash.die_sched", T::String, "fifo", 0, 0, {"fifo", "read_first"}, "", "order of a die's queue: fifo = arrival order; read_first = a queued read overtakes queued programs and erases (user, map and GC), at most flash.read_first_limit reads ahead of the oldest one"},
      {"flash.read_first_limit", T::Int, 8, 1, 1000000, {}, "reads", "read_first: reads that may overtake the oldest queued program or erase of a die; then it is served (no starvation)"},
      {"flash.cell", T::String, "slc", 0, 0, {"slc", "mlc", "tlc", "qlc"}, "", "bits per cell: page p of a block is page type p mod bits (LSB, CSB, MSB, TSB), with timing.page_read_us and timing.page_prog_us"},
      {"flash.multiplane", T::String, "always", 0, 0, {"always", "opportunistic", "never"}, "", "multi-plane operations (geometry.planes_per_die > 1): always = every operation works all planes of a die at once (one tR, tPROG, tBERS); opportunistic = as always, and a read joins the die's next queued reads on other planes whose page satisfies flash.plane_rule (their tR overlap); never = one plane at a time (a program or erase takes planes x tPROG or tBERS, a read one tR per plane it touches)"},
      {"flash.plane_rule", T::String, "same_page", 0, 0, {"same_page", "any"}, "", "flash.multiplane=opportunistic: the plane-address rule for combining: same_page = the same page offset in each plane's block; any = any pages"},
      {"flash.one_shot", T::Bool, false, 0, 0, {}, "", "mlc/tlc/qlc: one-shot programming: a wordline's pages take their data-in, then the last one programs the wordline in one tPROG (the largest of timing.page_prog_us); the others take no array time"},
      // NVMe front end and PCIe link
      {"nvme.link_mbps", T::Real, 3938.0, 1.0, 1e6, {}, "MB/s", "PCIe link bandwidth per direction (Gen3 x4 = 3938)"},
      {"nvme.link_latency_ns", T::Real, 500.0, 0.0, 1e7, {}, "ns", "one-way PCIe latency per transfer"},
      {"dram.mts", T::Real, 3200.0, 1.0, 1e5, {}, "MT/s", "controller DRAM transfer rate; bandwidth = dram.mts x dram.width_bytes, shared by host DMA, flash data-in/out and map lookups (docs/hardware.md)"},
      {"dram.width_bytes", T::Int, 4, 1, 64, {}, "bytes", "controller DRAM data bus width (4 = x32)"},
      {"dram.latency_ns", T::Real, 30.0, 0.0, 1e6, {}, "ns", "controller DRAM access latency (activate + CAS), added to every access after its transfer"},
      {"nvme.fetch_ns", T::Real, 20.0, 0.0, 1e6, {}, "ns", "controller time to fetch one submission entry (arbitration + 64 B)"},
      // firmware
      {"firmware.cores", T::Int, 1, 1, 64, {}, "", "FTL processor cores (each operation runs on the earliest free core)"},
      {"firmware.cmd_ns", T::Real, 300.0, 0.0, 1e7, {}, "ns", "FTL CPU time per host command"},
      {"firmware.flash_op_ns", T::Real, 100.0, 0.0, 1e7, {}, "ns", "FTL CPU time per NAND operation issued (incl. GC)"},
      // write buffer
      {"buffer.bytes", T::Int, 64ll << 20, 0, 1ll << 40, {}, "bytes", "DRAM write buffer capacity"},
      {"buffer.policy", T::String, "fifo", 0, 0, {}, "", "flush ordering policy (registered FlushPolicy name)"},
      {"buffer.max_age_ms", T::Real, 10000.0, 0.001, 1e7, {}, "ms", "hexa: a buffered unit older than this is flushed next, whatever its group (no starvation); keep it above the buffer's residence time (bytes / write rate), else hexa turns into fifo (map.buffer_aged_picks counts such picks). With streams: a stream whose oldest unit is older than this may flush a partial (padded) page (streams.aged_pages)"},
      {"buffer.high_watermark", T::Real, 0.9, 0.0, 1.0, {}, "ratio", "start flushing when the buffer is this full"},
      {"buffer.low_watermark", T::Real, 0.8, 0.0, 1.0, {}, "ratio", "stop flushing when the buffer is down to this"},
      // FTL
      {"ftl.mapping", T::String, "page", 0, 0, {"page", "dftl", "ptsd", "ptsd_entry"}, "", "mapping scheme: page = whole map in DRAM; dftl, ptsd, ptsd_entry = demand-based, translation pages on flash (docs/mapping.md)"},
      {"ftl.gc_victim", T::String, "greedy", 0, 0, {}, "", "GC victim policy (registered VictimPolicy name)"},
      {"ftl.gc_free_blocks", T::Int, 2, 2, 1 << 20, {}, "blocks", "per die: garbage collection runs while free blocks are below this"},
      {"ftl.gc_min_invalid", T::Real, 0.0, 0.0, 1.0, {}, "ratio", "GC collects a victim only if at least this fraction of its units is invalid, unless fewer than ftl.gc_urgent_free_blocks blocks (lines) are free (FEMU bbssd's background GC: 0.125); 0 = every victim"},
      {"ftl.gc_urgent_free_blocks", T::Int, 2, 1, 1 << 20, {}, "blocks", "with ftl.gc_min_invalid: below this many free blocks (lines) GC takes any victim (FEMU's forced GC); the spare must hold these, not ftl.gc_free_blocks"},
      {"ftl.die_queue_depth", T::Int, 2, 1, 64, {}, "ops", "buffer flush programs outstanding per die"},
      {"ftl.gc_unit", T::String, "block", 0, 0, {"block", "superblock"}, "", "block: each die is its own block pool, collected per die; superblock: a line of the same block on every die, written round-robin across dies and collected whole (FEMU bbssd; docs/streams.md)"},
      // map cache (demand-based mapping schemes)
      {"map.cache_bytes", T::Int, 0, 0, 1ll << 50, {}, "bytes", "DRAM for cached map entries; 0 = the whole map"},
      {"map.segment_bytes", T::Int, 8192, 512, 16384, {}, "bytes", "map segment (translation page) size: the unit cached, read and written back; at most a flash page"},
      {"map.entry_bytes", T::Int, 4, 1, 8, {}, "bytes", "bytes per map entry (one 4 KiB mapping unit)"},
      {"map.clean_fraction", T::Real, 0.5, 0.0, 1.0, {}, "ratio", "ptsd, ptsd_entry: share of the cache for the clean area, in (0, 1)"},
      {"map.protected_ratio", T::Real, 1.0, 0.001, 1.0, {}, "ratio", "page mapping: share of the map's segments that may be dirty in DRAM (capacitor-protected); a write beyond it first writes back a dirty segment (seed 000)"},
      {"map.dirty_victim", T::String, "greedy", 0, 0, {"greedy", "lru"}, "", "ptsd_entry: batch-update victim, the segment with the most dirty entries or the least recently updated"},
      // stream separation (docs/streams.md)
      {"streams.count", T::Int, 0, 0, 63, {}, "", "user streams besides the default stream 0 (0 = a single-stream SSD); each has its own write frontier per die"},
      {"streams.assign", T::String, "single", 0, 0, {}, "", "which stream a host write goes to (registered StreamPolicy name): single = stream 0; manual = the host's stream id, clamped to streams.count; autostream = AutoStream MQ over LBA chunks; hotcold = per-LPN host write count above streams.hot_threshold; pcstream = PCStream: program contexts clustered by measured data lifetime (docs/streams.md)"},
      {"streams.hot_threshold", T::Int, 10, 0, 2147483647.0, {}, "writes", "hotcold: an LPN whose host-write count exceeds this is hot (stream 1; with streams.count > 1, counts of (T+1)*2^k and more go to stream k+1)"},
      {"streams.autostream_chunk_bytes", T::Int, 1ll << 20, 4096, 1ll << 40, {}, "bytes", "autostream: LBA chunk whose update count decides the stream; a multiple of 4 KiB"},
      {"streams.gc_stream", T::String, "shared", 0, 0, {"shared", "per_stream", "hotcold"}, "", "where GC copies go: shared = one GC frontier per die; per_stream = the GC frontier of the stream the data was written in; hotcold = by the LPN's host-write count, as streams.assign=hotcold"},
      {"streams.gc_frontier", T::String, "own", 0, 0, {"own", "user"}, "", "own: GC copies go to GC frontiers of their own; user: GC stream k writes into user stream k's frontier (one write pointer per stream for host and GC data, as FEMU's bbssd and seed 004)"},
      {"streams.internal", T::String, "auto", 0, 0, {"auto", "true", "false"}, "", "internal (GC) streams, seed 002's two-phase assignment, with any streams.assign: true = data that survives GC moves to a GC frontier of its own per data stream (streams.gc_stream=per_stream, streams.gc_frontier=own); false = GC copies go back into their own stream's user frontier (per_stream, user); auto = streams.gc_stream and streams.gc_frontier decide. Refused with a contradicting non-default streams.gc_stream or streams.gc_frontier, and true with superblock GC and streams"},
      {"streams.pc_table_bytes", T::Int, 16384, 0, 1ll << 30, {}, "bytes", "pcstream: the PC-stream table that remembers program context -> stream (and lifetime estimate) across process restarts, 32 B per entry, least recently used evicted; 0 = no table"},
      {"streams.pcstream_recluster_units", T::Int, 65536, 1, 1ll << 40, {}, "units", "pcstream: host-written 4 KiB units between re-clusterings of the program contexts by lifetime (65536 = 256 MiB); a newly estimated PC takes the nearest cluster in between"},
      // controller scheduling
      {"sched.policy", T::String, "fifo", 0, 0, {"fifo", "read_priority"}, "", "read_priority: when the buffer must flush, stop writes, serve queued reads, then flush (seed 001)"},
      // host
      {"host.queues", T::Int, 8, 1, 1024, {}, "", "NVMe submission/completion queue pairs"},
      {"host.queue_depth", T::Int, 64, 1, 65536, {}, "", "outstanding commands per queue (closed loop)"},
      // workload
      {"workload.pattern", T::String, "random", 0, 0, {"random", "sequential", "trace"}, "", "address pattern, or replay of workload.trace_path"},
      {"workload.preset", T::String, "none", 0, 0, {"none", "jesd219"}, "", "jesd219: JEDEC enterprise endurance workload (sizes, alignment, zones; keeps read_fraction)"},
      {"workload.bssplit", T::String, "", 0, 0, {}, "", "fio bssplit size mix, e.g. 4k/70:64k/30 (empty = block_bytes)"},
      {"workload.block_align", T::Int, 0, 0, 1ll << 30, {}, "bytes", "fio blockalign: offset alignment (0 = the block size)"},
      {"workload.trim_fraction", T::Real, 0.0, 0.0, 1.0, {}, "ratio", "fraction of I/Os that are TRIM (dataset management deallocate)"},
      {"workload.trace_path", T::String, "", 0, 0, {}, "", "block trace to replay (pattern = trace)"},
      {"workload.trace_format", T::String, "disksim_ns", 0, 0, {"disksim", "disksim_ns", "mqsim", "msr", "blkparse", "fio_iolog", "csv"}, "", "trace file format (mqsim = disksim_ns)"},
      {"workload.trace_fit", T::String, "auto", 0, 0, {"auto", "error", "wrap", "scale", "shift"}, "", "requests beyond the device: error = stop, naming the first; wrap = fold back (offset mod capacity); scale = multiply every offset by capacity / trace span; shift = subtract the trace's lowest offset; auto = wrap when at most 1% of the requests would fold, else error"},
      {"workload.trace_devno", T::Int, -1, -1, 2147483647.0, {}, "", "replay only this device of a multi-device trace (msr DiskNumber, disksim devno); -1 = every device"},
      {"workload.trace_timing", T::String, "closed", 0, 0, {"closed", "open"}, "", "closed: keep queue depth, ignore timestamps; open: issue at the trace's timestamps"},
      {"workload.trace_time_scale", T::Real, 1.0, 1e-9, 1e9, {}, "ratio", "open loop: multiply trace times (0.5 = twice as fast)"},
      {"workload.trace_lenient", T::Bool, false, 0, 0, {}, "", "skip and count malformed trace lines instead of stopping"},
      {"workload.blkparse_event", T::String, "Q", 0, 0, {"Q", "D"}, "", "blkparse action that makes a request"},
      {"workload.read_fraction", T::Real, 0.0, 0.0, 1.0, {}, "ratio", "fraction of I/Os that are reads"},
      {"workload.distribution", T::String, "random", 0, 0, {}, "", "random address distribution, fio spelling: random, zipf:THETA, pareto:H, normal:DEV, zoned:A/S:..."},
      {"workload.stream_hint", T::String, "none", 0, 0, {"none", "zone"}, "", "stream id on each write command (NVMe streams directive): zone = a write drawn from zone i of a zoned: distribution carries stream i+1 (needs streams.assign=manual)"},
      {"workload.random_map", T::Bool, false, 0, 0, {}, "", "random: visit every block once per pass (fio's default) instead of independent picks"},
      {"workload.scatter", T::Bool, true, 0, 0, {}, "", "zipf/pareto/normal: scatter hot ranks over the range as fio does (false: hot = lowest addresses)"},
      {"workload.block_bytes", T::Int, 4096, 512, 64ll << 20, {}, "bytes", "request size"},
      {"workload.address_range", T::Int, 0, 0, 1ll << 52, {}, "bytes", "bytes of the namespace addressed from address_offset (0 = all the rest)"},
      {"workload.address_offset", T::Int, 0, 0, 1ll << 52, {}, "bytes", "first byte addressed (fio offset)"},
      {"workload.seed_offset", T::Int, 0, 0, 1 << 30, {}, "", "added to the job's random seed (jobs differ by their index by default)"},
      {"workload.io_count", T::Int, 1000000, 0, 1ll << 40, {}, "I/Os", "I/Os in the timed run (fio number_ios; 0 = no count limit: io_bytes or runtime_ms ends the job)"},
      {"workload.io_bytes", T::Int, 0, 0, 1ll << 60, {}, "bytes", "bytes transferred before the job ends (fio io_size x loops; 0 = no byte limit)"},
      {"workload.runtime_ms", T::Real, 0.0, 0.0, 1e12, {}, "ms", "simulated time the job issues I/O after its ramp (fio runtime; 0 = until io_count / io_bytes)"},
      {"workload.ramp_ms", T::Real, 0.0, 0.0, 1e12, {}, "ms", "warm-up: host statistics count I/Os completing after it (fio ramp_time); device counters cover the whole timed run"},
      {"workload.start_delay_ms", T::Real, 0.0, 0.0, 1e12, {}, "ms", "the job starts this late (fio startdelay)"},
      {"workload.stonewall", T::Bool, false, 0, 0, {}, "", "the job starts when every earlier job has finished (fio stonewall)"},
      {"workload.thinktime_us", T::Real, 0.0, 0.0, 1e12, {}, "us", "idle time after every thinktime_blocks completed I/Os (fio thinktime; 0 = none)"},
      {"workload.thinktime_blocks", T::Int, 1, 1, 1 << 20, {}, "I/Os", "I/Os issued, and completed, between think times (fio thinktime_blocks)"},
      {"workload.rate_iops", T::Real, 0.0, 0.0, 1e12, {}, "IOPS", "cap on the job's submissions per simulated second (fio rate_iops; 0 = none)"},
      {"workload.rate_mbps", T::Real, 0.0, 0.0, 1e9, {}, "MB/s", "cap on the job's bytes per simulated second, 10^6 B/s (fio rate; 0 = none)"},
      {"workload.zone_range", T::Int, 0, 0, 1ll << 52, {}, "bytes", "fio zonemode=strided: zone length; the job works in one zone at a time (0 = no zones)"},
      {"workload.zone_size", T::Int, 0, 0, 1ll << 52, {}, "bytes", "strided zones: bytes transferred in a zone before moving to the next (0 = zone_range)"},
      {"workload.zone_skip", T::Int, 0, 0, 1ll << 52, {}, "bytes", "strided zones: gap between the end of a zone and the start of the next"},
      {"workload.report_group", T::Int, -1, -1, 1 << 20, {}, "", "fio-json: jobs with the same group >= 0 are reported as one entry (fio group_reporting); -1 = its own entry"},
      {"jobs", T::Jobs, nlohmann::json::array(), 0, 0, {}, "", "several jobs in one run, each on its own queues: [{\"name\": \"a\", \"queues\": 2, \"read_fraction\": 1, ...}]; empty = one job from workload.* and host.*"},
      // preconditioning (functional fast-forward, no timing)
      {"precondition.fill", T::Bool, true, 0, 0, {}, "", "write the whole logical space sequentially first"},
      {"precondition.drive_writes", T::Real, 1.0, 0.0, 1000.0, {}, "drive writes", "then overwrite with the workload's write pattern this many times"},
      {"precondition.threads", T::Int, 0, 0, 1024, {}, "", "fast-forward worker threads, 0 = one per hardware thread (the result does not depend on it)"},
      // power loss and recovery (docs/power_loss.md)
      {"fault.power_loss_at_ms", T::String, "", 0, 0, {}, "ms", "power losses at these simulated instants, comma-separated (e.g. 20,35.5); each tears the flash operations in flight, saves what power.protected_bytes allows, recovers from flash and continues the workload (summary recovery.*)"},
      {"fault.power_loss_count", T::Int, 0, 0, 100000, {}, "", "also this many power losses at random instants, uniform in [0, fault.power_loss_window_ms) (instants after the run ends do not happen)"},
      {"fault.power_loss_window_ms", T::Real, 0.0, 0.0, 1e10, {}, "ms", "fault.power_loss_count: the span of simulated time the random instants are drawn from (required with a count)"},
      {"fault.power_loss_seed", T::Int, 1, 0, 9007199254740991.0, {}, "", "fault.power_loss_count: seed of the random instants"},
      {"power.protected_bytes", T::Int, 0, 0, 1ll << 44, {}, "bytes", "DRAM the capacitors can save to the dump area at a power loss, in this order: the write buffer's units (buffer.power_protected), the GTD, then dirty map segments (at most map.protected_ratio of the segments); 0 = as much as those need"},
      {"buffer.power_protected", T::Bool, true, 0, 0, {}, "", "the capacitors save the write buffer's unwritten units at a power loss; false = they are lost (recovery.lost_acknowledged_writes)"},
      // checks and statistics
      {"check.integrity", T::Bool, true, 0, 0, {}, "", "check every read against the last version written"},
      {"stats.lpn_writes", T::Bool, false, 0, 0, {}, "", "write lpn_writes.csv (lpn,writes) with every logical page's host write count"},
      {"stats.lifetimes", T::String, "auto", 0, 0, {"auto", "on", "all", "off"}, "", "per-stream data lifetime quartiles in summary.json: on = estimated from one logical unit in 8 (0.6 B per logical page), all = every unit (5 B, about 15 % more wall time on random writes); auto = on when streams.count > 0"},
      {"stats.interval_ms", T::Real, 100.0, 0.001, 1e9, {}, "ms", "simulated time per timeseries.csv row"},
      {"sim.max_memory_bytes", T::Int, 0, 0, 1ll << 60, {}, "bytes", "refuse (exit 2, before allocating) a configuration whose estimated model memory exceeds this; 0 = the machine's physical memory (summary memory.estimated_bytes)"},
      {"sim.seed", T::Int, 1, 0, 9007199254740991.0, {}, "", "random seed of the run"},
  };
  return keys;
}

}  // namespace ssdtlm
