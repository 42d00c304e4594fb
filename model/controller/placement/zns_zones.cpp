#include "controller/placement/zns_zones.h"

#include <stdexcept>

namespace ssdtlm {

const char* zone_state_name(ZoneState s) {
  static const char* const names[] = {"empty", "implicitly_open", "explicitly_open", "closed", "full", "read_only", "offline"};
  return names[uint32_t(s)];
}

const char* zns_status_name(uint16_t status) {
  switch (status) {
    case kZnsOk: return "success";
    case kZoneBoundaryError: return "zone_boundary_error";
    case kZoneIsFull: return "zone_is_full";
    case kZoneIsReadOnly: return "zone_is_read_only";
    case kZoneIsOffline: return "zone_is_offline";
    case kZoneInvalidWrite: return "zone_invalid_write";
    case kTooManyActiveZones: return "too_many_active_zones";
    case kTooManyOpenZones: return "too_many_open_zones";
    case kInvalidZoneStateTransition: return "invalid_zone_state_transition";
    case kInvalidField: return "invalid_field";
    case kLbaOutOfRange: return "lba_out_of_range";
  }
  return "unknown";
}

ZoneManager::ZoneManager(const ZoneConfig& c) : c_(c), zones_(c.zones) {
  if (c.zones == 0 || c.zone_units == 0 || c.capacity_units == 0 || c.capacity_units > c.zone_units)
    throw std::invalid_argument("ZoneManager: zones, zone size and a capacity of at most the zone size expected");
  for (uint64_t z = 0; z < c.zones; ++z) zones_[z].wp = start(z);
}

uint16_t ZoneManager::fail(uint16_t status) {
  ++k_.errors;
  if (status >= kZoneBoundaryError && status <= kInvalidZoneStateTransition) ++k_.by_status[status - kZoneBoundaryError];
  if (status == kLbaOutOfRange) ++k_.out_of_range;
  if (status == kInvalidField) ++k_.invalid_field;
  return status;
}

void ZoneManager::lru_remove(uint64_t z) {
  Zone& x = zones_[z];
  (x.prev == kNone ? lru_head_ : zones_[x.prev].next) = x.next;
  (x.next == kNone ? lru_tail_ : zones_[x.next].prev) = x.prev;
  x.prev = x.next = kNone;
}

void ZoneManager::lru_push(uint64_t z) {
  Zone& x = zones_[z];
  x.prev = lru_tail_;
  x.next = kNone;
  (lru_tail_ == kNone ? lru_head_ : zones_[lru_tail_].next) = z;
  lru_tail_ = z;
}

void ZoneManager::set_state(uint64_t z, ZoneState s) {
  Zone& x = zones_[z];
  const ZoneState old = x.state;
  if (old == s) return;
  if (old == ZoneState::ImplicitOpen) lru_remove(z);
  open_ += uint32_t(is_open(s)) - uint32_t(is_open(old));
  active_ += uint32_t(is_active(s)) - uint32_t(is_active(old));
  x.state = s;
  if (s == ZoneState::ImplicitOpen) lru_push(z);
  if (open_ > k_.peak_open) k_.peak_open = open_;
  if (active_ > k_.peak_active) k_.peak_active = active_;
}

uint16_t ZoneManager::writable(uint64_t z) {
  const ZoneState s = zones_[z].state;
  switch (s) {
    case ZoneState::Full: return fail(kZoneIsFull);
    case ZoneState::ReadOnly: return fail(kZoneIsReadOnly);
    case ZoneState::Offline: return fail(kZoneIsOffline);
    case ZoneState::ExplicitOpen: return kZnsOk;
    case ZoneState::ImplicitOpen:
      lru_remove(z);  // most recently written
      lru_push(z);
      return kZnsOk;
    case ZoneState::Empty:
    case ZoneState::Closed: break;
  }
  if (s == ZoneState::Empty && c_.max_active && active_ >= c_.max_active) return fail(kTooManyActiveZones);
  if (c_.max_open && open_ >= c_.max_open) {
    if (lru_head_ == kNone) return fail(kTooManyOpenZones);
    ++k_.implicit_closes;  // the least recently written implicitly opened zone makes room
    set_state(lru_head_, ZoneState::Closed);
  }
  set_state(z, ZoneState::ImplicitOpen);
  return kZnsOk;
}

void ZoneManager::advance(uint64_t z, uint64_t n) {
  Zone& x = zones_[z];
  x.wp += n;
  if (x.wp == start(z) + c_.capacity_units) {
    set_state(z, ZoneState::Full);
    ++k_.became_full;
  }
}

uint16_t ZoneManager::write(uint64_t unit, uint64_t n) {
  if (n == 0 || unit + n > c_.zones * c_.zone_units) return fail(kLbaOutOfRange);
  const uint64_t z = zone_of(unit);
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::Full) return fail(kZoneIsFull);
  if (s == ZoneState::ReadOnly) return fail(kZoneIsReadOnly);
  if (s == ZoneState::Offline) return fail(kZoneIsOffline);
  if (unit != zones_[z].wp) return fail(kZoneInvalidWrite);
  if (unit + n > start(z) + c_.capacity_units) return fail(kZoneBoundaryError);
  if (const uint16_t st = writable(z)) return st;
  ++k_.writes;
  advance(z, n);
  return kZnsOk;
}

