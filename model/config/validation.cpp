// Cross-key rules. The messages are the ones the model gave before the parameter tree (tests pin them):
// a key named in quotes, what was expected, what was got.
#include "config/validation.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "config/choices.h"
#include "controller/buffer/flush_policy.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/write_pointer.h"
#include "controller/gc/victim_policy.h"
#include "controller/streams/stream_policy.h"
#include "common/text.h"
#include "common/units.h"

namespace ssdtlm {

namespace {
[[noreturn]] void fail(const std::string& key, const std::string& what) { throw ConfigError("key '" + key + "': " + what); }

// A registered name, or the registry's own error (make_* throws naming the key and the known names).
bool known(const std::vector<std::string>& names, const std::string& name) {
  for (auto& n : names)
    if (n == name) return true;
  return false;
}

// Blocks of a die its share of the logical capacity fills.
uint64_t data_blocks_per_die(const Geometry& g) {
  const uint64_t per_die = g.logical_units / g.dies;
  return (per_die + g.units_per_block - 1) / g.units_per_block;
}
}  // namespace

void check_geometry(const Geometry& g, uint32_t reserved_blocks_per_die) {
  if (g.page_bytes % kUnitBytes)
    throw ConfigError("key 'geometry.page_bytes': expected a multiple of the 4 KiB (4096-byte) mapping unit, got " +
                      format_bytes(g.page_bytes));
  if (g.units_per_page > kMaxUnitsPerPage)
    throw ConfigError("keys 'geometry.planes_per_die' x 'geometry.page_bytes': a multi-plane page of " +
                      format_bytes(uint64_t(g.units_per_page) * kUnitBytes) + " exceeds the model's limit of " +
                      format_bytes(uint64_t(kMaxUnitsPerPage) * kUnitBytes));
  if (g.physical_units >= kInvalid)
    throw ConfigError("keys 'geometry.channels' x 'geometry.dies_per_channel' x 'geometry.planes_per_die' x "
                      "'geometry.blocks_per_plane' x 'geometry.pages_per_block' x 'geometry.page_bytes': " +
                      std::to_string(g.physical_units) +
                      " physical 4 KiB units exceed the 32-bit physical address space (16 TiB)");
  // Room for GC: a die must hold its logical share plus the reserved blocks plus at least one block of slack.
  const uint64_t data_blocks = data_blocks_per_die(g);
  const uint64_t needed = data_blocks + reserved_blocks_per_die + 1;
  if (needed > g.blocks_per_die)
    throw ConfigError("key 'geometry.over_provisioning': " + std::to_string(g.over_provisioning) + " leaves " +
                      std::to_string(int64_t(g.blocks_per_die) - int64_t(data_blocks)) +
                      " spare blocks per die; garbage collection needs at least " +
                      std::to_string(reserved_blocks_per_die + 1) +
                      " (ftl.gc_free_blocks + open blocks + 1, and the SLC cache's blocks with slc.*): raise "
                      "over_provisioning or blocks_per_plane (or lower slc.static_bytes)");
}

void check_zns_limits(const ZnsParams& z, const ZnsLayout& l) {
  if (z.max_active && z.max_open > z.max_active)
    fail("zns.max_open", "expected at most zns.max_active (" + std::to_string(z.max_active) + "), got " + std::to_string(z.max_open));
  if (z.max_open == 0 || z.max_open >= ZnsLayout::kSlots)
    fail("zns.max_open", "expected 1 to " + std::to_string(ZnsLayout::kSlots - 1) + " open zones (each open zone writes through one of the " +
                             std::to_string(ZnsLayout::kSlots) + " user write streams, one left to drain; zns.max_active may be larger), got " +
                             std::to_string(z.max_open));
  const uint64_t zasl = z.zasl_bytes / kUnitBytes;
  if (z.zasl_bytes % kUnitBytes || (zasl & (zasl - 1)))
    fail("zns.zasl_bytes", "expected 0 or a power of two times 4 KiB (NVMe ZASL: 2^n minimum memory pages), got " +
                               format_bytes(z.zasl_bytes));
  if (z.zone_ext_bytes % 64)
    fail("zns.zone_ext_bytes", "expected a multiple of 64 bytes (NVMe ZDES counts 64-byte units), got " +
                                   std::to_string(z.zone_ext_bytes));
  if (z.max_active > l.zones.zones)
    fail("zns.max_active", "expected at most the namespace's " + std::to_string(l.zones.zones) + " zones (0 = no limit), got " +
                               std::to_string(z.max_active));
}

void check_zns_capacity(const ZnsLayout& l, const Geometry& g, uint32_t reserved_blocks_per_die) {
  const uint64_t pages = l.zones.capacity_units / g.units_per_page;                    // a zone's writable pages
  const uint64_t per_die = (pages + l.group_dies - 1) / l.group_dies;                 // on its busiest die
  const uint64_t blocks = (per_die + g.pages_per_block - 1) / g.pages_per_block;      // blocks it fills there
  const uint64_t zones = (l.zones.zones + l.groups - 1) / l.groups;                   // zones of a die group
  const uint64_t need = zones * blocks + reserved_blocks_per_die + 1;
  if (need > g.blocks_per_die)
    fail("zns.zone_capacity_bytes", std::to_string(zones) + " zones per die group of " + std::to_string(blocks) +
                                        " blocks per die each (capacity " + format_bytes(l.zones.capacity_units * kUnitBytes) +
                                        " over " + std::to_string(l.group_dies) + " dies) and " +
                                        std::to_string(reserved_blocks_per_die + 1) + " reserved blocks need " + std::to_string(need) +
                                        " blocks per die, the die has " + std::to_string(g.blocks_per_die) +
                                        ": use a zone capacity of whole blocks per die (zns.zone_capacity_bytes, zns.zone_bytes) or "
                                        "raise geometry.over_provisioning");
}

void check_timing(const Config& c) {
  if (!parse_choice(choices::kSimTiming, c, "sim.timing") && c.d("sim.quantum_ns") != find_key("sim.quantum_ns")->def.get<double>())
    fail("sim.quantum_ns", "applies with sim.timing=lt only (sim.timing is at)");
  if (parse_choice(choices::kSlcMode, c, "slc.mode") == SlcMode::None && c.d("slc.fold_idle_us") != 0)
    fail("slc.fold_idle_us", "applies with an SLC cache only (slc.mode is none)");
}

void check_read_ahead(const Config& c, const ReadAheadParams& ra, const Geometry& g) {
  static const char* const kKeys[] = {"cache.read_ahead_trigger", "cache.read_ahead_pages", "cache.read_ahead_bytes"};
  if (!ra.sequential) {
    for (const char* k : kKeys)
      if (c.u(k) != find_key(k)->def.get<uint64_t>()) fail(k, "applies with cache.read_ahead=sequential only (cache.read_ahead is none)");
    return;
  }
  const uint64_t span_bytes = uint64_t(ra.pages ? ra.pages : g.dies) * g.units_per_page * kUnitBytes;
  if (ra.bytes < span_bytes)
    fail("cache.read_ahead_bytes", format_bytes(ra.bytes) + " cannot hold what cache.read_ahead_pages fetch at a time (" +
                                       format_bytes(span_bytes) + "): raise it or lower cache.read_ahead_pages");
}

void check_converge(const Config& c) {
  static const char* const kKeys[] = {"sim.converge_rel_ci", "sim.converge_confidence", "sim.converge_batch_ios",
                                      "sim.converge_min_batches", "sim.converge_batch_erase_share", "sim.converge_min_gc_cycles"};
  if (parse_choice(choices::kSimConverge, c, "sim.converge") == ConvergeParams::Mode::Off) {
    for (const char* k : kKeys)
      if (c.d(k) != find_key(k)->def.get<double>()) fail(k, "applies with sim.converge=report or stop only (sim.converge is off)");
    if (c.s("sim.converge_metrics") != find_key("sim.converge_metrics")->def.get<std::string>())
      fail("sim.converge_metrics", "applies with sim.converge=report or stop only (sim.converge is off)");
  }
  const std::vector<std::string> names = split(c.s("sim.converge_metrics"), ',');
  for (const std::string& m : names)
    if (m != "iops" && m != "latency_mean" && m != "latency_p99" && m != "waf")
      fail("sim.converge_metrics", "unknown metric '" + m + "' (expected a comma-separated list of iops, latency_mean, latency_p99, waf)");
  if (names.empty()) fail("sim.converge_metrics", "names no metric (expected a comma-separated list of iops, latency_mean, latency_p99, waf)");
}

EngineCostNs host_cost_ns(const Config& c) {
  const std::string engine = c.s("host.engine");
  const auto cost = io_engine_cost(engine);
  if (!cost) return {c.d("host.submit_ns"), c.d("host.complete_ns")};
  for (const char* k : {"host.submit_ns", "host.complete_ns"})
    if (c.d(k) != 0) fail(k, "set with host.engine=" + engine + ", which gives the host's costs; set one or the other");
  return *cost;
}

void check_register_interface(const Config& c, const NvmeParams& p) {
  static const char* const kRegisterKeys[] = {"pcie.generation", "pcie.lanes", "pcie.mps_bytes", "pcie.mrrs_bytes",
                                              "host.interrupt_ns",
                                              "host.coalesce_threshold", "host.coalesce_time_us",
                                              "nvme.arbitration_burst", "nvme.max_commands", "zns.zone_ext_bytes"};
  static const char* const kWeights[] = {"nvme.wrr_high_weight", "nvme.wrr_medium_weight", "nvme.wrr_low_weight"};
  if (!p.register_interface) {
    for (const char* k : kRegisterKeys)
      if (c.d(k) != find_key(k)->def.get<double>())
        fail(k, "applies with nvme.interface=register only (nvme.interface is command)");
    if (p.wrr) fail("nvme.arbitration", "applies with nvme.interface=register only (nvme.interface is command)");
  }
  if (!p.wrr)
    for (const char* k : kWeights)
      if (c.d(k) != find_key(k)->def.get<double>()) fail(k, "applies with nvme.arbitration=wrr only (it is rr)");
  if (!p.register_interface) return;
  const uint32_t b = p.arbitration_burst;
  if (b & (b - 1))
    fail("nvme.arbitration_burst", "expected 1, 2, 4, 8, 16, 32, 64 or 0 (no limit), got " + std::to_string(b));
  const auto pow2 = [](uint32_t v) { return v && !(v & (v - 1)); };
  if (!pow2(p.pcie.lanes)) fail("pcie.lanes", "expected 1, 2, 4, 8 or 16, got " + std::to_string(p.pcie.lanes));
  if (!pow2(p.pcie.mps)) fail("pcie.mps_bytes", "expected a power of two, got " + format_bytes(p.pcie.mps));
  if (!pow2(p.pcie.mrrs)) fail("pcie.mrrs_bytes", "expected a power of two, got " + format_bytes(p.pcie.mrrs));
  const double units = p.coalesce_time_us / 100;
  if (units != double(uint64_t(units)))
    fail("host.coalesce_time_us", "expected a multiple of 100 us (the interrupt coalescing time unit)");
}

void check_register_apst(const PowerParams& p) {
  const std::vector<int64_t> itpt = p.apst_itpt_ms();
  for (size_t i = 0; i < itpt.size(); ++i)
    if (itpt[i] < 1 || itpt[i] > (1 << 24) - 1)
      fail("power.apst_idle_ms", "with nvme.interface=register the driver sets APST by the NVMe table, whose idle "
                                  "time in a state before the next is whole milliseconds from 1 to 16777215: state " +
                                      std::to_string(i + 1) + " would be entered " + std::to_string(itpt[i]) +
                                      " ms after the one before it has been entered");
}

void check_queue_priorities(const std::vector<JobParams>& jobs, bool listed, bool register_interface) {
  if (register_interface) return;
  for (size_t j = 0; j < jobs.size(); ++j)
    if (jobs[j].sq_priority != 2)
      fail(listed ? "jobs[" + std::to_string(j) + "].sq_priority" : "host.sq_priority",
           "applies with nvme.interface=register only (nvme.interface is command: no submission queue priorities)");
}

void check_page_types_for_cell(const std::string& cell, const std::string& reads, const std::string& progs, bool one_shot) {
  if (cell != "slc") return;
  if (!reads.empty()) throw ConfigError("timing.page_read_us: expected empty with flash.cell=slc (one page type: timing.t_read_us), got \"" + reads + "\"");
  if (!progs.empty()) throw ConfigError("timing.page_prog_us: expected empty with flash.cell=slc (one page type: timing.t_prog_us), got \"" + progs + "\"");
  if (one_shot) throw ConfigError("flash.one_shot: expected false with flash.cell=slc (one page per wordline), got true");
}

void check_power_loss_window(uint64_t n, double window) {
  if (n && !(window > 0))
    throw ConfigError("fault.power_loss_window_ms: expected a span > 0 ms to draw fault.power_loss_count=" +
                      std::to_string(n) + " random instants from");
}

// The run tells instants apart to the picosecond (SystemC's resolution): two instants that round to the same
// picosecond would be one power loss, so the list refuses them rather than merging them without a word.
void check_power_loss_list_apart(const std::vector<uint64_t>& ps, const std::vector<double>& ms, const std::string& list) {
  std::vector<std::pair<uint64_t, size_t>> order;
  for (size_t i = 0; i < ps.size(); ++i) order.emplace_back(ps[i], i);
  std::sort(order.begin(), order.end());
  for (size_t k = 1; k < order.size(); ++k)
    if (order[k].first == order[k - 1].first && ms[order[k].second] != ms[order[k - 1].second]) {
      const size_t i = order[k - 1].second, j = order[k].second;
      throw ConfigError("fault.power_loss_at_ms: instants " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                          " of '" + escape_text(list) + "' are different times on the same picosecond (the run's time resolution), "
                          "which would be one power loss: write them at least 1e-9 ms apart, or as the same number");
    }
}

void check_power_loss_draws_apart(const std::vector<uint64_t>& ps, size_t listed) {
  std::vector<uint64_t> sorted(ps.begin() + std::ptrdiff_t(listed), ps.end());
  std::sort(sorted.begin(), sorted.end());
  if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end())
    throw ConfigError("fault.power_loss_count, fault.power_loss_window_ms: " + std::to_string(sorted.size()) +
                      " random instants in the window fall two on the same picosecond (the run's time resolution): "
                      "widen fault.power_loss_window_ms, lower fault.power_loss_count or change fault.power_loss_seed");
  for (size_t i = 0; i < listed; ++i)
    if (std::binary_search(sorted.begin(), sorted.end(), ps[i]))
      throw ConfigError("fault.power_loss_at_ms, fault.power_loss_count: listed instant " + std::to_string(i + 1) +
                        " and a random one (fault.power_loss_window_ms, fault.power_loss_seed) fall on the same "
                        "picosecond: change fault.power_loss_seed or the listed instant");
}

