// Power loss and recovery (docs/reference/power_loss.md; its steps: README.md beside). Plain C++: given the
// drive's state at the instant power is lost, decides what the capacitors save to the dump area, rebuilds the map
// as firmware would from the dump, the translation pages and the out-of-band data of the blocks written since the
// oldest unsaved map checkpoint, checks every logical unit against its last acknowledged version, applies the
// losses to the live FTL state, and times the dump and the recovery with the channels' own timing model
// (flash/nand_timing.h).
//
// What is on flash at the instant is what the dies hold: a program or erase in flight is applied to a die
// only when it ends (ChannelController::finish_array), so a torn program is simply absent (its page reads as
// erased, never trusted) and a block whose erase is in flight (a victim with no valid unit) is ignored.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "flash/channel.h"
#include "flash/flash_params.h"

namespace ssdtlm {

class IntegrityChecker;
class DriveState;
class MapCache;
class WriteBuffer;

struct PowerLossParams {
  uint64_t protected_bytes = 0;  // power.protected_bytes (0 = as much as needed)
  bool buffer_protected = true;  // buffer.power_protected
  double protected_ratio = 1.0;  // map.protected_ratio
  bool map_on_flash = false;     // dftl/ptsd: translation pages and a GTD; page: the map lives in DRAM
  uint32_t oob_bytes = 16;       // out-of-band bytes read per unit when scanning (LPN, version, stream, kind)
  uint64_t flash_op_ps = 0;      // firmware.flash_op_ns per NAND operation of the recovery
  uint32_t cores = 1;
  bool check_all = false;        // fault.power_loss_check=all: compare every LPN at every loss, not only the changed
};

struct RecoveryReport {
  uint64_t at_ps = 0;
  uint64_t time_ps = 0;            // recovery, from power on to the first host command
  uint64_t dump_ps = 0;            // programming the dump on capacitor energy
  uint64_t dump_bytes = 0, dump_programs = 0;
  uint64_t buffer_units = 0;       // distinct units buffered at the loss (dirty or being programmed)
  uint64_t buffer_dirty_units = 0; // of which not yet taken by a flush
  uint64_t buffer_saved = 0;       // units saved in the dump
  uint64_t segments_dirty = 0, segments_saved = 0;
  uint64_t segments_read = 0;      // translation pages read (segments)
  uint64_t blocks_scanned = 0, pages_scanned = 0;
  uint64_t units_replayed = 0;     // units whose recovered mapping came from the out-of-band scan
  uint64_t torn_units = 0;         // map entries pointing at a program still in flight
  uint64_t torn_gc_programs = 0, torn_erases = 0;  // GC work in flight (set by the caller)
  uint64_t map_programs = 0;       // map pages written after the replay
  uint64_t reads = 0;              // NAND reads of the recovery (dump, translation pages, scan)
  uint64_t lost_acknowledged = 0, lost_unacknowledged = 0;
  uint64_t trim_records = 0, trim_records_saved = 0;  // the trim journal's records (LPN ranges) and those dumped
  uint64_t lost_trims = 0;         // trimmed units whose trim record was not saved: an older copy came back
  uint64_t mismatches = 0;         // live state disagreeing with the acknowledged versions after recovery
};

// What one power loss leaves for the next: the versions that were lost. A program torn by the loss is still
// completed by the model afterwards (the operation was already in the channel); its units are invalid (the
// map no longer points at them) and a later recovery must not trust them either, as firmware would not
// trust a torn page.
// A recovery that loses a unit's last write and maps it to nothing (or to a copy GC is about to erase)
// records that in its checkpoint: copies of the unit up to the lost version are never replayed again.
struct PowerLossState {
  std::unordered_set<uint32_t> torn_versions;
  std::unordered_map<uint32_t, uint32_t> floor;  // lpn -> copies with a version <= this are stale
  std::vector<uint64_t> marked;  // per lpn, a bit: it has torn versions or a floor (tested before the hash sets)
  // Per-lpn work arrays of the recovery, kept between losses so a loss reuses their memory (no page faults).
  std::vector<uint32_t> scan_ver, scan_ppa, map_ver;
  uint32_t close_clock = 0;  // the block manager's close clock at the end of the last loss
  bool is_marked(uint32_t lpn) const { return !marked.empty() && (marked[lpn >> 6] >> (lpn & 63)) & 1; }
  void mark(uint32_t lpn) { marked[lpn >> 6] |= uint64_t(1) << (lpn & 63); }
  // A copy (version v of lpn) an earlier loss tore (completed by the model since) or declared stale: never trusted.
  bool untrusted(uint32_t lpn, uint32_t v) const {
    if (!is_marked(lpn)) return false;
    if (torn_versions.count(v)) return true;
    auto f = floor.find(lpn);
    return f != floor.end() && v <= f->second;
  }
};

// From now on the FTL and the checker note the LPNs they change, and the next power loss's check compares only
// those (and the buffered ones): called when the timed run starts (the preconditioned state is consistent by
// construction: the fast-forward writes map, bitmap, out-of-band data and versions together) and after each loss.
void track_recovery_changes(PowerLossState& state, DriveState& drive, IntegrityChecker& checker);

// The power loss at `now_ps` and the recovery. `unacknowledged_units`: write units taken from the host and
// not yet acknowledged (lost by definition). Integrity problems go to `checker`. The FTL's drive state and map
// cache: what recovery rebuilds, and which map segments were dirty.
RecoveryReport power_loss(PowerLossState& state, DriveState& drive, const MapCache& cache, WriteBuffer& buffer,
                          IntegrityChecker& checker, const PowerLossParams& p, const FlashParams& flash, const Channel& bus,
                          uint64_t unacknowledged_units, uint64_t now_ps);

}  // namespace ssdtlm
