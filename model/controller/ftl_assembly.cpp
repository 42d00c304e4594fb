#include "controller/ftl_assembly.h"

#include "config/placement_params.h"
#include "controller/buffer/flush_policy.h"
#include "controller/ftl.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/write_pointer.h"
#include "controller/gc/victim_policy.h"
#include "controller/streams/streams.h"

namespace ssdtlm {

std::unique_ptr<PageFtl> build_page_ftl(const Params& p, const Geometry& g, std::vector<Die*> dies,
                                        IntegrityChecker* checker) {
  PageFtlParts parts;
  parts.victim = make_victim_policy(p.gc.victim, g, keys::kGcVictim);
  parts.gc_free_blocks = p.gc.free_blocks;
  parts.layout = p.frontiers;
  parts.streams = std::make_unique<Streams>(p.streams, g.logical_units);
  // GC's unit: FDP's reclaim units (docs/reference/placement.md), else ftl.gc_unit's; its pacing.
  UnitConfig unit{p.gc.victim, keys::kGcVictim};
  if (p.fdp.enabled) {
    unit.groups = p.fdp.reclaim_groups;
    unit.depth = fdp_ru_blocks_per_die(p.fdp, g);
  }
  parts.unit = p.fdp.enabled ? make_reclaim_unit(unit) : find_gc_unit(p.gc.unit, keys::kGcUnit).make(unit);
  parts.write_pointer = find_write_pointer(p.gc.write_pointer, keys::kWritePointer).make;
  parts.pacing = make_gc_pacing(p.gc.pacing, p.gc.urgent_free_blocks, keys::kGcPacing);
  if (p.slc.mode != SlcMode::None) parts.slc = std::make_unique<SlcCache>(g, p.slc, p.gc.free_blocks);
  if (p.reliability.on) parts.reliability = std::make_unique<Reliability>(g, p.reliability);
  if (p.gc.wear_level_spread) parts.wear_level = std::make_unique<WearLevel>(g, p.gc.wear_level_spread);
  parts.min_invalid = p.gc.min_invalid;
  parts.urgent_free_blocks = p.gc.urgent_free_blocks;
  parts.checker = checker;  // preconditioning's GC checks its erases and copies too
  parts.map = make_map_cache(p.map.scheme, p.map.cache, keys::kMapping);
  parts.map_on_flash = p.map.pages_on_flash;
  return std::make_unique<PageFtl>(g, std::move(dies), std::move(parts));
}

std::unique_ptr<WriteBuffer> build_write_buffer(const Params& p, PageFtl& ftl) {
  FlushContext fc;
  fc.capacity_units = p.ftl.buffer_units;
  fc.entries_per_segment = ftl.map_cache().params().entries_per_segment();
  fc.segments = ftl.map_cache().params().segments();
  fc.max_age_ps = p.ftl.max_age_ps;
  fc.cache = &ftl.map_cache();
  return std::make_unique<WriteBuffer>(p.ftl.buffer_units, make_flush_policy(p.buffer.policy, fc, keys::kBufferPolicy),
                                       p.streams.user_streams());
}

std::unique_ptr<Ftl> build_ftl(const char* name, const Params& p, PageFtl& ftl) {
  return std::make_unique<Ftl>(name, p.ftl, ftl.engines(), build_write_buffer(p, ftl));
}

}  // namespace ssdtlm