void check_power_loss_needs_integrity(const std::vector<uint64_t>& instants, bool check_integrity) {
  if (!instants.empty() && !check_integrity)
    throw ConfigError("fault.power_loss_at_ms / fault.power_loss_count: need check.integrity=true (recovery replays "
                      "by the write versions it keeps, and checks every unit against them)");
}

void check_stream_chunk(uint64_t chunk) {
  if (chunk % kUnitBytes)
    fail("streams.autostream_chunk_bytes", "expected a multiple of the 4 KiB mapping unit, got " + format_bytes(chunk));
}

// streams.internal (seed 002's internal streams): true = GC copies go to GC frontiers of their own, one per
// data stream; false = back into their own stream's user frontier. auto = streams.gc_stream and
// streams.gc_frontier decide. Either key set to a value other than its default that contradicts
// streams.internal is refused (a default cannot be told from a value written out, so it is overridden).
void check_streams_internal(StreamsInternal internal, const std::string& gc, const std::string& frontier) {
  if (internal == StreamsInternal::Auto) return;
  const bool on = internal == StreamsInternal::Own;
  const std::string want_frontier = on ? "own" : "user";
  auto clash = [&](const std::string& key, const std::string& got, const std::string& want) {
    if (got == want || find_key(key)->def.get<std::string>() == got) return;
    fail("streams.internal", std::string("streams.internal=") + (on ? "true" : "false") + " puts GC copies " +
                                 (on ? "in GC frontiers of their own, one per data stream (streams.gc_stream=per_stream, "
                                       "streams.gc_frontier=own)"
                                     : "back in their own stream's user frontier (streams.gc_stream=per_stream, "
                                       "streams.gc_frontier=user)") +
                                 ", which contradicts " + key + "=" + got + "; leave " + key + " out");
  };
  clash("streams.gc_stream", gc, "per_stream");
  clash("streams.gc_frontier", frontier, want_frontier);
}

