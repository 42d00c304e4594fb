// A zoned namespace on the FTL (docs/placement.md): the zone state machine (zns_zones.h) checks every write,
// append and reset, and every zone with data in flight owns a stream slot: a user stream with its own write
// frontier on the dies of the zone's die group (zns.zone_dies dies), so that a block only ever holds one zone's
// data. A zone that is full or reset gives its slot back once the write buffer holds none of its units: its
// frontier blocks are closed where they are (the rest of the block left unwritten), so the next zone starts
// fresh blocks. A reset invalidates the zone's units; its blocks, holding nothing valid, are erased when the
// dies need free blocks, without a copy: the host's reset is the only reclaim, and device WAF is 1 but for
// padding. Plain C++.
#pragma once
#include <cstdint>
#include <vector>

#include "controller/placement/zns_zones.h"

namespace ssdtlm {

class BlockManager;
class WriteBuffer;

struct ZnsParams {
  bool enabled = false;           // zns.enabled
  uint64_t zone_bytes = 0;        // zns.zone_bytes (0 = a block on each of the zone's dies)
  uint64_t capacity_bytes = 0;    // zns.zone_capacity_bytes (0 = the zone size)
  uint32_t max_open = 14;         // zns.max_open
  uint32_t max_active = 14;       // zns.max_active
  uint32_t zone_dies = 0;         // zns.zone_dies (0 = every die)
};

// What the FTL needs to know of the namespace's zones (derived from ZnsParams and the geometry).
struct ZnsLayout {
  ZoneConfig zones;
  uint32_t groups = 1;           // die groups (dies / zone_dies); zone z stripes over group z % groups
  uint32_t group_dies = 1;       // dies per group (zns.zone_dies)
  uint32_t slots_per_group = 1;  // stream slots per die group (= max_active, or 1 + max_open with no limit)
};

class ZnsNamespace {
 public:
  static constexpr uint16_t kNoSlot = 0xFFFF;
  // admit_write's answer when every stream slot of the zone's die group is taken (by open zones, or by full or reset
  // ones whose units are still buffered): an internal resource, so the write waits for a slot to drain, it does not
  // fail (HostPath parks it; the flush takes the draining zones' units first).
  static constexpr uint16_t kWaitForSlot = 0xFFFE;
  explicit ZnsNamespace(const ZnsLayout& l);

  ZoneManager& zones() { return zm_; }
  const ZoneManager& zones() const { return zm_; }
  const ZnsLayout& layout() const { return l_; }

  // A write command (units from lpn) or a zone append to the zone starting at lpn: the zoned checks and the
  // zone's stream slot (*slot: the user stream its units go to, carried as the command's stream id). 0 = go on
  // (an append's *lpn is then the unit it was given); kWaitForSlot; else the NVMe status it fails with.
  uint16_t admit_write(uint32_t* lpn, uint32_t units, bool append, uint16_t* slot);
  // The command's units are in the write buffer (its slot may drain now).
  void accepted(uint16_t slot) { --pending_[slot]; }
  // Zone Management Send Reset of zones [first, first + n) (a trim of whole zones).
  uint16_t reset(uint64_t first, uint64_t n);
  uint64_t slot_waits() const { return slot_waits_; }  // writes that waited for a free slot
  void waited() { ++slot_waits_; }
  // Slots of full or reset zones whose units have all left the buffer: their frontiers close, they are free.
  // Returns whether a slot was freed.
  bool drain(const WriteBuffer& buffer, BlockManager& blocks, uint32_t dies);
  // The user streams of zones that are full or reset and still hold buffered units (a bit each).
  uint64_t draining_streams() const {
    uint64_t m = 0;
    for (uint16_t s : draining_) m |= uint64_t(1) << s;
    return m;
  }
  uint32_t slots_in_use() const { return in_use_; }
  // Zones of die group g with data in flight (each holds a stream slot: open zones, and full or reset ones whose
  // units are still in the write buffer).
  uint32_t slots_in_use(uint32_t g) const { return l_.slots_per_group - uint32_t(free_[g].size()); }
  uint64_t blocks_closed_early() const { return closed_early_; }  // frontier blocks closed before they were full
  // Static striping: page k of a zone goes to die k mod zone_dies of its group, so each of its dies gets the
  // same number of pages and a zone of a block per die fills its blocks exactly (no part-written block for GC
  // to compact). The die the slot's next page goes to, and the count of its zone's pages flushed.
  uint32_t stripe_die(uint16_t slot) const {
    return slot / l_.slots_per_group * l_.group_dies + pages_[slot] % l_.group_dies;
  }
  void page_flushed(uint16_t slot) { ++pages_[slot]; }

 private:
  uint16_t take_slot(uint64_t zone);
  void release(uint64_t zone);  // the zone is full or reset: its slot drains

  ZnsLayout l_;
  ZoneManager zm_;
  std::vector<uint16_t> slot_of_zone_;
  std::vector<std::vector<uint16_t>> free_;  // per die group
  std::vector<uint32_t> pending_;            // per slot: admitted commands not yet buffered
  std::vector<uint32_t> pages_;              // per slot: its zone's pages flushed (stripe_die)
  std::vector<uint16_t> draining_;
  std::vector<uint8_t> is_draining_;
  uint32_t in_use_ = 0;
  uint64_t slot_waits_ = 0;
  uint64_t closed_early_ = 0;
};

}  // namespace ssdtlm
