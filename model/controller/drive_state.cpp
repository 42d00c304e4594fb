#include "controller/drive_state.h"

#include <string>

#include "common/huge_pages.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

DriveState::DriveState(const Geometry& g, std::vector<Die*> dies, BlockParams blocks)
    : g_(g),
      dies_(std::move(dies)),
      blocks_(g, std::move(blocks)),
      valid_bits_(g.physical_units / 64 + 2, 0),
      trimmed_bits_((g.logical_units + 63) / 64, 0),
      die_counters_(g.dies) {
  assign_huge(l2p_, g.logical_units, kInvalid);  // read at random: huge pages spare the TLB misses
}

void DriveState::merge_die_counters() {
  for (FlashCounters& d : die_counters_) {
    counters_ += d;
    d = FlashCounters();
  }
}

uint64_t DriveState::host_programs() const {
  uint64_t host = counters_.programs[uint32_t(UnitKind::UD)];
  for (const FlashCounters& f : die_counters_) host += f.programs[uint32_t(UnitKind::UD)];
  return host;
}

void DriveState::snapshot_die_counters(SnapshotArchive& a) { a.io(die_counters_); }

void DriveState::unmap(uint32_t lpn) {
  uint32_t old = l2p_[lpn];
  if (old == kInvalid) return;
  if (changes_.armed()) changes_.note(lpn);
  drop(old);
  l2p_[lpn] = kInvalid;
}

uint32_t DriveState::next_trimmed(uint32_t lpn) const {
  for (size_t w = lpn >> 6; w < trimmed_bits_.size(); ++w) {
    const uint64_t bits = trimmed_bits_[w] & (w == lpn >> 6 ? ~uint64_t(0) << (lpn & 63) : ~uint64_t(0));
    if (bits) return std::min<uint32_t>(uint32_t(w * 64 + __builtin_ctzll(bits)), uint32_t(g_.logical_units));
  }
  return uint32_t(g_.logical_units);
}

uint32_t DriveState::valid_mask(uint32_t die, uint32_t block, uint32_t page) const {
  const uint32_t base = g_.ppa(die, block, page), shift = base & 63;
  uint64_t bits = valid_bits_[base >> 6] >> shift;
  if (shift + g_.units_per_page > 64) bits |= valid_bits_[(base >> 6) + 1] << (64 - shift);
  return uint32_t(bits & ((uint64_t(1) << g_.units_per_page) - 1));
}

void DriveState::snapshot_map(SnapshotArchive& a) { a.io_all(l2p_, valid_bits_, trimmed_bits_); }

void DriveState::snapshot_dies(SnapshotArchive& a) {
  for (Die* d : dies_) d->snapshot(a);
}

bool DriveState::any_valid(uint32_t gblock) const {
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

bool DriveState::check_erase(uint32_t gblock, IntegrityChecker& c, uint64_t time_ps) const {
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

void DriveState::gc_source_violation(uint32_t lpn, uint32_t old, IntegrityChecker& c, uint64_t time_ps) const {
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

bool DriveState::audit_map(IntegrityChecker& c, uint64_t time_ps) const {
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
                  (marked > mapped ? " mapped LPNs (a unit no LPN maps to is marked valid)"
                                   : " mapped LPNs (two LPNs map to one unit)"),
              time_ps);
  return false;
}

}  // namespace ssdtlm
