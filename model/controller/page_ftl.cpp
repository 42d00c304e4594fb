#include "controller/page_ftl.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "common/huge_pages.h"

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
      dies_(std::move(dies)),
      blocks_(g, parts.layout, std::move(parts.victim)),
      gc_free_blocks_(parts.gc_free_blocks),
      valid_bits_(g.physical_units / 64 + 2, 0),
      trimmed_bits_((g.logical_units + 63) / 64, 0),
      ff_counters_(g.dies),
      full_victims_(g.dies, 0),
      gc_(*this) {
  assign_huge(l2p_, g.logical_units, kInvalid);  // read at random: huge pages spare the TLB misses
  MapCacheParams whole;  // the whole map in DRAM unless parts.map replaces it (last)
  whole.logical_units = g.logical_units;
  cache_ = make_full_map(whole);
  const FrontierLayout& layout = parts.layout;
  blocks_.set_gc_reserve(std::max<uint32_t>(1, std::min<uint32_t>(layout.gc, gc_free_blocks_ - 1)));
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
    blocks_.set_slc(slc_.get());
  }
  rel_ = std::move(parts.reliability);
  if (parts.wear_level) set_wear_level(std::move(parts.wear_level));
  set_victim_worth(parts.min_invalid, parts.urgent_free_blocks);
  checker_ = parts.checker;
  if (parts.map) set_mapping(std::move(parts.map), parts.map_on_flash);
}

void PageFtl::set_gc_unit(PageFtlParts& parts) {
  blocks_.set_striped(parts.striped);
  if (parts.unit == PageFtlParts::Unit::ReclaimUnits) {
    blocks_.set_striped(true);
    blocks_.enable_lines(parts.line_victim, parts.line_victim_key, parts.ru_groups, parts.ru_depth);
    blocks_.set_gc_reserve(1);
    reclaim_units_ = true;
  } else if (parts.unit == PageFtlParts::Unit::Superblock) {
    blocks_.enable_lines(parts.line_victim, parts.line_victim_key);
    blocks_.set_gc_reserve(blocks_.layout().gc);
  }
}

void PageFtl::set_victim_worth(double min_invalid, uint32_t urgent) {
  if (min_invalid <= 0) return;  // any victim will do
  const auto most_valid = [&](uint64_t units) { return uint32_t(units - uint64_t(std::ceil(min_invalid * double(units)))); };
  const uint64_t line_units = uint64_t(g_.units_per_block) * blocks_.line_blocks();
  blocks_.set_worth(most_valid(g_.units_per_block), most_valid(line_units), urgent);
}

void PageFtl::set_streams(std::unique_ptr<Streams> s) {
  if (s->user_streams() != blocks_.layout().user || s->gc_streams() != blocks_.layout().gc)
    throw std::logic_error("stream separation does not match the frontier layout");
  streams_ = std::move(s);
}

void PageFtl::unmap(uint32_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kInvalid) return;
  if (changes_.armed()) changes_.note(lpn);
  drop(old);
  l2p_[lpn] = kInvalid;
}

uint32_t PageFtl::valid_mask(uint32_t die, uint32_t block, uint32_t page) const {
  const uint32_t base = g_.ppa(die, block, page), shift = base & 63;
  uint64_t bits = valid_bits_[base >> 6] >> shift;
  if (shift + g_.units_per_page > 64) bits |= valid_bits_[(base >> 6) + 1] << (64 - shift);
  return uint32_t(bits & ((uint64_t(1) << g_.units_per_page) - 1));
}

