// Data placement keys (docs/reference/placement.md): fdp.* for the device, workload.dataplacement / plids / plid_select
// for the host, read into FdpParams and PlacementParams, with their cross-key rules.
#pragma once
#include "config/choices.h"
#include "config/config.h"
#include "controller/block_manager.h"
#include "controller/placement/fdp.h"
#include "controller/streams/streams.h"
#include "flash/geometry.h"
#include "workload/placement/placement_workload.h"
#include "workload/placement/zbd_workload.h"

namespace ssdtlm {

FdpParams read_fdp_params(const Config& c);
// fdp.enabled: the streams FDP runs on (streams.* must be at their defaults): a user stream per (RG, RUH),
// fdp's own assignment, GC streams by RUH type (initially isolated: one GC stream whose RU in each RG takes the
// relocated data of every RUH; persistently isolated: a GC stream, so a GC RU, per RUH).
// stats.lifetimes: whether the lifetime statistics are kept for a drive of `streams` user streams (on, all, or auto
// with streams).
bool lifetimes_on(LifetimeStats lifetimes, uint32_t streams);
void apply_fdp_streams(const FdpParams& f, const Config& c, StreamParams& s);
// fdp.reclaim_groups divides the dies (1 with a precondition); fdp.ru_bytes a multiple of the RG's block row
// whose blocks per die divide the blocks of a die.
void check_fdp(const FdpParams& f, const Geometry& g, double precondition_writes, bool fill);
// Write frontiers a die can use (with several RGs a die writes only its RG's streams).
uint32_t fdp_frontiers_per_die(const FdpParams& f, const FrontierLayout& l);
// RU size in bytes (fdp.ru_bytes, or the derived one), and its blocks on each die of its RG.
uint64_t fdp_ru_bytes(const FdpParams& f, const Geometry& g);
uint32_t fdp_ru_blocks_per_die(const FdpParams& f, const Geometry& g);

// zns.*: read, and the layout on the geometry (zone size, capacity, zones, die groups, slots); checks its rules.
ZnsParams read_zns_params(const Config& c);
ZnsLayout zns_layout(const ZnsParams& z, const Geometry& g);
// zns.enabled: the streams the zones run on (streams.* and fdp.* at their defaults, block GC, no precondition).
void apply_zns_streams(const ZnsParams& z, const Config& c, StreamParams& s);

// workload.zbd and workload.zbd_* with the namespace's zones; workload.zbd needs zns.enabled, and its max open
// zones at most zns.max_open unless workload.zbd_ignore_limits (fio's rules).
ZbdParams read_zbd_params(const Config& c);

// workload.dataplacement, plids, plid_select (and the device's FDP layout, which the host reads as fio does).
PlacementParams read_placement_params(const Config& c);
// A job's placement against the device: fdp needs fdp.enabled and ids inside the RUH status list; streams
// needs ids and streams.assign=manual.
void check_placement(const PlacementParams& p, const FdpParams& f, const std::string& streams_assign);

}  // namespace ssdtlm