void check_streams(const StreamParams& p, StreamsInternal internal, bool superblock_gc, const std::string& buffer_policy) {
  if (internal == StreamsInternal::Own && p.count > 0 && superblock_gc)
    fail("streams.internal", "streams.internal=true gives each of the " + std::to_string(p.count + 1) +
                                 " data streams a GC frontier of its own, which superblock GC (ftl.gc_unit=superblock) "
                                 "refuses (several GC frontiers of their own; docs/reference/streams.md): use ftl.gc_unit=block, "
                                 "or streams.internal=false");
  if (!known(stream_policy_names(), p.assign))
    make_stream_policy(p.assign, StreamContext(), keys::kStreamAssign);  // throws, naming the policies
  if (p.assign != "single" && p.assign != "fdp" && p.count == 0)  // (FDP with one RG and one RUH: a single stream)
    fail("streams.count", "streams.assign=" + p.assign + " needs streams besides the default stream 0 (at least 1), got 0");
  if (p.pc_clock_time && p.assign != "pcstream")
    fail("streams.pcstream_clock", "time is the clock PCStream measures lifetimes on; streams.assign=" + p.assign +
                                       " measures none: use streams.assign=pcstream or leave streams.pcstream_clock "
                                       "at writes");
  if (p.gc == GcStreams::HotCold && p.count == 0)
    fail("streams.count", "streams.gc_stream=hotcold needs streams besides the default stream 0 (at least 1), got 0");
  if (p.count > 0 && find_flush_policy(buffer_policy, keys::kBufferPolicy).orders_by_map_segment)
    fail("buffer.policy", buffer_policy + " orders the whole buffer by map segment and does not keep streams apart; with "
                          "streams.count > 0 use fifo (hexa with streams is not supported yet)");
}

