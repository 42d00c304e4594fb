#include "controller/ftl_assembly.h"

#include <cmath>

#include "config/placement_params.h"
#include "controller/buffer/flush_policy.h"
#include "controller/gc/gc_pacing.h"
#include "controller/gc/victim_policy.h"
#include "controller/streams/streams.h"

namespace ssdtlm {

namespace {

// GC's unit and pacing: FDP's reclaim units, superblock lines or blocks; ftl.gc_pacing.
void set_gc_unit(const Params& p, const Geometry& g, PageFtl& ftl) {
  ftl.blocks().set_striped(p.gc.striped);
  if (p.fdp.enabled)  // FDP: the reclaim unit is the GC unit (docs/reference/placement.md)
    ftl.set_reclaim_units(p.gc.victim, keys::kGcVictim, p.fdp.reclaim_groups, fdp_ru_blocks_per_die(p.fdp, g));
  else if (p.gc.superblock)
    ftl.set_superblock(p.gc.victim, keys::kGcVictim);
  ftl.set_gc_pacing(make_gc_pacing(p.gc.pacing, p.gc.urgent_free_blocks, keys::kGcPacing));
}

// ftl.gc_min_invalid: a victim's least worth (in blocks and in lines).
void set_victim_worth(const Params& p, const Geometry& g, PageFtl& ftl) {
  if (p.gc.min_invalid > 0) {  // a victim must hold at least this many invalid units
    const auto most_valid = [&](uint64_t units) {
      return uint32_t(units - uint64_t(std::ceil(p.gc.min_invalid * double(units))));
    };
    const uint64_t line_units = uint64_t(g.units_per_block) * ftl.blocks().line_blocks();
    ftl.blocks().set_worth(most_valid(g.units_per_block), most_valid(line_units), p.gc.urgent_free_blocks);
  }
}

}  // namespace

std::unique_ptr<PageFtl> build_page_ftl(const Params& p, const Geometry& g, std::vector<Die*> dies,
                                        IntegrityChecker* checker) {
  auto ftl = std::make_unique<PageFtl>(g, std::move(dies), make_victim_policy(p.gc.victim, g, keys::kGcVictim),
                                       p.gc.free_blocks, p.frontiers);
  ftl->set_streams(std::make_unique<Streams>(p.streams, g.logical_units));
  set_gc_unit(p, g, *ftl);  // (lines follow the streams' frontiers; the SLC cache follows the GC unit)
  if (p.slc.mode != SlcMode::None) ftl->set_slc(std::make_unique<SlcCache>(g, p.slc, p.gc.free_blocks));
  if (p.reliability.on) ftl->set_reliability(std::make_unique<Reliability>(g, p.reliability));
  if (p.gc.wear_level_spread) ftl->set_wear_level(std::make_unique<WearLevel>(g, p.gc.wear_level_spread));
  set_victim_worth(p, g, *ftl);
  ftl->set_checker(checker);  // preconditioning's GC checks its erases and copies too
  ftl->set_mapping(make_map_cache(p.map.scheme, p.map.cache, keys::kMapping), p.map.pages_on_flash);
  return ftl;
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

}  // namespace ssdtlm
