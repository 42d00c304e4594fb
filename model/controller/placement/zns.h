// A zoned namespace on the FTL (docs/reference/placement.md): the zone state machine (zns_zones.h) checks every write,
// append and zone management command, and every zone with data in flight holds a stream slot: a user stream
// (one of 64) whose write frontier on each die of the zone's die group (zns.zone_dies dies) is the zone's open
// block there, so that a block only ever holds one zone's data. Slots are shared by all die groups (zone z
// stripes over group z mod groups, whatever its slot), so zones as narrow as one die and as many active zones as
// the namespace has are possible: a zone that is active (open or closed) but holds no buffered units gives its
// slot back when another zone needs one, and keeps its open blocks (parked here with its page count) until it
// takes a slot again. A zone that is full or reset gives its slot back once the write buffer holds none of its
// units: its open blocks are closed where they are (the rest of the block left unwritten). A zone's blocks are
// its capacity's: a reset zone's blocks hold nothing valid and are erased, without a copy, at the reset
// (zns.reset_erase=reset) or when the dies need free blocks (lazy): the host's reset is the only reclaim, and
// device WAF is 1 but for padding. Plain C++.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/io_op.h"
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
  uint64_t zasl_bytes = 0;        // zns.zasl_bytes (0 = no limit but the largest request)
  uint32_t zone_ext_bytes = 0;    // zns.zone_ext_bytes (0 = no zone descriptor extensions)
  bool erase_at_reset = true;     // zns.reset_erase=reset (else lazy)
};

// What the FTL needs to know of the namespace's zones (derived from ZnsParams and the geometry).
struct ZnsLayout {
  static constexpr uint32_t kSlots = 64;  // stream slots: the drive's 64 user write streams
  ZoneConfig zones;
  uint32_t groups = 1;      // die groups (dies / zone_dies); zone z stripes over group z % groups
  uint32_t group_dies = 1;  // dies per group (zns.zone_dies)
  bool erase_at_reset = true;
  uint32_t zone_ext_bytes = 0;  // zone descriptor extension size (the register interface's endpoint keeps them)
};

class ZnsNamespace {
 public:
  static constexpr uint16_t kNoSlot = 0xFFFF;
  // admit_write's answer when every stream slot is taken (by zones with units buffered or being admitted): an
  // internal resource, so the write waits for a slot, it does not fail (HostPath parks it; the flush takes the
  // units of zones not open first, partial pages too).
  static constexpr uint16_t kWaitForSlot = 0xFFFE;
  explicit ZnsNamespace(const ZnsLayout& l);

  ZoneManager& zones() { return zm_; }
  const ZoneManager& zones() const { return zm_; }
  const ZnsLayout& layout() const { return l_; }

  // A write command (units from lpn) or a zone append to the zone starting at lpn: the zoned checks and the
  // zone's stream slot (*slot: the user stream its units go to, carried as the command's stream id). 0 = go on
  // (an append's *lpn is then the unit it was given); kWaitForSlot; else the NVMe status it fails with.
  uint16_t admit_write(uint32_t* lpn, uint32_t units, bool append, uint16_t* slot, BlockManager& blocks);
  // The command's units are in the write buffer (its slot may drain now).
  void accepted(uint16_t slot) { --pending_[slot]; }
  // Zone Management Send of one zone: Reset, Open, Close, Finish (ZoneAction). 0 or the NVMe status.
  // A reset or finished zone's slot drains; its parked blocks (no slot) are closed at once in `blocks`.
  uint16_t manage(ZoneAction a, uint64_t zone, BlockManager& blocks);
  uint64_t slot_waits() const { return slot_waits_; }  // writes that waited for a free slot
  void waited() { ++slot_waits_; }
  // Gives back the slots whose zones hold no unit in the buffer and none being admitted: a full or reset zone's
  // (its frontiers close); with `need` (a write waits for a slot) also an active zone's (its open blocks are
  // parked), a zone not open first. Returns whether a slot was freed.
  bool drain(const WriteBuffer& buffer, BlockManager& blocks, bool need);
  // The user streams whose units the flush should take first while a write waits for a slot: zones full, reset
  // or not open (closed), whose slots free once their units have left the buffer (a bit each).
  uint64_t draining_streams() const;
  uint32_t slots_in_use() const { return in_use_; }
  // Zones of die group g holding a stream slot (open, or with units still buffered).
  uint32_t zones_writing(uint32_t g) const { return writing_[g]; }
  uint64_t blocks_closed_early() const { return closed_early_; }  // zone blocks closed before they were full
  uint64_t parks() const { return parks_; }  // slots given back by active zones (their open blocks parked)
  // Static striping: page k of a zone goes to die k mod zone_dies of its group, so each of its dies gets the
  // same number of pages and a zone of a block per die fills its blocks exactly (no part-written block for GC
  // to compact). The die the slot's next page goes to.
  uint32_t stripe_die(uint16_t slot) const { return group_[slot] * l_.group_dies + pages_[slot] % l_.group_dies; }
  // A page of the slot's zone was flushed into gblock (opened: a block the zone opened for it).
  void page_flushed(uint16_t slot, uint32_t gblock, bool opened) {
    ++pages_[slot];
    if (opened) blocks_[zone_of_slot_[slot]].push_back(gblock);
  }
  // The blocks a zone has opened since it was last reset, oldest first (its capacity's blocks), and, for a zone
  // just reset, the blocks to erase (taken: the zone forgets them).
  const std::vector<uint32_t>* zone_blocks(uint64_t zone) const;
  // summary.json "zns": the layout, zones per state, zone commands and the NVMe statuses of those that failed.
  nlohmann::json report() const;
  // zones.csv: a zone per line (Report Zones at the end of the run, as nvme zns report-zones lists them).
  std::string zones_csv() const;
  std::vector<uint32_t> take_blocks(uint64_t zone);

 private:
  uint16_t take_slot(uint64_t zone, BlockManager& blocks);
  void release(uint64_t zone, BlockManager& blocks);  // the zone is full or reset: its slot drains
  void free_slot(uint16_t s, BlockManager& blocks);   // retires (full, reset) or parks (active) its frontiers
  bool idle(uint16_t s, const WriteBuffer& buffer) const;

  struct Parked {  // an active zone without a slot: its open block per die of its group, and its pages flushed
    uint32_t pages = 0;
    std::vector<uint32_t> blocks;
  };
  static constexpr uint64_t kNoZone = ~uint64_t(0);
  ZnsLayout l_;
  ZoneManager zm_;
  std::vector<uint16_t> slot_of_zone_;
  std::vector<uint64_t> zone_of_slot_;  // per slot (kNoZone: free)
  std::vector<uint32_t> group_;         // per slot: its zone's die group
  std::vector<uint16_t> free_;
  std::vector<uint32_t> pending_;       // per slot: admitted commands not yet buffered
  std::vector<uint32_t> pages_;         // per slot: its zone's pages flushed (stripe_die)
  std::vector<uint8_t> retiring_;       // per slot: its zone is full or reset
  std::vector<uint16_t> draining_;      // slots of full or reset zones
  std::vector<uint32_t> writing_;       // per die group: slots held by its zones
  std::unordered_map<uint64_t, Parked> parked_;
  std::unordered_map<uint64_t, std::vector<uint32_t>> blocks_;  // per zone with data: the blocks it opened
  uint32_t in_use_ = 0;
  uint64_t slot_waits_ = 0, closed_early_ = 0, parks_ = 0;
};

}  // namespace ssdtlm