void check_gc(const GcParams& gc, const FrontierLayout& layout, uint32_t dies) {
  const bool min_invalid = gc.min_invalid > 0;
  if (min_invalid && gc.urgent_free_blocks > gc.free_blocks)
    throw ConfigError("key 'ftl.gc_urgent_free_blocks': expected at most ftl.gc_free_blocks (" +
                      std::to_string(gc.free_blocks) + "), got " + std::to_string(gc.urgent_free_blocks));
  if (gc.fdp) return check_fdp_gc(gc, layout);
  // A pacing whose victim lines hold the host (gc_first: FEMU's line GC) needs lines; a die's GC job in block mode may
  // chain victims to fill a page.
  if (!gc.superblock && make_gc_pacing(gc.pacing, gc.urgent_free_blocks, keys::kGcPacing)->lines_hold_host())
    throw ConfigError("key 'ftl.gc_pacing': " + gc.pacing + " needs ftl.gc_unit=superblock (FEMU bbssd's line GC), got "
                      "ftl.gc_unit=block");
  if (find_write_pointer(gc.write_pointer, keys::kWritePointer).needs_lines && !gc.superblock)
    throw ConfigError("key 'ftl.write_pointer': " + gc.write_pointer + " needs ftl.gc_unit=superblock, got "
                      "ftl.gc_unit=block");
  if (gc.wear_level_spread && gc.superblock)  // a victim is a line there; wear levelling picks blocks
    throw ConfigError("key 'ftl.wear_level_spread': static wear levelling needs ftl.gc_unit=block, got "
                      "ftl.gc_unit=superblock");
  if (!gc.superblock) return;
  const uint32_t kept = gc.kept_free_blocks();
  if (kept < layout.gc + 1)
    throw ConfigError("key '" + std::string(min_invalid ? "ftl.gc_urgent_free_blocks" : "ftl.gc_free_blocks") +
                      "': superblock GC needs a free line for each of the " + std::to_string(layout.gc) +
                      " GC stream(s) and one more to start, at least " + std::to_string(layout.gc + 1) +
                      " (lines), got " + std::to_string(kept));
  if (layout.gc > 1 && !layout.gc_in_user)
    throw ConfigError("key 'streams.gc_stream': superblock GC with several GC frontiers of their own is not supported "
                      "yet (each die copies its own victim block, so the GC lines fill unevenly and retired lines waste "
                      "the spare); use streams.gc_frontier=user (seed 004, FEMU) or streams.gc_stream=shared");
  if (layout.map)
    throw ConfigError("key 'ftl.gc_unit': superblock GC with translation pages on flash (ftl.mapping other than page, or "
                      "map.protected_ratio below 1) is not supported yet");
  // With several dies, each frontier's dies move through its lines unevenly: while GC collects a line, every
  // frontier (host flushes go on) may have a die that opens its next line, so the kept lines must hold one per
  // frontier and one more to start. With fewer, GC can collect line after line with no room left for host data
  // (issue 30: 2 x 2 dies, ftl.gc_free_blocks=2 stopped mid-run, "collected 129 lines without room for host data").
  const uint32_t writing = layout.map_frontier();
  if (dies > 1 && kept < writing + 1)
    throw ConfigError("keys '" + std::string(min_invalid ? "ftl.gc_urgent_free_blocks" : "ftl.gc_free_blocks") +
                      "', 'ftl.gc_unit', 'streams.count': superblock GC on " + std::to_string(dies) +
                      " dies needs a free line for each of the " + std::to_string(writing) +
                      " frontier(s) that write while a line is collected (" + std::to_string(layout.user) +
                      " user stream(s)" + (layout.gc_in_user ? "" : " + " + std::to_string(layout.gc) + " GC") +
                      ") and one more to start, at least " + std::to_string(writing + 1) + " (lines), got " +
                      std::to_string(kept));
}

