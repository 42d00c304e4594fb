// GC victim sources: the reasons to collect a block other than free space (read reclaim, static wear levelling,
// SLC folding). GcVictims::pick_victim asks them in the chain's order (victim_sources.cpp) before the victim policy
// (ftl.gc_victim) that collects for free space; the GC triggers (GcEngine, the timed GC driver) ask the chain whether
// any source wants a victim. A new source is one file (a class and its factory) plus one line in the table of
// victim_sources.cpp; see README.md for an example.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

class DriveState;
class Reliability;
class SlcCache;
class VictimSources;
class WearLevel;

// take(): no victim now at all (the victim policy is not asked either).
constexpr uint32_t kNoVictim = kInvalid - 1;

class VictimSource {
 public:
  virtual ~VictimSource() = default;
  // The source wants a victim on the die now: the timed GC starts (and goes on) for it, whatever the free blocks.
  virtual bool wanted(uint32_t die) const = 0;
  // The fast-forward collects for it too (no time passes there: folding that waits for idle time, or read reclaim
  // that reads find, does not).
  virtual bool wanted_now(uint32_t die) const { return false; }
  // A victim the die takes while it is not short of free blocks paces no host write: its job frees no space the
  // host waits for (GcEngine::begin_scan).
  virtual bool unpaced(uint32_t die, uint32_t victim) const { return false; }
  // The die's victim from this source (taken out of the victim policy's candidates), kInvalid to ask the next
  // source, or kNoVictim. gc_staged: the die's GC job holds units staged for GC pages (a victim lets them go out as
  // full pages), told by the GC engine that asks (GcEngine::pick_victim), so no source reads the engine.
  virtual uint32_t take(uint32_t die, bool gc_staged) = 0;
};

// What the sources read: the drive state, the GC threshold, the engines whose blocks they hand over (null when off)
// and the chain itself (is anything else collecting?). Not the GC engine (it asks them: what they need of its state
// comes with the question, take's gc_staged), nor the PageFtl that owns them all.
struct VictimSourceContext {
  DriveState& state;
  const uint32_t& gc_free_blocks;  // GC starts below this many free blocks (GcVictims::gc_needed)
  SlcCache* slc;
  Reliability* reliability;
  WearLevel* wear_level;
  const VictimSources& chain;
  bool gc_needed(uint32_t die) const;  // (victim_sources.cpp)
};

using VictimSourceFactory = std::unique_ptr<VictimSource> (*)(const VictimSourceContext&);

// The chain: every registered source, in the table's order.
class VictimSources {
 public:
  VictimSources() = default;
  explicit VictimSources(const VictimSourceContext& ctx);
  bool wanted(uint32_t die) const {
    for (const auto& s : sources_)
      if (s->wanted(die)) return true;
    return false;
  }
  bool wanted_now(uint32_t die) const {
    for (const auto& s : sources_)
      if (s->wanted_now(die)) return true;
    return false;
  }
  bool unpaced(uint32_t die, uint32_t victim) const {
    for (const auto& s : sources_)
      if (s->unpaced(die, victim)) return true;
    return false;
  }
  // The first source's victim; kInvalid when none has one (the victim policy's turn), kNoVictim when one says so.
  uint32_t take(uint32_t die, bool gc_staged) {
    for (const auto& s : sources_)
      if (const uint32_t v = s->take(die, gc_staged); v != kInvalid) return v;
    return kInvalid;
  }
  static std::vector<std::string> names();  // the registered sources, in the chain's order

 private:
  std::vector<std::unique_ptr<VictimSource>> sources_;
};

std::unique_ptr<VictimSource> make_read_reclaim_source(const VictimSourceContext& ctx);
std::unique_ptr<VictimSource> make_wear_level_source(const VictimSourceContext& ctx);
std::unique_ptr<VictimSource> make_slc_fold_source(const VictimSourceContext& ctx);
// Static wear levelling's block on the die: its least-erased full data block while its erase-count spread is over
// the threshold and GC does not need the die's free blocks first (kInvalid otherwise, or without wear levelling).
uint32_t wear_level_candidate(const VictimSourceContext& ctx, uint32_t die);

}  // namespace ssdtlm
