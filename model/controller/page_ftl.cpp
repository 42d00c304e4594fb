#include "controller/page_ftl.h"

#include <algorithm>
#include <cmath>
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
}  // namespace

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, std::unique_ptr<VictimPolicy> victim,
                 uint32_t gc_free_blocks, const FrontierLayout& layout)
    : PageFtl(g, std::move(dies), default_parts(std::move(victim), gc_free_blocks, layout)) {}

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, PageFtlParts parts)
    : g_(g),
      state_(g, std::move(dies), parts.layout, std::move(parts.victim)),
      gc_free_blocks_(parts.gc_free_blocks),
      ff_counters_(g.dies),
      full_victims_(g.dies, 0),
      gc_(*this) {
  MapCacheParams whole;  // the whole map in DRAM unless parts.map replaces it (last)
  whole.logical_units = g.logical_units;
  cache_ = make_full_map(whole);
  const FrontierLayout& layout = parts.layout;
  state_.blocks().set_gc_reserve(std::max<uint32_t>(1, std::min<uint32_t>(layout.gc, gc_free_blocks_ - 1)));
  if (!parts.streams) {
    StreamParams sp;
    sp.count = layout.user - 1;
    sp.assign = layout.user > 1 ? "manual" : "single";
    sp.gc = layout.gc > 1 ? GcStreams::PerStream : GcStreams::Shared;
    sp.gc_in_user = layout.gc_in_user;
    parts.streams = std::make_unique<Streams>(sp, g.logical_units);
  }
  set_streams(std::move(parts.streams));
  set_gc_unit(parts);  // (lines follow the streams' frontiers; the SLC cache follows the GC unit)
  if (parts.pacing) pacing_ = std::move(parts.pacing);
  if (parts.slc) {
    slc_ = std::move(parts.slc);
    state_.blocks().set_slc(slc_.get());
  }
  rel_ = std::move(parts.reliability);
  if (parts.wear_level) set_wear_level(std::move(parts.wear_level));
  set_victim_worth(parts.min_invalid, parts.urgent_free_blocks);
  checker_ = parts.checker;
  if (parts.map) set_mapping(std::move(parts.map), parts.map_on_flash);
  sources_ = VictimSources({state_, gc_free_blocks_, slc_.get(), rel_.get(), wl_.get(), gc_, sources_});
}

void PageFtl::set_gc_unit(PageFtlParts& parts) {
  state_.blocks().set_striped(parts.striped);
  if (parts.unit == PageFtlParts::Unit::ReclaimUnits) {
    state_.blocks().set_striped(true);
    state_.blocks().enable_lines(parts.line_victim, parts.line_victim_key, parts.ru_groups, parts.ru_depth);
    state_.blocks().set_gc_reserve(1);
    reclaim_units_ = true;
  } else if (parts.unit == PageFtlParts::Unit::Superblock) {
    state_.blocks().enable_lines(parts.line_victim, parts.line_victim_key);
    state_.blocks().set_gc_reserve(state_.blocks().layout().gc);
  }
}

void PageFtl::set_victim_worth(double min_invalid, uint32_t urgent) {
  if (min_invalid <= 0) return;  // any victim will do
  const auto most_valid = [&](uint64_t units) { return uint32_t(units - uint64_t(std::ceil(min_invalid * double(units)))); };
  const uint64_t line_units = uint64_t(g_.units_per_block) * state_.blocks().line_blocks();
  state_.blocks().set_worth(most_valid(g_.units_per_block), most_valid(line_units), urgent);
}

void PageFtl::set_streams(std::unique_ptr<Streams> s) {
  if (s->user_streams() != state_.blocks().layout().user || s->gc_streams() != state_.blocks().layout().gc)
    throw std::logic_error("stream separation does not match the frontier layout");
  streams_ = std::move(s);
}

