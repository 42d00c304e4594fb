// The drive state and the engines that decide over it, by reference: what the jobs (host page, GC, map write-back),
// the fast-forward, preconditioning and the timed FTL's drivers are given. PageFtl (page_ftl.h) owns every part and
// wires them (PageFtl::engines()); nothing given this refers back to the PageFtl. Null pointers: the feature is off.
#pragma once

namespace ssdtlm {

class DriveState;
class GcEngine;
class GcVictims;
class IntegrityChecker;
class MapCache;
class Reliability;
class SlcCache;
class Streams;
class TranslationStore;
class WearLevel;

struct FtlEngines {
  DriveState& state;              // map, valid bitmap, blocks, dies, counters
  GcEngine& gc;                   // every die's GC job state and GC's decisions
  GcVictims& victims;             // when a die collects, which victim it takes, GC pacing
  Streams& streams;               // stream separation (and ZNS, FDP placement)
  MapCache& map;                  // the map cache every map access goes through
  TranslationStore* translation;  // demand-based mapping: translation pages on flash
  SlcCache* slc;                  // slc.*
  Reliability* reliability;       // reliability.*
  WearLevel* wear_level;          // ftl.wear_level_spread
  IntegrityChecker* checker;      // the fast-forward's invariant checks (check.integrity)
};

}  // namespace ssdtlm