uint32_t PageFtl::pick_victim(uint32_t die, FlashCounters& c) {
  if (blocks_.lines()) return pick_line_block(die, c);
  // The victim sources first (read reclaim, wear levelling, SLC folding: gc/victim_sources.cpp), then free space.
  if (const uint32_t v = sources_.take(die); v != kInvalid) return v == kNoVictim ? kInvalid : v;
  const uint32_t v = blocks_.pick_victim(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (blocks_.valid(v) < g_.units_per_block)
    full_victims_[die] = 0;
  else if (++full_victims_[die] > g_.blocks_per_die)
    throw std::logic_error("die " + std::to_string(die) + ": GC finds only fully valid blocks (no reclaimable space)");
  return v;
}

uint64_t PageFtl::host_programs() const {
  uint64_t host = counters_.programs[uint32_t(UnitKind::UD)];
  for (const FlashCounters& f : ff_counters_) host += f.programs[uint32_t(UnitKind::UD)];
  return host;
}

uint32_t PageFtl::pick_line_block(uint32_t die, FlashCounters& c) {
  // The die's block of the victim line, or of a new one once the last is free again (lines of the die's group:
  // FDP's reclaim group).
  uint32_t v = blocks_.next_line_block(die);
  bool started = false;
  uint64_t host = 0;  // host pages programmed, counted only when a line may start
  const uint32_t group = blocks_.group_of_die(die);
  if (v == kInvalid && blocks_.lines_in_gc(group) == 0) {
    // A pacing may have a new line wait for a host write since the last one started (gc_first: FEMU's FTL thread
    // runs one background do_gc per request, above the forced threshold ftl.gc_urgent_free_blocks).
    host = host_programs();
    const bool waits = pacing_->line_waits_for_host(blocks_.free_lines(group)) && host == host_at_line_;
    started = !waits && blocks_.start_line(group);
  }
  if (started) v = blocks_.next_line_block(die);
  if (v == kInvalid) return v;
  ++c.gc_victims;
  if (!started) return v;
  // A configuration that cannot make progress: new lines keep holding only valid data, or keep being collected
  // while no host data is programmed (GC frees no more than its copies and the lines it retires take).
  const uint32_t valid = blocks_.line_valid(blocks_.line_of(v));
  if (valid) ++relocated_lines_;  // FDP: a "media reallocated" event (the RU's valid data moves)
  if (valid < g_.units_per_block * blocks_.line_blocks())
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
    if (blocks_.is_slc(b)) wl_->exclude(b);  // static SLC blocks (the dynamic cache has none yet)
}

uint32_t PageFtl::wear_level_candidate(uint32_t die) const {
  if (gc_needed(die)) return kInvalid;  // free blocks first
  return wl_->candidate(die, [&](uint32_t b) { return blocks_.state(b) == BlockState::Full && !blocks_.is_slc(b); });
}

double PageFtl::alpha() const {
  double blocks = double(g_.blocks_per_die) - gc_free_blocks_ - 0.5 * blocks_.streams();
  return blocks * g_.units_per_block * g_.dies / double(g_.logical_units);
}

bool PageFtl::any_valid(uint32_t gblock) const {
  uint64_t first = uint64_t(gblock) * g_.units_per_block;
  const uint64_t end = first + g_.units_per_block;
  while (first < end) {
    const uint64_t shift = first & 63, n = std::min<uint64_t>(64 - shift, end - first);
    uint64_t bits = valid_bits_[first >> 6] >> shift;
    if (n < 64) bits &= (uint64_t(1) << n) - 1;
    if (bits) return true;
    first += n;
  }
  return false;
}

bool PageFtl::check_erase(uint32_t gblock, IntegrityChecker& c, uint64_t time_ps) const {
  c.erase_checked();
  // Every map entry's unit is marked valid (map and unmap change the two together; audit_map checks
  // it over the whole map), so a block none of whose units is marked valid holds no unit a live mapping refers
  // to: a few bitmap words per erase instead of one map lookup per unit. A block with a unit marked valid is an
  // error, scanned to name the unit.
  if (!any_valid(gblock)) return true;
  const uint32_t die = g_.die_of_gblock(gblock), block = g_.block_in_die(gblock);
  const Die& d = *dies_[die];
  const uint32_t first = block * g_.units_per_block, base = g_.ppa(die, 0, 0);
  for (uint32_t u = first; u < first + g_.units_per_block; ++u) {
    const uint32_t ppa = base + u, lpn = d.lpn(u);
    const bool data = d.kind(u) == UnitKind::UD || d.kind(u) == UnitKind::GUD;
    const bool mapped = data && lpn != kInvalid && lpn < l2p_.size() && l2p_[lpn] == ppa;
    if (!mapped && !valid(ppa)) continue;
    c.violation("erase of die " + std::to_string(die) + " block " + std::to_string(block) + " while unit " +
                    std::to_string(u - first) + (mapped ? " is the current location of LPN " + std::to_string(lpn)
                                                        : " is still marked valid") +
                    " (" + std::to_string(blocks_.valid(gblock)) + " valid units counted)",
                time_ps);
    return false;
  }
  return true;
}

void PageFtl::gc_source_violation(uint32_t lpn, uint32_t old, IntegrityChecker& c, uint64_t time_ps) const {
  const uint32_t now = l2p_[lpn];
  c.violation("GC copy of LPN " + std::to_string(lpn) + " from die " + std::to_string(g_.die_of(old)) + " block " +
                  std::to_string(g_.block_of(old)) + " page " + std::to_string(g_.page_of(old)) +
                  ", which is not its current location (" +
                  (now == kInvalid ? std::string("unmapped")
                                   : "die " + std::to_string(g_.die_of(now)) + " block " +
                                         std::to_string(g_.block_of(now)) + " page " + std::to_string(g_.page_of(now))) +
                  ")",
              time_ps);
}

void PageFtl::set_mapping(std::unique_ptr<MapCache> cache, bool on_flash) {
  cache_ = std::move(cache);
  gc_.set_batch_moves(on_flash && cache_->params().gc_batch);
  if (on_flash) {
    if (!blocks_.layout().map) throw std::logic_error("demand-based mapping needs the map frontier");
    tstore_ = std::make_unique<TranslationStore>(g_, blocks_, cache_->params().segments(), cache_->params().segment_bytes);
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

bool PageFtl::audit_map(IntegrityChecker& c, uint64_t time_ps) const {
  // Each mapped LPN's unit is marked valid and, once programmed, names that LPN in its out-of-band data, so
  // no two LPNs share a unit; then as many units are marked valid as LPNs are mapped, so no other unit is.
  uint64_t mapped = 0, marked = 0;
  auto where = [&](uint32_t ppa) {
    return "die " + std::to_string(g_.die_of(ppa)) + " block " + std::to_string(g_.block_of(ppa)) + " page " +
           std::to_string(g_.page_of(ppa)) + " slot " + std::to_string(g_.slot_of(ppa));
  };
  for (uint32_t lpn = 0; lpn < l2p_.size(); ++lpn) {
    const uint32_t ppa = l2p_[lpn];
    if (ppa == kInvalid) continue;
    ++mapped;
    const uint32_t d = g_.die_of(ppa), unit = ppa - g_.ppa(d, 0, 0);
    const bool programmed = dies_[d]->programmed(g_.block_of(ppa), g_.page_of(ppa));
    if (valid(ppa) && (!programmed || dies_[d]->lpn(unit) == lpn)) continue;
    c.violation("map audit: LPN " + std::to_string(lpn) + " maps to " + where(ppa) +
                    (valid(ppa) ? ", which holds LPN " + std::to_string(dies_[d]->lpn(unit)) : ", a unit not marked valid"),
                time_ps);
    return false;
  }
  for (uint64_t w : valid_bits_) marked += uint64_t(__builtin_popcountll(w));
  if (marked == mapped) return true;
  c.violation("map audit: " + std::to_string(marked) + " units marked valid for " + std::to_string(mapped) +
                  " mapped LPNs (a unit no LPN maps to is marked valid)",
              time_ps);
  return false;
}

}  // namespace ssdtlm
