// NVMe Zoned Namespaces (ZNS) zone state machine: zones, write pointers, the zone states and the open/active
// limits, with the NVMe status a real drive returns for each violation (docs/reference/placement.md). Plain C++, O(1) per
// command (the implicitly open zones form an LRU list for the implicit close the specification allows).
//
// States (ZNS specification, zone state machine): Empty, Implicitly Opened, Explicitly Opened, Closed, Full,
// Read Only, Offline. Open = implicitly or explicitly opened (at most max_open); active = open or closed (at
// most max_active). A write (or append) to an Empty or Closed zone opens it implicitly; at the open limit the
// controller first closes the least recently written implicitly opened zone. A zone whose write pointer reaches
// its capacity is Full. Reset: any state but Read Only / Offline -> Empty. Finish: -> Full.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ssdtlm {

enum class ZoneState : uint8_t { Empty, ImplicitOpen, ExplicitOpen, Closed, Full, ReadOnly, Offline };
const char* zone_state_name(ZoneState s);

// NVMe completion status (SCT 1, command specific) of zoned commands; 0 = success.
enum ZnsStatus : uint16_t {
  kZnsOk = 0,
  kZoneBoundaryError = 0x1B8,
  kZoneIsFull = 0x1B9,
  kZoneIsReadOnly = 0x1BA,
  kZoneIsOffline = 0x1BB,
  kZoneInvalidWrite = 0x1BC,
  kTooManyActiveZones = 0x1BD,
  kTooManyOpenZones = 0x1BE,
  kInvalidZoneStateTransition = 0x1BF,
  kInvalidField = 0x002,   // generic status: invalid field in command (an append not at a zone start)
  kLbaOutOfRange = 0x080,  // generic status: LBA out of range
};
const char* zns_status_name(uint16_t status);

struct ZoneConfig {
  uint64_t zones = 0;
  uint64_t zone_units = 0;      // zone size in 4 KiB units (zns.zone_bytes / 4 KiB)
  uint64_t capacity_units = 0;  // writable units per zone (zns.zone_capacity_bytes / 4 KiB)
  uint32_t max_open = 0;        // 0 = no limit
  uint32_t max_active = 0;      // 0 = no limit
  uint64_t append_limit_units = 0;  // Zone Append Size Limit (zns.zasl_bytes / 4 KiB); 0 = none
};

struct ZoneCounters {
  uint64_t writes = 0, appends = 0, resets = 0, finishes = 0, explicit_opens = 0, closes = 0;
  uint64_t extensions = 0;       // Set Zone Descriptor Extension actions that succeeded
  uint64_t offlines = 0;         // Offline Zone actions that succeeded
  uint64_t implicit_closes = 0;  // implicitly opened zones the controller closed to open another
  uint64_t errors = 0;           // commands failed with a zoned status
  uint64_t by_status[8] = {};    // per status 0x1B8 .. 0x1BF
  uint64_t out_of_range = 0, invalid_field = 0;
  uint64_t became_full = 0;
  uint32_t peak_open = 0, peak_active = 0;  // the most zones open, active at once
};

class ZoneManager {
 public:
  explicit ZoneManager(const ZoneConfig& c);

  const ZoneConfig& config() const { return c_; }
  uint64_t zone_of(uint64_t unit) const { return unit / c_.zone_units; }
  uint64_t start(uint64_t zone) const { return zone * c_.zone_units; }
  ZoneState state(uint64_t zone) const { return zones_[zone].state; }
  uint64_t write_pointer(uint64_t zone) const { return zones_[zone].wp; }
  uint32_t open_zones() const { return open_; }
  uint32_t active_zones() const { return active_; }

  // A write of [unit, unit + n): at the zone's write pointer, inside its capacity, in a writable state, within
  // the limits. Advances the write pointer on success.
  uint16_t write(uint64_t unit, uint64_t n);
  // Zone append of n units to the zone starting at zslba: written at the write pointer, whose unit is returned in
  // *assigned. Not at a zone start, or larger than the Zone Append Size Limit: Invalid Field in Command.
  uint16_t append(uint64_t zslba, uint64_t n, uint64_t* assigned);
  // Zone management send actions.
  uint16_t reset(uint64_t zone);   // -> Empty, write pointer to the zone start
  uint16_t finish(uint64_t zone);  // -> Full
  uint16_t open(uint64_t zone);    // explicit open
  uint16_t close(uint64_t zone);   // open -> Closed (Empty if nothing written and no descriptor extension)
  // Offline Zone (ZNS Command Set 1.1 §3.4.3, Zone Send Action 05h): a Read Only zone becomes Offline (its data
  // gone, its write pointer and extension no longer valid); any other state Invalid Zone State Transition.
  uint16_t offline(uint64_t zone);
  // Set Zone Descriptor Extension (ZNS Command Set 1.1 §3.4.3, Zone Send Action 10h): an Empty zone gets its
  // extension (Zone Attributes' ZDEV) and becomes Closed, an active zone (Too Many Active Zones at the limit); in
  // any other state Invalid Zone State Transition. The extension stays valid until the zone is reset or offline.
  uint16_t set_extension(uint64_t zone);
  bool has_extension(uint64_t zone) const { return zones_[zone].ext; }
  // Media failures the specification allows a controller to report (tests, fault studies).
  void set_read_only(uint64_t zone);
  void set_offline(uint64_t zone);

  const ZoneCounters& counters() const { return k_; }
  void reset_counters() {
    k_ = ZoneCounters();
    k_.peak_open = open_;
    k_.peak_active = active_;
  }
  // Zones per state, indexed by ZoneState.
  std::vector<uint64_t> states() const;

 private:
  struct Zone {
    uint64_t wp = 0;
    ZoneState state = ZoneState::Empty;
    bool ext = false;  // a zone descriptor extension is valid (ZDEV)
    uint64_t prev = kNone, next = kNone;  // LRU list of implicitly opened zones
  };
  static constexpr uint64_t kNone = ~uint64_t(0);
  uint16_t fail(uint16_t status);
  uint16_t writable(uint64_t z);           // may the zone take a write now (opening it implicitly)?
  void advance(uint64_t z, uint64_t n);
  void set_state(uint64_t z, ZoneState s);  // keeps the open/active counts and the LRU list
  void lru_remove(uint64_t z);
  void lru_push(uint64_t z);
  static bool is_open(ZoneState s) { return s == ZoneState::ImplicitOpen || s == ZoneState::ExplicitOpen; }
  static bool is_active(ZoneState s) { return is_open(s) || s == ZoneState::Closed; }

  ZoneConfig c_;
  std::vector<Zone> zones_;
  uint32_t open_ = 0, active_ = 0;
  uint64_t lru_head_ = kNone, lru_tail_ = kNone;  // head = least recently written implicitly opened zone
  ZoneCounters k_;
};

}  // namespace ssdtlm
