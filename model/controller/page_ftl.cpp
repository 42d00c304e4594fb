#include "controller/page_ftl.h"

#include <stdexcept>
#include <string>

namespace ssdtlm {

PageFtl::PageFtl(const Geometry& g, std::vector<Die*> dies, std::unique_ptr<VictimPolicy> victim,
                 uint32_t gc_free_blocks, uint32_t streams)
    : g_(g),
      dies_(std::move(dies)),
      blocks_(g, streams, std::move(victim)),
      gc_free_blocks_(gc_free_blocks),
      l2p_(g.logical_units, kInvalid) {}

void PageFtl::map(uint32_t lpn, uint32_t ppa) {
  uint32_t old = l2p_[lpn];
  if (old != kInvalid) blocks_.invalidate(g_.gblock_of(old));
  l2p_[lpn] = ppa;
  blocks_.validate(g_.gblock_of(ppa));
}

bool PageFtl::remap_if(uint32_t lpn, uint32_t old_ppa, uint32_t new_ppa) {
  if (l2p_[lpn] != old_ppa) return false;
  map(lpn, new_ppa);
  return true;
}

void PageFtl::unmap(uint32_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kInvalid) return;
  blocks_.invalidate(g_.gblock_of(old));
  l2p_[lpn] = kInvalid;
}

bool PageFtl::valid(uint32_t ppa) const {
  uint32_t unit = ppa % (g_.blocks_per_die * g_.units_per_block);
  uint32_t lpn = dies_[g_.die_of(ppa)]->lpn(unit);
  return lpn != kInvalid && l2p_[lpn] == ppa;
}

uint32_t PageFtl::valid_mask(uint32_t die, uint32_t block, uint32_t page) const {
  uint32_t base = g_.ppa(die, block, page), mask = 0;
  for (uint32_t s = 0; s < g_.units_per_page; ++s)
    if (valid(base + s)) mask |= 1u << s;
  return mask;
}

double PageFtl::alpha() const {
  double blocks = double(g_.blocks_per_die) - gc_free_blocks_ - 0.5 * blocks_.streams();
  return blocks * g_.units_per_block * g_.dies / double(g_.logical_units);
}

void PageFtl::ff_program(uint32_t die, uint32_t stream, const uint32_t* lpns, const uint32_t* versions,
                         UnitKind kind) {
  uint32_t ppa = blocks_.allocate_page(die, stream);
  if (ppa == kInvalid)
    throw std::logic_error("die " + std::to_string(die) + ": no free block for stream " + std::to_string(stream));
  uint32_t b = g_.gblock_of(ppa);
  dies_[die]->program(g_.block_of(ppa), g_.page_of(ppa), lpns, versions, kind);
  ++counters_.programs[uint32_t(kind)];
  for (uint32_t s = 0; s < g_.units_per_page; ++s) {
    if (lpns[s] == kInvalid) continue;
    if (kind == UnitKind::UD)
      map(lpns[s], ppa + s);
    else
      remap_if(lpns[s], l2p_[lpns[s]], ppa + s);
  }
  blocks_.page_done(b);
}

void PageFtl::ff_collect(uint32_t die) {
  uint32_t victim = blocks_.pick_victim(die);
  if (victim == kInvalid) throw std::logic_error("die " + std::to_string(die) + ": GC found no victim");
  if (blocks_.valid(victim) == g_.units_per_block)
    throw std::logic_error("die " + std::to_string(die) + ": GC victim holds only valid data (device full)");
  ++counters_.gc_victims;
  Die& d = *dies_[die];
  uint32_t block = victim % g_.blocks_per_die;
  uint32_t lpns[kMaxUnitsPerPage], versions[kMaxUnitsPerPage], n = 0;
  for (uint32_t p = 0; p < g_.pages_per_block && blocks_.valid(victim) > n; ++p) {
    uint32_t mask = valid_mask(die, block, p);
    if (!mask) continue;
    ++counters_.reads[2];
    for (; mask; mask &= mask - 1) {
      uint32_t s = uint32_t(__builtin_ctz(mask));
      uint32_t unit = block * g_.units_per_block + p * g_.units_per_page + s;
      lpns[n] = d.lpn(unit);
      versions[n] = d.version(unit);
      if (++n == g_.units_per_page) {
        ff_program(die, kGcStream, lpns, versions, UnitKind::GUD);
        counters_.gc_units_moved += n;
        n = 0;
      }
    }
  }
  if (n) {
    counters_.gc_units_moved += n;
    for (uint32_t s = n; s < g_.units_per_page; ++s) lpns[s] = kInvalid;
    ff_program(die, kGcStream, lpns, versions, UnitKind::GUD);
  }
  d.erase(block);
  ++counters_.erases;
  blocks_.erased(victim);
}

void PageFtl::ff_write_page(uint32_t die, const uint32_t* lpns, const uint32_t* versions) {
  while (gc_needed(die)) ff_collect(die);
  ff_program(die, kUserStream, lpns, versions, UnitKind::UD);
}

}  // namespace ssdtlm