uint16_t ZoneManager::append(uint64_t zslba, uint64_t n, uint64_t* assigned) {
  if (n == 0 || zslba + n > c_.zones * c_.zone_units) return fail(kLbaOutOfRange);
  const uint64_t z = zone_of(zslba);
  if (zslba != start(z)) return fail(kInvalidField);
  if (c_.append_limit_units && n > c_.append_limit_units) return fail(kInvalidField);  // over ZASL
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::Full) return fail(kZoneIsFull);
  if (s == ZoneState::ReadOnly) return fail(kZoneIsReadOnly);
  if (s == ZoneState::Offline) return fail(kZoneIsOffline);
  if (zones_[z].wp + n > start(z) + c_.capacity_units) return fail(kZoneBoundaryError);
  if (const uint16_t st = writable(z)) return st;
  *assigned = zones_[z].wp;
  ++k_.appends;
  advance(z, n);
  return kZnsOk;
}

uint16_t ZoneManager::reset(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::ReadOnly || s == ZoneState::Offline) return fail(kInvalidZoneStateTransition);
  set_state(z, ZoneState::Empty);
  zones_[z].wp = start(z);
  zones_[z].ext = false;
  ++k_.resets;
  return kZnsOk;
}

uint16_t ZoneManager::finish(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::ReadOnly || s == ZoneState::Offline) return fail(kInvalidZoneStateTransition);
  if (s == ZoneState::Full) return kZnsOk;
  if (s == ZoneState::Empty && c_.max_active && active_ >= c_.max_active) return fail(kTooManyActiveZones);
  set_state(z, ZoneState::Full);
  zones_[z].wp = start(z) + c_.capacity_units;
  ++k_.finishes;
  return kZnsOk;
}

uint16_t ZoneManager::open(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::ExplicitOpen) return kZnsOk;
  if (s == ZoneState::Full || s == ZoneState::ReadOnly || s == ZoneState::Offline) return fail(kInvalidZoneStateTransition);
  if (s == ZoneState::Empty || s == ZoneState::Closed) {
    if (s == ZoneState::Empty && c_.max_active && active_ >= c_.max_active) return fail(kTooManyActiveZones);
    if (c_.max_open && open_ >= c_.max_open) {
      if (lru_head_ == kNone) return fail(kTooManyOpenZones);
      ++k_.implicit_closes;
      set_state(lru_head_, ZoneState::Closed);
    }
  }
  set_state(z, ZoneState::ExplicitOpen);
  ++k_.explicit_opens;
  return kZnsOk;
}

uint16_t ZoneManager::close(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  const ZoneState s = zones_[z].state;
  if (s == ZoneState::Closed) return kZnsOk;
  if (!is_open(s)) return fail(kInvalidZoneStateTransition);
  set_state(z, zones_[z].wp == start(z) && !zones_[z].ext ? ZoneState::Empty : ZoneState::Closed);
  ++k_.closes;
  return kZnsOk;
}

uint16_t ZoneManager::set_extension(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  if (zones_[z].state != ZoneState::Empty) return fail(kInvalidZoneStateTransition);
  if (c_.max_active && active_ >= c_.max_active) return fail(kTooManyActiveZones);
  zones_[z].ext = true;
  set_state(z, ZoneState::Closed);
  ++k_.extensions;
  return kZnsOk;
}

uint16_t ZoneManager::offline(uint64_t z) {
  if (z >= c_.zones) return fail(kLbaOutOfRange);
  if (zones_[z].state != ZoneState::ReadOnly) return fail(kInvalidZoneStateTransition);
  set_offline(z);
  ++k_.offlines;
  return kZnsOk;
}

void ZoneManager::set_read_only(uint64_t z) { set_state(z, ZoneState::ReadOnly); }
void ZoneManager::set_offline(uint64_t z) {
  set_state(z, ZoneState::Offline);
  zones_[z].wp = start(z);
  zones_[z].ext = false;
}

std::vector<uint64_t> ZoneManager::states() const {
  std::vector<uint64_t> n(7, 0);
  for (const Zone& z : zones_) ++n[uint32_t(z.state)];
  return n;
}

}  // namespace ssdtlm
