// The waveform's vocabulary: the values of a die's array state and of a channel's bus transfer, with the
// names and colours GTKWave shows, and a running minimum for "free blocks, the fewest over all dies".
// docs/guides/waveforms.md describes every signal.
#pragma once
#include <cstdint>
#include <vector>

#include "flash/flash_op.h"
#include "wave/wave_layout.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

// chN.dieK.state: what the die's array does, and for whom. 0 = idle; reads, programs and erases count
// as busy (the summary's utilization.die_array: tR, tPROG and tBERS; transfers are on the bus).
enum WaveDieState : uint8_t {
  kDieIdle = 0,
  kDieReadUser = 1,
  kDieReadMap = 2,
  kDieReadGc = 3,
  kDieProgUser = 4,   // UD
  kDieProgMap = 5,    // MD
  kDieProgGc = 6,     // GUD
  kDieProgGcMap = 7,  // GMD
  kDieErase = 8,      // erases come from GC (data and map blocks)
  kDieSuspended = 9,  // reserved for program/erase suspend
  kDieReadFold = 10,  // a fold's read of an SLC page (slc.*; nand.reads.fold)
  kDieProgFold = 11,  // a fold's program into TLC/QLC (nand.programs.fold, waf.fold)
};
constexpr uint32_t kDieStateBits = 4;

// chN.bus.dir: the transfer on the bus. 0 = idle; data-out of a read ("out"), data-in of a program ("in").
enum WaveBusDir : uint8_t {
  kBusIdle = 0,
  kBusOutUser = 1,
  kBusOutMap = 2,
  kBusOutGc = 3,
  kBusInUser = 4,
  kBusInMap = 5,
  kBusInGc = 6,
  kBusInGcMap = 7,
  kBusOutFold = 8,  // a fold's SLC page out
  kBusInFold = 9,   // a fold's TLC/QLC page in
};
constexpr uint32_t kBusDirBits = 4;

inline uint8_t wave_die_state(const FlashOp& op) {
  switch (op.cmd) {
    case FlashCmd::Read: return op.fold ? uint8_t(kDieReadFold) : uint8_t(kDieReadUser + uint8_t(op.read_kind));
    case FlashCmd::Program: return op.fold ? uint8_t(kDieProgFold) : uint8_t(kDieProgUser + uint8_t(op.kind));
    case FlashCmd::Erase: return kDieErase;
  }
  return kDieIdle;
}

inline uint8_t wave_bus_dir(const FlashOp& op) {
  if (op.fold) return op.cmd == FlashCmd::Read ? kBusOutFold : kBusInFold;
  return op.cmd == FlashCmd::Read ? uint8_t(kBusOutUser + uint8_t(op.read_kind)) : uint8_t(kBusInUser + uint8_t(op.kind));
}

// User work in blues, map work in yellow, GC in reds, folds (slc.*) in greens, erases in violet.
inline WaveEnum wave_die_state_table() {
  return {"die_state",
          {{kDieIdle, "idle", ""},
           {kDieReadUser, "read user", "cyan"},
           {kDieReadMap, "read map", "yellow"},
           {kDieReadGc, "read gc", "orange"},
           {kDieProgUser, "prog user", "blue"},
           {kDieProgMap, "prog map", "gold"},
           {kDieProgGc, "prog gc", "red"},
           {kDieProgGcMap, "prog gc-map", "dark orange"},
           {kDieErase, "erase", "violet"},
           {kDieSuspended, "suspended", "gray"},
           {kDieReadFold, "read fold", "pale green"},
           {kDieProgFold, "prog fold", "forest green"}}};
}

inline WaveEnum wave_bus_dir_table() {
  return {"bus_dir",
          {{kBusIdle, "idle", ""},
           {kBusOutUser, "out user", "cyan"},
           {kBusOutMap, "out map", "yellow"},
           {kBusOutGc, "out gc", "orange"},
           {kBusInUser, "in user", "blue"},
           {kBusInMap, "in map", "gold"},
           {kBusInGc, "in gc", "red"},
           {kBusInGcMap, "in gc-map", "dark orange"},
           {kBusOutFold, "out fold", "pale green"},
           {kBusInFold, "in fold", "forest green"}}};
}

// The minimum of per-item counts that change by small steps (free blocks per die), in O(1) amortised per
// change: a histogram of the values and the current minimum.
class WaveMin {
 public:
  WaveMin(size_t items, uint64_t max_value) : value_(items, 0), count_(max_value + 1, 0) { count_[0] = uint32_t(items); }
  // Sets item i to v (<= max_value); returns the new minimum.
  uint64_t set(size_t i, uint64_t v) {
    const uint64_t old = value_[i];
    if (old == v) return min_;
    value_[i] = v;
    --count_[old];
    ++count_[v];
    if (v < min_) {
      min_ = v;
    } else if (old == min_ && count_[old] == 0) {
      while (count_[min_] == 0) ++min_;
    }
    return min_;
  }
  uint64_t min() const { return min_; }
  uint64_t value(size_t i) const { return value_[i]; }

 private:
  std::vector<uint64_t> value_;
  std::vector<uint32_t> count_;
  uint64_t min_ = 0;
};

// A sampled quantity: recorded only when it changed since the last sample.
struct WaveValue {
  uint32_t signal = 0;
  uint64_t last = 0;
  void set(WaveTracer& w, uint64_t t, uint64_t v) {
    if (v == last) return;
    last = v;
    w.set(signal, t, v);
  }
};

// The FTL's signals (Ftl::trace): sampled at the end of each of its entry points (a host command, a flash
// completion), the only moments its state changes; free blocks only for the dies an operation touched.
struct FtlWave {
  FtlWave(size_t dies, uint64_t blocks_per_die) : min(dies, blocks_per_die), die_free(dies), touched(dies, 0) {}
  WaveTracer* w = nullptr;
  WaveValue buffer, gc_active, free_min, free_total, map_dirty;
  WaveValue read_ahead;  // cache.read_ahead: units held (traced only with it on)
  bool map = false;  // map_dirty is traced (the map reaches flash)
  WaveMin min;
  std::vector<WaveValue> die_free;
  std::vector<uint8_t> touched;  // per die: free blocks to sample
  std::vector<uint32_t> dirty;   // dies marked in touched
  std::vector<WaveValue> open_rus;  // FDP: per reclaim group, RUHs with an open reclaim unit there
  WaveValue open_zones, active_zones;  // ZNS
  std::vector<WaveValue> group_zones;  // ZNS: per die group, zones with data in flight
  bool zns = false;
  void touch(uint32_t die) {
    if (!touched[die]) {
      touched[die] = 1;
      dirty.push_back(die);
    }
  }
};

}  // namespace ssdtlm
