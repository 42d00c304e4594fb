#include "controller/page_ftl.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdtlm {

namespace {
PageFtlParts default_parts(std::unique_ptr<VictimPolicy> victim, uint32_t gc_free_blocks, const FrontierLayout& layout) {
  PageFtlParts parts;
  parts.victim = std::move(victim);
  parts.gc_free_blocks = gc_free_blocks;
  parts.layout = layout;
  return parts;
}

// The blocks' parameters: the write pointer, the GC unit's shape (lines or blocks, the free blocks kept for GC; a
// unit may fix the write pointer), the SLC cache's blocks and the victims' worth.
BlockParams block_params(PageFtlParts& parts, SlcCache* slc) {
  BlockParams b;
  b.layout = parts.layout;
  b.victim = std::move(parts.victim);
  b.write_pointer = parts.write_pointer;
  b.unit = parts.unit ? std::move(parts.unit) : make_block_unit(UnitConfig());
  b.unit->shape(b, parts.gc_free_blocks);
  b.slc = slc;
  b.min_invalid = parts.min_invalid;
  b.urgent_free_blocks = parts.urgent_free_blocks;
  return b;
}

// The stream separation given, checked against the layout; one user and one GC stream per the layout otherwise.
std::unique_ptr<Streams> streams_of(PageFtlParts& parts, const Geometry& g) {
  const FrontierLayout& layout = parts.layout;
  if (!parts.streams) {
    StreamParams sp;
    sp.count = layout.user - 1;
    sp.assign = layout.user > 1 ? "manual" : "single";
    sp.gc = layout.gc > 1 ? GcStreams::PerStream : GcStreams::Shared;
    sp.gc_in_user = layout.gc_in_user;
    return std::make_unique<Streams>(sp, g.logical_units);
  }
  if (parts.streams->user_streams() != layout.user || parts.streams->gc_streams() != layout.gc)
    throw std::logic_error("stream separation does not match the frontier layout");
  return std::move(parts.streams);
}

std::unique_ptr<MapCache> map_of(PageFtlParts& parts, const Geometry& g) {
  if (parts.map) return std::move(parts.map);
  parts.map_on_flash = false;  // (translation pages need a demand-based cache)
  MapCacheParams whole;  // the whole map in DRAM
  whole.logical_units = g.logical_units;
  return make_full_map(whole);
}

std::unique_ptr<TranslationStore> translation_of(const PageFtlParts& parts, const Geometry& g, BlockManager& blocks,
                                                 const MapCache& cache) {
  if (!parts.map_on_flash) return nullptr;
  if (!blocks.layout().map) throw std::logic_error("demand-based mapping needs the map frontier");
  return std::make_unique<TranslationStore>(g, blocks, cache.params().segments(), cache.params().segment_bytes);
}

std::unique_ptr<WearLevel> wear_level_of(PageFtlParts& parts, const Geometry& g, const BlockManager& blocks) {
  std::unique_ptr<WearLevel> wl = std::move(parts.wear_level);
  if (wl)
    for (uint32_t b = 0; b < g.dies * g.blocks_per_die; ++b)
      if (blocks.is_slc(b)) wl->exclude(b);  // static SLC blocks (the dynamic cache has none yet)
  return wl;
}
}  // namespace

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, std::unique_ptr<VictimPolicy> victim,
                 uint32_t gc_free_blocks, const FrontierLayout& layout)
    : PageFtl(g, std::move(dies), default_parts(std::move(victim), gc_free_blocks, layout)) {}

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, PageFtlParts parts)
    : g_(g),
      slc_(std::move(parts.slc)),
      state_(g, std::move(dies), block_params(parts, slc_.get())),
      streams_(streams_of(parts, g)),
      rel_(std::move(parts.reliability)),
      wl_(wear_level_of(parts, g, state_.blocks())),
      cache_(map_of(parts, g)),
      tstore_(translation_of(parts, g, state_.blocks(), *cache_)),
      victims_(state_, parts.gc_free_blocks, std::move(parts.pacing), slc_.get(), rel_.get(), wl_.get()),
      gc_({state_, *streams_, victims_, tstore_.get(), wl_.get(), tstore_ && cache_->params().gc_batch}),
      engines_{state_, gc_, victims_, *streams_, *cache_, tstore_.get(), slc_.get(), rel_.get(), wl_.get(), parts.checker},
      ff_(engines_) {}

double PageFtl::alpha() const {
  double blocks = double(g_.blocks_per_die) - victims_.gc_free_blocks() - 0.5 * state_.blocks().streams();
  return blocks * g_.units_per_block * g_.dies / double(g_.logical_units);
}

}  // namespace ssdtlm