// fdp.enabled: GC reclaims whole reclaim units (lines within the reclaim groups), each RU written by one write
// pointer (striped over its RG's dies); a victim RU relocates into one GC RU, so one free RU per RG is kept for GC
// and one more starts a collection.
void check_fdp_gc(const GcParams& gc, const FrontierLayout& layout) {
  if (gc.wear_level_spread)  // a victim is an RU there; wear levelling picks blocks
    throw ConfigError("key 'ftl.wear_level_spread': static wear levelling picks blocks, and with fdp.enabled GC "
                      "reclaims whole reclaim units; set ftl.wear_level_spread=0");
  if (layout.map)
    throw ConfigError("key 'ftl.mapping': fdp.enabled (GC of whole reclaim units) with translation pages on flash "
                      "(ftl.mapping other than page, or map.protected_ratio below 1) is not supported yet");
  if (gc.kept_free_blocks() < 2)
    throw ConfigError("key 'ftl.gc_urgent_free_blocks': with fdp.enabled GC keeps a free reclaim unit per reclaim group "
                      "for its copies and needs one more to start, at least 2 (RUs), got " +
                      std::to_string(gc.kept_free_blocks()));
}

void check_fdp_read_reclaim(bool fdp, bool reliability, uint32_t reclaim_reads, uint32_t reclaim_steps) {
  if (!fdp || !reliability || (reclaim_reads == 0 && reclaim_steps == 0)) return;
  throw ConfigError(std::string("key '") + (reclaim_reads ? "reliability.reclaim_reads" : "reliability.reclaim_retry_steps") +
                    "': read reclaim relocates single blocks, and with fdp.enabled GC reclaims whole reclaim units; "
                    "set reliability.reclaim_reads=0 and reliability.reclaim_retry_steps=0");
}

