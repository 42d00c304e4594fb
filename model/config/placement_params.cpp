#include "config/placement_params.h"

#include <stdexcept>

#include "common/units.h"
#include "config/choices.h"
#include "config/params.h"
#include "config/validation.h"
#include "controller/gc/gc_unit.h"
#include "workload/synthetic/size_mix.h"

namespace ssdtlm {

namespace {
[[noreturn]] void fail(const std::string& key, const std::string& what) {
  throw ConfigError("key '" + key + "': " + what);
}
}  // namespace

FdpParams read_fdp_params(const Config& c) {
  FdpParams f;
  f.enabled = c.b("fdp.enabled");
  f.reclaim_groups = uint32_t(c.i("fdp.reclaim_groups"));
  f.ruhs = uint32_t(c.i("fdp.ruhs"));
  f.ru_bytes = c.u("fdp.ru_bytes");
  f.persistent = parse_choice(choices::kFdpRuhType, c, "fdp.ruh_type");
  if (f.enabled && f.streams() > 64)
    fail("fdp.ruhs", "fdp.reclaim_groups x fdp.ruhs must be at most 64 (a stream per RG and RUH), got " +
                         std::to_string(f.reclaim_groups) + " x " + std::to_string(f.ruhs));
  return f;
}

void apply_fdp_streams(const FdpParams& f, const Config& c, StreamParams& s) {
  if (!f.enabled) return;
  const char* const keys[][2] = {{"streams.count", "0"}, {"streams.assign", "single"}, {"streams.gc_stream", "shared"},
                                 {"streams.gc_frontier", "own"}, {"streams.internal", "auto"}};
  for (auto& k : keys) {
    const std::string v = std::string(k[0]) == "streams.count" ? std::to_string(c.i(k[0])) : c.s(k[0]);
    if (v != k[1])
      fail(k[0], "fdp.enabled places writes by their placement identifiers (a stream per reclaim group and reclaim "
                 "unit handle, GC streams by fdp.ruh_type); leave " + std::string(k[0]) + " at " + k[1] + ", got " + v);
  }
  s.count = f.streams() - 1;
  s.assign = "fdp";
  s.fdp = true;
  s.fdp_rgs = f.reclaim_groups;
  s.fdp_ruhs = f.ruhs;
  s.gc = f.persistent ? GcStreams::PerStream : GcStreams::Shared;
  s.gc_in_user = false;  // relocated data goes to GC RUs (docs/reference/placement.md)
  s.lifetimes = lifetimes_on(parse_choice(choices::kStatsLifetimes, c, "stats.lifetimes"), s.count);
}

bool lifetimes_on(LifetimeStats lifetimes, uint32_t streams) {
  return lifetimes == LifetimeStats::On || lifetimes == LifetimeStats::All ||
         (lifetimes == LifetimeStats::Auto && streams > 0);
}

uint64_t fdp_ru_bytes(const FdpParams& f, const Geometry& g) {
  const uint64_t row = uint64_t(g.units_per_block) * kUnitBytes * (g.dies / f.reclaim_groups);
  return f.ru_bytes ? f.ru_bytes : row;
}

uint32_t fdp_ru_blocks_per_die(const FdpParams& f, const Geometry& g) {
  const uint64_t row = uint64_t(g.units_per_block) * kUnitBytes * (g.dies / f.reclaim_groups);
  return uint32_t(fdp_ru_bytes(f, g) / row);
}

void check_fdp(const FdpParams& f, const Geometry& g, double precondition_writes, bool fill) {
  if (!f.enabled) return;
  if (g.dies % f.reclaim_groups)
    fail("fdp.reclaim_groups", "expected a divisor of the " + std::to_string(g.dies) + " dies (an RG is a set of whole dies), got " +
                                   std::to_string(f.reclaim_groups));
  if (f.reclaim_groups > 1 && (precondition_writes > 0 || fill))
    fail("fdp.reclaim_groups", "the fast-forward precondition places units on dies by LPN, not by reclaim group: with " +
                                   std::to_string(f.reclaim_groups) + " reclaim groups set precondition.fill=false and "
                                   "precondition.drive_writes=0 (or use one reclaim group)");
  const uint64_t row = uint64_t(g.units_per_block) * kUnitBytes * (g.dies / f.reclaim_groups);
  if (f.ru_bytes % row)
    fail("fdp.ru_bytes", "expected 0 or a multiple of " + format_bytes(row) + " (a block on each of the " +
                             std::to_string(g.dies / f.reclaim_groups) + " dies of a reclaim group), got " + format_bytes(f.ru_bytes));
  // The RU is the unit of GC: a die's blocks make whole RUs.
  const uint64_t depth = fdp_ru_bytes(f, g) / row;
  if (g.blocks_per_die % depth)
    fail("fdp.ru_bytes", "an RU of " + std::to_string(depth) + " blocks on each die of its reclaim group does not divide the " +
                             std::to_string(g.blocks_per_die) + " blocks of a die (reclaim units are whole); expected " +
                             format_bytes(row) + " times a divisor of " + std::to_string(g.blocks_per_die) + ", got " +
                             format_bytes(f.ru_bytes));
}

uint32_t fdp_frontiers_per_die(const FdpParams& f, const FrontierLayout& l) {
  if (!f.enabled || f.reclaim_groups == 1) return l.frontiers();
  const uint32_t gc = l.gc == 1 ? 1 : f.ruhs;
  return f.ruhs + gc + (l.map ? 1 : 0);
}

ZnsParams read_zns_params(const Config& c) {
  ZnsParams z;
  z.enabled = c.b("zns.enabled");
  z.zone_bytes = c.u("zns.zone_bytes");
  z.capacity_bytes = c.u("zns.zone_capacity_bytes");
  z.max_open = uint32_t(c.i("zns.max_open"));
  z.max_active = uint32_t(c.i("zns.max_active"));
  z.zone_dies = uint32_t(c.i("zns.zone_dies"));
  z.zasl_bytes = c.u("zns.zasl_bytes");
  z.zone_ext_bytes = uint32_t(c.u("zns.zone_ext_bytes"));
  z.erase_at_reset = parse_choice(choices::kZnsResetErase, c, "zns.reset_erase");
  return z;
}

ZnsLayout zns_layout(const ZnsParams& z, const Geometry& g) {
  ZnsLayout l;
  const uint32_t zone_dies = z.zone_dies ? z.zone_dies : g.dies;
  if (g.dies % zone_dies)
    fail("zns.zone_dies", "expected a divisor of the " + std::to_string(g.dies) + " dies (0 = all), got " + std::to_string(z.zone_dies));
  l.groups = g.dies / zone_dies;
  l.group_dies = zone_dies;
  const uint64_t page = uint64_t(g.units_per_page) * kUnitBytes;
  const uint64_t zone = z.zone_bytes ? z.zone_bytes : uint64_t(g.units_per_block) * kUnitBytes * zone_dies;
  if (zone % page)
    fail("zns.zone_bytes", "expected a multiple of the flash page (" + format_bytes(page) + "), got " + format_bytes(zone));
  const uint64_t cap = z.capacity_bytes ? z.capacity_bytes : zone;
  if (cap > zone || cap % page)
    fail("zns.zone_capacity_bytes", "expected at most the zone size (" + format_bytes(zone) + ") and a multiple of the flash page (" +
                                        format_bytes(page) + "), got " + format_bytes(cap));
  if (zone > g.logical_bytes())
    fail("zns.zone_bytes", "a zone of " + format_bytes(zone) + " is larger than the namespace (" + format_bytes(g.logical_bytes()) + ")");
  l.zones.zones = g.logical_bytes() / zone;
  l.zones.zone_units = zone / kUnitBytes;
  l.zones.capacity_units = cap / kUnitBytes;
  l.zones.max_open = z.max_open;
  l.zones.max_active = z.max_active;
  l.zones.append_limit_units = z.zasl_bytes / kUnitBytes;
  l.erase_at_reset = z.erase_at_reset;
  l.zone_ext_bytes = z.zone_ext_bytes;
  check_zns_limits(z, l);
  return l;
}

void apply_zns_streams(const ZnsParams& z, const Config& c, StreamParams& s) {
  if (!z.enabled) return;
  if (c.b("fdp.enabled")) fail("zns.enabled", "a namespace is zoned or has FDP, not both (fdp.enabled=true)");
  if (c.i("streams.count") != 0 || c.s("streams.assign") != "single")
    fail("streams.count", "zns.enabled places each zone's data in blocks of its own; leave streams.* at their defaults");
  if (find_gc_unit(c.s("ftl.gc_unit"), "ftl.gc_unit").lines) fail("ftl.gc_unit", "zns.enabled needs block GC (a superblock line spans every die)");
  s.zns = true;
  s.zns_layout = zns_layout(z, read_geometry(c, 0));
  s.count = ZnsLayout::kSlots - 1;  // a stream per slot: a zone with data in flight
  s.assign = "manual";              // the zone's slot, carried as the command's stream id
  s.gc = GcStreams::Shared;
  s.gc_in_user = false;
}

ZbdParams read_zbd_params(const Config& c) {
  ZbdParams z;
  z.on = c.b("workload.zbd");
  if (!z.on) return z;
  const ZnsParams zp = read_zns_params(c);
  if (!zp.enabled)
    fail("workload.zbd", "zonemode=zbd writes at zone write pointers; the namespace is not zoned: set zns.enabled=true");
  const ZnsLayout l = zns_layout(zp, read_geometry(c, 0));
  z.zone_bytes = l.zones.zone_units * kUnitBytes;
  z.capacity_bytes = l.zones.capacity_units * kUnitBytes;
  z.zones = l.zones.zones;
  const uint32_t asked = uint32_t(c.i("workload.zbd_max_open"));
  if (asked > zp.max_open && zp.max_open && !c.b("workload.zbd_ignore_limits"))
    fail("workload.zbd_max_open", "expected at most the namespace's zns.max_open (" + std::to_string(zp.max_open) +
                                      ") unless workload.zbd_ignore_limits, got " + std::to_string(asked));
  z.max_open = asked ? asked : zp.max_open;
  z.reset_threshold = c.d("workload.zbd_reset_threshold");
  z.reset_frequency = c.d("workload.zbd_reset_frequency");
  z.append = c.b("workload.zbd_append");
  z.initial_reset = c.b("workload.zbd_initial_reset");
  z.min_bytes = uint32_t(c.u("workload.block_bytes"));
  if (!c.s("workload.bssplit").empty()) {
    try {
      z.min_bytes = parse_bssplit(c.s("workload.bssplit")).min_bytes();
    } catch (const std::invalid_argument&) {  // refused where the workload's keys are read
    }
  }
  return z;
}

PlacementParams read_placement_params(const Config& c) {
  PlacementParams p;
  p.kind = parse_choice(choices::kWorkloadDataplacement, c, "workload.dataplacement");
  try {
    p.ids = parse_id_list(c.s("workload.plids"));
  } catch (const std::invalid_argument& e) {
    fail("workload.plids", e.what());
  }
  p.random = parse_choice(choices::kWorkloadPlidSelect, c, "workload.plid_select");
  p.rgs = uint32_t(c.i("fdp.reclaim_groups"));
  p.ruhs = uint32_t(c.i("fdp.ruhs"));
  return p;
}

void check_placement(const PlacementParams& p, const FdpParams& f, const std::string& streams_assign) {
  if (p.kind == DataPlacement::Fdp) {
    if (!f.enabled)
      fail("workload.dataplacement", "fdp puts FDP placement identifiers on the writes; the namespace has no FDP: set fdp.enabled=true");
    for (uint32_t i : p.ids)
      if (i >= f.streams())
        fail("workload.plids", "placement id index " + std::to_string(i) + " must be smaller than " + std::to_string(f.streams()) +
                                   " (the reclaim unit handle status list: fdp.reclaim_groups x fdp.ruhs entries)");
  } else if (p.kind == DataPlacement::Streams) {
    if (p.ids.empty()) fail("workload.plids", "dataplacement=streams needs the stream ids to use (fio: stream IDs must be provided)");
    if (streams_assign != "manual")
      fail("workload.dataplacement", "streams tags writes with stream ids, which only streams.assign=manual uses (got streams.assign=" +
                                         streams_assign + ")");
  } else if (!p.ids.empty()) {
    fail("workload.plids", "placement ids without workload.dataplacement (fdp or streams)");
  }
}

}  // namespace ssdtlm
