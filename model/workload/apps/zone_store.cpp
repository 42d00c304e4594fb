#include "workload/apps/zone_store.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ssdtlm {

ZoneStore::ZoneStore(const ZoneGeometry& g, uint32_t gc_free_zones, uint32_t finish_percent)
    : g_(g), gc_free_(gc_free_zones), finish_units_(g.capacity_units * finish_percent / 100), zones_(g.zones) {
  if (g.zones == 0 || g.capacity_units == 0 || g.capacity_units > g.zone_units)
    throw std::invalid_argument("zone store: no zones or a zone capacity of 0 or above the zone size");
  for (uint64_t z = 0; z < g.zones; ++z) free_.insert(free_.end(), z);
}

uint16_t ZoneStore::class_of(uint16_t hint) const {
  if (g_.max_active == 0) return hint;
  return uint16_t(hint % std::max<uint32_t>(1, g_.max_active - 1));
}

uint64_t ZoneStore::take_zone(uint16_t cls) {
  if (free_.empty())
    throw FileLayerFull("no empty zone left (" + std::to_string(g_.zones) + " zones, " + std::to_string(full_.size()) +
                            " full, " + std::to_string(active_.size()) + " active, " + std::to_string(live_) +
                            " units live)",
                        g_.capacity_units, 0);
  const uint64_t z = *free_.begin();
  free_.erase(free_.begin());
  Zone& zone = zones_[z];
  zone.used = true;
  zone.cls = cls;
  zone.wp = 0;
  zone.live = 0;
  active_[cls] = z;
  ++cls_stats_[cls].zones_opened;
  return z;
}

void ZoneStore::set_full(uint64_t z) {
  active_.erase(zones_[z].cls);
  full_.insert({zones_[z].live, z});
}

void ZoneStore::place(FileId f, uint64_t offset, uint64_t units, uint16_t cls, std::vector<Extent>& out) {
  auto& pieces = files_[f];
  while (units) {
    auto a = active_.find(cls);
    const uint64_t z = a == active_.end() ? take_zone(cls) : a->second;
    Zone& zone = zones_[z];
    const uint64_t n = std::min(units, g_.capacity_units - zone.wp);
    const uint64_t lba = zone_start(z) + zone.wp;
    // Extend the piece that ends just before, when it ends at this LBA in this zone.
    auto next = pieces.lower_bound(offset);
    bool merged = false;
    if (next != pieces.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second.units == offset && prev->second.lba + prev->second.units == lba &&
          prev->second.lba / g_.zone_units == z) {
        prev->second.units += n;
        merged = true;
      }
    }
    if (!merged) {
      pieces[offset] = Piece{lba, n};
      zone.pieces.insert({f, offset});
    }
    zone.wp += n;
    zone.live += n;
    live_ += n;
    cls_stats_[cls].written_units += n;
    if (!out.empty() && out.back().start + out.back().units == lba && zone.wp != n) out.back().units += n;  // not across zones
    else out.push_back({lba, n});
    offset += n;
    units -= n;
    if (zone.wp == g_.capacity_units) set_full(z);
  }
  maybe_finish(cls);
}

void ZoneStore::maybe_finish(uint16_t cls) {
  auto a = active_.find(cls);
  if (!finish_units_ || a == active_.end()) return;
  const uint64_t z = a->second;
  Zone& zone = zones_[z];
  if (zone.wp == 0 || g_.capacity_units - zone.wp >= finish_units_) return;
  zone.finished = true;
  set_full(z);
  finished_.push_back(z);
  ++finishes_;
}

uint64_t ZoneStore::written_active_zone(uint16_t cls) const {
  auto a = active_.find(cls);
  return a == active_.end() || zones_[a->second].wp == 0 ? kNoZone : a->second;
}

void ZoneStore::append(FileId f, uint64_t offset, uint64_t units, uint16_t cls, std::vector<Extent>& out) {
  uint64_t& w = written_[f];
  if (offset != w)
    throw std::logic_error("zone store: file " + std::to_string(f) + " written at " + std::to_string(offset) +
                           ", not at its end " + std::to_string(w) + " (zones are written sequentially)");
  place(f, offset, units, cls, out);
  w += units;
}

uint64_t ZoneStore::written(FileId f) const {
  auto it = written_.find(f);
  return it == written_.end() ? 0 : it->second;
}