void check_victim_policy_name(const GcParams& gc) {
  if (!known(victim_policy_names(), gc.victim)) make_victim_policy(gc.victim, Geometry(), keys::kGcVictim);  // throws
}

void check_flush_policy_name(const BufferParams& buffer) {
  if (!known(flush_policy_names(), buffer.policy)) make_flush_policy(buffer.policy, FlushContext(), keys::kBufferPolicy);
}

void check_map_cache(const MapCacheParams& p, const std::string& scheme, const Geometry& g) {
  const uint32_t page = g.units_per_page * kUnitBytes;
  if (p.segment_bytes % p.entry_bytes)
    fail("map.segment_bytes", "expected a multiple of map.entry_bytes (" + format_bytes(p.entry_bytes) + "), got " +
                                  format_bytes(p.segment_bytes));
  // Segments are written to flash only with a demand-based scheme or a partly protected map.
  const bool on_flash = scheme != "page" || p.protected_ratio < 1.0;
  if (on_flash && p.segment_bytes > page)
    fail("map.segment_bytes", "expected at most one flash page (" + format_bytes(page) + "), got " +
                                  format_bytes(p.segment_bytes));
  if (p.cache_bytes && p.cache_bytes < p.segment_bytes)
    fail("map.cache_bytes", "expected 0 (the whole map) or at least one segment (" + format_bytes(p.segment_bytes) +
                                "), got " + format_bytes(p.cache_bytes));
  if (!(p.clean_fraction > 0.0 && p.clean_fraction < 1.0))
    fail("map.clean_fraction", "expected a share strictly between 0 and 1, got " + std::to_string(p.clean_fraction));
  if (scheme == "ptsd" || scheme == "ptsd_entry") {
    const uint32_t segs = p.cache_segments(), clean = uint32_t(segs * p.clean_fraction);
    if (clean < 1 || (scheme == "ptsd" && segs - clean < 1))
      fail("map.cache_bytes", "expected room for at least one segment in each of the clean and dirty areas (" +
                                  std::to_string(segs) + " segments at map.clean_fraction " +
                                  std::to_string(p.clean_fraction) + ")");
  }
}

