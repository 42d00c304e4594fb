// The steps of one power loss and their plan (README.md beside): the dump step fills the plan with what the
// capacitors save, the scan step with what recovery reads (which translation pages, blocks and pages, which LPNs
// it checks) and the newest durable copies it finds, the rebuild step replays from it and notes what it remapped,
// the verify step checks what the plan says was rebuilt. Internal to power_loss/.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "controller/integrity_checker.h"
#include "controller/drive_state.h"
#include "controller/mapping/map_cache.h"
#include "controller/power_loss/power_loss.h"
#include "flash/nand_timing.h"

namespace ssdtlm {

class WriteBuffer;

// A bit per LPN.
struct LpnBits {
  std::vector<uint64_t> words;
  explicit LpnBits(uint32_t logical = 0) : words((uint64_t(logical) + 63) / 64, 0) {}
  bool test(uint32_t lpn) const { return (words[lpn >> 6] >> (lpn & 63)) & 1; }
  void set(uint32_t lpn) { words[lpn >> 6] |= uint64_t(1) << (lpn & 63); }
};

// Where a map segment's entries come from after the loss.
enum class SegmentSource : uint8_t {
  Flash,   // its flash copy is current (or it holds nothing)
  Dump,    // saved in the dump
  Replay,  // dirty and not saved: its flash copy (if any) is older than the map at the loss, and recovery replays
           // its later updates from the out-of-band data of the blocks closed since that copy was written
};

// What one loss works with, fixed for its duration.
struct LossContext {
  PowerLossState& state;
  DriveState& drive;     // the FTL's map, valid bitmap, blocks and dies
  const MapCache& cache;  // which map segments are dirty, and their checkpoints
  WriteBuffer& buffer;
  IntegrityChecker& checker;
  const PowerLossParams& params;
  const Geometry& g;
  NandTiming timing;  // the channel controller's operation times
  uint64_t now_ps;
  uint32_t logical;   // logical units
};

struct RecoveryPlan {
  // What the capacitors save (the dump step).
  bool whole_map_in_dram = false;  // a page map never written back: the dump holds the whole map
  uint32_t trims_kept_below = 0;   // the trim journal's records of the LPNs below this were saved
  std::unordered_map<uint32_t, uint32_t> saved;  // lpn -> version of its buffered copy in the dump
  std::vector<uint32_t> buffered;                // LPNs buffered at the loss (their newest copy)
  std::vector<uint32_t> unsaved_versions;        // buffered copies the dump does not hold
  LpnBits unsaved_lpns;                          // LPNs with a version in unsaved_versions
  LpnBits in_dump;                               // LPNs whose buffered copy is in the dump
  std::vector<SegmentSource> segments;           // per map segment
  // What recovery reads (the scan step). Blocks, by global index: `usable` holds data (not free, not a victim
  // whose erase is in flight); `scanned` has its out-of-band data read (every open block, and with segments to
  // replay every block closed after the oldest of their checkpoints); `recent` was written since the last loss
  // (open, or closed since), so a buffered copy can have been programmed into it.
  uint64_t replayed_segments = 0;              // segments whose source is Replay
  uint64_t oldest_checkpoint = ~uint64_t(0);   // the oldest among theirs (0: one was never written back)
  bool incremental = false;  // only the LPNs changed since the last loss (and those buffered) are checked
  std::vector<uint32_t> checked;  // incremental: those LPNs; else every LPN is
  std::vector<uint8_t> usable, scanned, recent;
  // What the scan finds. The newest durable copy per LPN in the scanned blocks is in state.scan_ver/scan_ppa (the
  // entries set listed in scanned_lpns); for a segment to replay, the newest anywhere in all_ver/all_ppa;
  // state.map_ver[lpn]: the version at the live map's entry when that copy is durable and trusted, else 0.
  std::unordered_set<uint32_t> pending;  // unsaved buffered copies not found on flash: lost
  std::vector<uint32_t> all_ver, all_ppa, scanned_lpns;
  // What the rebuild changed: the segments of units whose last write was lost, the units remapped.
  std::vector<uint32_t> changed, moved;
};

// Work of the recovery (or of the dump) per die and per channel, each operation timed by NandTiming as the
// channel controller times it: a read is its array time then its data-out on the die's channel, a program its
// data-in then its array time. Dies work in parallel; a die's own operations and a channel's transfers are serial.
class RecoveryTimeline {
 public:
  RecoveryTimeline(const Geometry& g, const NandTiming& t) : g_(g), t_(t), die_(g.dies, 0), chan_(g.channels, 0) {}
  // A read of `bytes` from `page` working `planes` planes (slc: of a block in SLC mode).
  void read(uint32_t d, uint32_t page, uint32_t bytes, uint32_t planes, bool slc = false) {
    const uint64_t x = t_.transfer_ps(bytes);
    die_[d] += t_.array_ps(FlashCmd::Read, page, slc, planes) + x;
    chan_[g_.channel_of_die(d)] += x;
    ++ops_;
  }
  void program(uint32_t d, uint32_t page) {  // a whole page, every plane
    const uint64_t x = t_.transfer_ps(t_.program_bytes());
    die_[d] += x + t_.array_ps(FlashCmd::Program, page, false, g_.planes);
    chan_[g_.channel_of_die(d)] += x;
    ++ops_;
  }
  uint32_t next_die() {  // round robin, channel first (dies are numbered channel-first)
    const uint32_t d = rr_;
    rr_ = rr_ + 1 == g_.dies ? 0 : rr_ + 1;
    return d;
  }
  uint64_t ops() const { return ops_; }
  // The busiest die or channel, or the firmware's time (op_ps per operation over `cores`) if longer.
  uint64_t span(uint64_t op_ps, uint32_t cores) const;