uint32_t PageFtl::pick_victim(uint32_t die, FlashCounters& c) {
  if (state_.blocks().lines()) return pick_line_block(die, c);
  // The victim sources first (read reclaim, wear levelling, SLC folding: gc/victim_sources.cpp), then free space.
  if (const uint32_t v = sources_.take(die); v != kInvalid) return v == kNoVictim ? kInvalid : v;
  const uint32_t v = state_.blocks().pick_victim(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (state_.blocks().valid(v) < g_.units_per_block)
    full_victims_[die] = 0;
  else if (++full_victims_[die] > g_.blocks_per_die)
    throw std::logic_error("die " + std::to_string(die) + ": GC finds only fully valid blocks (no reclaimable space)");
  return v;
}

uint64_t PageFtl::host_programs() const {
  uint64_t host = state_.counters().programs[uint32_t(UnitKind::UD)];
  for (const FlashCounters& f : ff_counters_) host += f.programs[uint32_t(UnitKind::UD)];
  return host;
}

uint32_t PageFtl::pick_line_block(uint32_t die, FlashCounters& c) {
  // The die's block of the victim line, or of a new one once the last is free again (lines of the die's group:
  // FDP's reclaim group).
  uint32_t v = state_.blocks().next_line_block(die);
  bool started = false;
  uint64_t host = 0;  // host pages programmed, counted only when a line may start
  const uint32_t group = state_.blocks().group_of_die(die);
  if (v == kInvalid && state_.blocks().lines_in_gc(group) == 0) {
    // A pacing may have a new line wait for a host write since the last one started (gc_first: FEMU's FTL thread
    // runs one background do_gc per request, above the forced threshold ftl.gc_urgent_free_blocks).
    host = host_programs();
    const bool waits = pacing_->line_waits_for_host(state_.blocks().free_lines(group)) && host == host_at_line_;
    started = !waits && state_.blocks().start_line(group);
  }
  if (started) v = state_.blocks().next_line_block(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (!started) return v;
  // A configuration that cannot make progress: new lines keep holding only valid data, or keep being collected
  // while no host data is programmed (GC frees no more than its copies and the lines it retires take).
  const uint32_t valid = state_.blocks().line_valid(state_.blocks().line_of(v));
  if (valid) ++relocated_lines_;  // FDP: a "media reallocated" event (the RU's valid data moves)
  if (valid < g_.units_per_block * state_.blocks().line_blocks())
    full_lines_ = 0;
  else if (++full_lines_ > g_.blocks_per_die)
    throw std::logic_error("superblock GC finds only fully valid lines (no reclaimable space)");
  if (host != host_at_line_) {
    host_at_line_ = host;
    idle_lines_ = 0;
  } else if (++idle_lines_ > 2 * g_.blocks_per_die) {
    throw std::logic_error("superblock GC collected " + std::to_string(idle_lines_) +
                           " lines without room for host data: too little spare for the open lines of its "
                           "frontiers (raise geometry.over_provisioning or geometry.pages_per_block, or use "
                           "fewer streams)");
  }
  return v;
}

void PageFtl::set_wear_level(std::unique_ptr<WearLevel> wl) {
  wl_ = std::move(wl);
  for (uint32_t b = 0; b < g_.dies * g_.blocks_per_die; ++b)
    if (state_.blocks().is_slc(b)) wl_->exclude(b);  // static SLC blocks (the dynamic cache has none yet)
}

double PageFtl::alpha() const {
  double blocks = double(g_.blocks_per_die) - gc_free_blocks_ - 0.5 * state_.blocks().streams();
  return blocks * g_.units_per_block * g_.dies / double(g_.logical_units);
}

void PageFtl::set_mapping(std::unique_ptr<MapCache> cache, bool on_flash) {
  cache_ = std::move(cache);
  gc_.set_batch_moves(on_flash && cache_->params().gc_batch);
  if (on_flash) {
    if (!state_.blocks().layout().map) throw std::logic_error("demand-based mapping needs the map frontier");
    tstore_ = std::make_unique<TranslationStore>(g_, state_.blocks(), cache_->params().segments(), cache_->params().segment_bytes);
  }
}

uint32_t PageFtl::group_by_segment(const uint32_t* in, uint32_t n, uint32_t* lpns, uint32_t* start) const {
  uint32_t m = 0;
  for (uint32_t i = 0; i < n; ++i)
    if (in[i] != kInvalid) lpns[m++] = in[i];
  std::sort(lpns, lpns + m);  // a page's worth of units at most
  uint32_t groups = 0;
  for (uint32_t i = 0; i < m; ++i)
    if (i == 0 || cache_->segment_of(lpns[i]) != cache_->segment_of(lpns[i - 1])) start[groups++] = i;
  start[groups] = m;
  return groups;
}

}  // namespace ssdtlm