void check_buffer_watermarks(const FtlParams& p) {
  if (p.low_watermark > p.high_watermark)
    throw ConfigError("key 'buffer.low_watermark': expected at most buffer.high_watermark (" +
                      std::to_string(p.high_watermark) + "), got " + std::to_string(p.low_watermark));
}

void check_buffer_size(const BufferParams& b, const Geometry& g, uint64_t block_bytes) {
  const uint64_t units = uint32_t(b.bytes / kUnitBytes);
  if (units < g.units_per_page || units * uint64_t(kUnitBytes) < block_bytes)
    throw ConfigError("key 'buffer.bytes': expected at least one flash page (" +
                      format_bytes(uint64_t(g.units_per_page) * kUnitBytes) + ") and one request (workload.block_bytes, " +
                      format_bytes(block_bytes) + "), got " + format_bytes(b.bytes));
}

std::vector<std::string> config_warnings(const Config& c) {
  std::vector<std::string> out;
  const bool losses = !c.s("fault.power_loss_at_ms").empty() || c.u("fault.power_loss_count") > 0;
  const uint64_t saved = c.u("power.protected_bytes"), buffer = c.u("buffer.bytes");
  if (losses && c.b("buffer.power_protected") && saved != 0 && saved < buffer)
    out.push_back("keys 'power.protected_bytes' (" + format_bytes(saved) + ") < 'buffer.bytes' (" +
                  format_bytes(buffer) + "): with buffer.power_protected=true the capacitors save the write buffer "
                  "first, but only " + format_bytes(saved) + " of it; a full buffer loses up to " +
                  format_bytes(buffer - saved) + " of acknowledged writes at each power loss "
                  "(docs/reference/power_loss.md)");
  return out;
}

void check_power(const PowerParams& p, const ThermalParams& t, uint32_t dies) {
  // A budget must let one operation of each kind run beside the idle floor, else the drive would stop.
  const NandOpPower& op = p.op_power();
  const double need = p.floor_w(dies) + std::max({op.read_w, op.program_w, op.erase_w});
  auto enough = [&](const std::string& key, double w) {
    if (w > 0 && w < need)
      fail(key, "a budget of " + std::to_string(w) + " W is below the idle floor of the drive (" + std::to_string(p.floor_w(dies)) +
                    " W) plus one array operation (" + std::to_string(need - p.floor_w(dies)) + " W): at least " + std::to_string(need) + " W, or 0 for none");
  };
  enough("power.budget_w", p.budget_w);
  if (!t.enabled) return;
  if (!(t.tmt1_c < t.tmt2_c)) fail("thermal.tmt1_c", "expected below thermal.tmt2_c (" + std::to_string(t.tmt2_c) + ")");
  if (!(t.tmt1_c > t.ambient_c)) fail("thermal.tmt1_c", "expected above thermal.ambient_c (" + std::to_string(t.ambient_c) + ")");
  if (!(t.tmt1_budget_w > 0)) fail("thermal.tmt1_budget_w", "expected a budget above 0 W for light throttling");
  if (!(t.tmt2_budget_w > 0 && t.tmt2_budget_w <= t.tmt1_budget_w)) fail("thermal.tmt2_budget_w", "expected above 0 W and at most thermal.tmt1_budget_w");
  enough("thermal.tmt1_budget_w", t.tmt1_budget_w);
  enough("thermal.tmt2_budget_w", t.tmt2_budget_w);
}

}  // namespace ssdtlm