 private:
  const Geometry& g_;
  const NandTiming& t_;
  std::vector<uint64_t> die_, chan_;
  uint64_t ops_ = 0;
  uint32_t rr_ = 0;
};

// Calls f(lpn) for each LPN the recovery checks: every LPN, or the plan's `checked` (scattered: their map entries
// fetched 16 ahead, then, 8 ahead, what those point at).
template <class F>
void for_each_checked(const LossContext& x, const RecoveryPlan& plan, F&& f) {
  if (!plan.incremental) {
    for (uint32_t lpn = 0; lpn < x.logical; ++lpn) f(lpn);
    return;
  }
  const std::vector<uint32_t>& checked = plan.checked;
  for (size_t i = 0; i < checked.size(); ++i) {
    if (i + 16 < checked.size()) x.drive.prefetch_map(checked[i + 16]);
    if (i + 8 < checked.size()) {
      x.drive.prefetch_old(checked[i + 8]);
      x.checker.prefetch(checked[i + 8]);
    }
    f(checked[i]);
  }
}

// The steps, in order (power_loss.cpp runs them).
// Dump (dump.cpp): what the capacitors save (the trim journal, the buffer, the GTD, the dirty segments) and the
// dump's programs and time (report.dump_*).
RecoveryPlan dump_at_loss(const LossContext& x, RecoveryReport& r);
// Scan (scan.cpp): the dump and the translation pages read; which LPNs are checked; which blocks are scanned.
void plan_reads(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r);
// Scan (scan.cpp): one pass over the blocks: the newest durable copies, map_ver, the buffered copies on flash.
void scan_blocks(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r);
// Rebuild (rebuild.cpp): the recovered map, unit by unit, against the acknowledged versions; the losses applied
// to the live state; then the recovery's checkpoint (report.map_programs, reads, time_ps).
void rebuild(const LossContext& x, RecoveryPlan& plan, RecoveryReport& r);
void write_checkpoint(const LossContext& x, RecoveryPlan& plan, RecoveryTimeline& rec, RecoveryReport& r);
// Verify (verify.cpp): every checked LPN and every remapped one reads back its acknowledged (or recovered)
// version; the per-LPN work arrays are left cleared for the next loss.
void verify_recovery(const LossContext& x, RecoveryPlan& plan, RecoveryReport& r);

}  // namespace ssdtlm