void ZoneStore::map(FileId f, uint64_t offset, uint64_t units, std::vector<Extent>& out) const {
  auto it = files_.find(f);
  if (it == files_.end() || offset + units > written(f))
    throw std::logic_error("zone store: read of file " + std::to_string(f) + " beyond what was written");
  const auto& pieces = it->second;
  auto p = pieces.upper_bound(offset);
  --p;
  while (units) {
    const uint64_t skip = offset - p->first;
    const uint64_t n = std::min(units, p->second.units - skip);
    out.push_back({p->second.lba + skip, n});
    offset += n;
    units -= n;
    ++p;
  }
}

void ZoneStore::kill(uint64_t z, uint64_t units, std::vector<uint64_t>* resets) {
  Zone& zone = zones_[z];
  const bool is_full = full(zone);
  if (is_full) full_.erase({zone.live, z});
  zone.live -= units;
  live_ -= units;
  if (!is_full) return;
  if (zone.live == 0) {
    ++cls_stats_[zone.cls].zones_reset;
    reset(z);
    if (resets) resets->push_back(z);
  } else {
    full_.insert({zone.live, z});
  }
}

void ZoneStore::reset(uint64_t z) {
  zones_[z] = Zone{};
  free_.insert(z);
  ++resets_;
}

void ZoneStore::remove(FileId f, std::vector<uint64_t>& resets) {
  auto it = files_.find(f);
  if (it != files_.end()) {
    for (auto& [off, p] : it->second) {
      const uint64_t z = p.lba / g_.zone_units;
      zones_[z].pieces.erase({f, off});
      kill(z, p.units, &resets);
    }
    files_.erase(it);
  }
  written_.erase(f);
}

bool ZoneStore::gc_wanted() const {
  return free_.size() < gc_free_ && !full_.empty() && full_.begin()->first < g_.capacity_units;
}

uint64_t ZoneStore::collect(std::vector<Extent>& reads, std::vector<Extent>& writes) {
  const uint64_t z = full_.begin()->second;
  full_.erase(full_.begin());
  Zone& victim = zones_[z];
  const uint16_t cls = victim.cls;
  const std::vector<std::pair<FileId, uint64_t>> moving(victim.pieces.begin(), victim.pieces.end());
  uint64_t moved = 0;
  for (auto& [f, off] : moving) {
    auto& pieces = files_[f];
    const Piece p = pieces[off];
    pieces.erase(off);
    reads.push_back({p.lba, p.units});
    victim.live -= p.units;
    live_ -= p.units;
    place(f, off, p.units, kGcClass, writes);
    moved += p.units;
  }
  ++gc_runs_;
  gc_units_ += moved;
  cls_stats_[cls].gc_moved_units += moved;
  ++cls_stats_[cls].zones_collected;
  reset(z);
  return z;
}

std::string ZoneStore::check() const {
  uint64_t live = 0;
  std::vector<uint64_t> in_zone(zones_.size(), 0);
  for (auto& [f, pieces] : files_)
    for (auto& [off, p] : pieces) {
      const uint64_t z = p.lba / g_.zone_units;
      if ((p.lba + p.units - 1) / g_.zone_units != z) return "a piece of file " + std::to_string(f) + " crosses a zone";
      if (p.lba - zone_start(z) + p.units > zones_[z].wp) return "a piece of file " + std::to_string(f) + " beyond its zone's write pointer";
      if (!zones_[z].pieces.count({f, off})) return "zone " + std::to_string(z) + " does not list a piece of file " + std::to_string(f);
      in_zone[z] += p.units;
      live += p.units;
    }
  if (live != live_) return "live units " + std::to_string(live_) + " but the files hold " + std::to_string(live);
  for (uint64_t z = 0; z < zones_.size(); ++z) {
    if (in_zone[z] != zones_[z].live) return "zone " + std::to_string(z) + " counts " + std::to_string(zones_[z].live) + " live units, its pieces " + std::to_string(in_zone[z]);
    if (!zones_[z].used && (zones_[z].wp || !free_.count(z))) return "zone " + std::to_string(z) + " unused but not empty and free";
  }
  if (free_.size() + full_.size() + active_.size() != zones_.size()) return "zones are not each free, full or active";
  return "";
}

}  // namespace ssdtlm