namespace ssdtlm {

void check_slc(const SlcParams& slc, const Geometry& g, const GcParams& gc, const StreamParams& streams,
               const FdpParams& fdp) {
  if (slc.mode == SlcMode::None) return;
  if (slc.bits < 2) fail("slc.mode", "an SLC cache needs a native mode of several bits per cell (flash.cell mlc, tlc or qlc), got flash.cell=slc");
  if (gc.superblock) fail("slc.mode", "an SLC cache needs ftl.gc_unit=block (folding collects one SLC block at a time), got superblock");
  if (streams.zns) fail("slc.mode", "an SLC cache with zns.enabled is not supported (zones own their blocks)");
  if (fdp.enabled) fail("slc.mode", "an SLC cache with fdp.enabled is not supported yet");
  if (g.pages_per_block < slc.bits) fail("geometry.pages_per_block", "an SLC block needs at least one page: at least " + std::to_string(slc.bits) + " pages per block");
  if (slc.mode == SlcMode::Static && slc.static_bytes == 0)
    fail("slc.static_bytes", "slc.mode=static needs the cache size in bytes (> 0), got 0");
  if (slc.mode != SlcMode::Static && slc.static_bytes != 0)
    fail("slc.static_bytes", "only slc.mode=static has a fixed size, got " + format_bytes(slc.static_bytes) + " with another mode");
  if (slc.mode != SlcMode::Dynamic && slc.dynamic_max_bytes != 0)
    fail("slc.dynamic_max_bytes", "only slc.mode=dynamic has a cap, got " + format_bytes(slc.dynamic_max_bytes) + " with slc.mode=static");
}

// The static cache's blocks per die and the native blocks a fold of them all needs, in 64 bits: what does not
// fit the die's spare blocks (after its data, `reserved_blocks_per_die` and one of slack) is refused here,
// naming slc.static_bytes and the most it can be; a spare area too small without the cache is check_geometry's.
void check_slc_static(const SlcParams& slc, const Geometry& g, uint32_t reserved_blocks_per_die) {
  if (slc.mode != SlcMode::Static) return;
  const uint64_t n = slc_static_blocks_per_die(slc, g), bits = slc.bits;
  const uint64_t taken = data_blocks_per_die(g) + reserved_blocks_per_die + 1;
  if (taken > g.blocks_per_die) return;
  const uint64_t spare = g.blocks_per_die - taken;
  if (n + (n + bits - 1) / bits <= spare) return;
  uint64_t most = spare * bits / (bits + 1);  // the largest m with m + ceil(m / bits) <= spare
  while (most + 1 + (most + bits) / bits <= spare) ++most;
  const uint64_t block_bytes = uint64_t(g.pages_per_block / slc.bits) * g.units_per_page * kUnitBytes * g.dies;
  fail("slc.static_bytes", format_bytes(slc.static_bytes) + " need " + std::to_string(n) + " SLC blocks on each of the " + std::to_string(g.dies) +
                               " dies (" + format_bytes(block_bytes / g.dies) + " per SLC block) and " +
                               std::to_string((n + bits - 1) / bits) + " more to fold them, but a die has " +
                               std::to_string(spare) + " spare blocks beside its data and GC's: expected at most " +
                               format_bytes(most * block_bytes) + " (raise geometry.over_provisioning or "
                               "geometry.blocks_per_plane for more)");
}

uint32_t slc_reserved_blocks(const SlcParams& slc, const Geometry& g, const GcParams&) {
  if (slc.mode == SlcMode::None) return 0;
  if (slc.mode == SlcMode::Dynamic) return 1;
  const uint64_t n = slc_static_blocks_per_die(slc, g);
  if (n >= g.blocks_per_die) throw std::logic_error("slc_reserved_blocks: check_slc_static first");
  return uint32_t(n + (n + slc.bits - 1) / slc.bits);
}

void check_register_zones(const ZnsLayout& l, bool zns, bool register_interface) {
  // The driver takes a zoned namespace as Linux's nvme_update_zone_info does: a zone size (ZSZE) that is not a power
  // of two is refused at bring-up; refused here first, before simulating.
  const uint64_t units = l.zones.zone_units;
  if (zns && register_interface && (units & (units - 1)))
    fail("zns.zone_bytes", "with nvme.interface=register the host's NVMe driver takes a zoned namespace as Linux does, "
                           "whose zone size must be a power of two: got " + format_bytes(units * kUnitBytes));
}

}  // namespace ssdtlm
