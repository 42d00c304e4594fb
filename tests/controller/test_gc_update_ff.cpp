// map.gc_update in the fast-forward: the GC engine's batch update of a victim's moves (victim) against one
// update per GC page (page) and the experiment without GC map cost (free), with the erase and GC-copy
// invariants checked, for every mapping scheme.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/params.h"
#include "controller/integrity_checker.h"
#include "controller/page_ftl.h"
#include "controller/precondition.h"
#include "ff_drive.h"

using namespace ssdtlm;

namespace {

struct Result {
  uint64_t erases, moved, gc_updates, gc_writes, errors, erases_checked, copies_checked;
};

// 4 dies, 64 blocks of 32 8 KiB pages (64 units a block), 2 KiB segments (512 entries, 24 segments): 2
// drive-writes of uniform 4 KiB writes through the map cache (a quarter of the map: 6 segments),
// preconditioned by the fast-forward with the checker on.
Result precondition_with(const std::string& scheme, const std::string& gc_update) {
  Config c;
  for (const char* s : {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                        "geometry.pages_per_block=32", "geometry.page_bytes=8192", "geometry.over_provisioning=0.25",
                        "map.segment_bytes=2048"})
    c.set(s);
  c.set("ftl.mapping=" + scheme);
  c.set("map.gc_update=" + gc_update);
  const Geometry g = read_geometry(c, 4);
  c.set("map.cache_bytes=" + std::to_string(g.logical_units));  // 4 B a unit: a quarter of the map
  std::vector<std::unique_ptr<Die>> dies;
  std::vector<Die*> raw;
  for (uint32_t d = 0; d < g.dies; ++d) {
    dies.push_back(std::make_unique<Die>(g, d, false));
    raw.push_back(dies.back().get());
  }
  const MapParams mp = read_map_params(c, g);
  FrontierLayout layout;
  layout.map = mp.pages_on_flash;
  IntegrityChecker checker(g.logical_units);
  PageFtlParts parts;
  parts.victim = make_victim_policy("greedy", g, "ftl.gc_victim");
  parts.layout = layout;
  parts.map = make_map_cache(mp.scheme, mp.cache, "ftl.mapping");
  parts.map_on_flash = mp.pages_on_flash;
  parts.checker = &checker;
  PageFtl ftl(g, raw, std::move(parts));
  UniformWrites w(g.logical_units, 5);
  precondition(ftl.fast_forward(), &checker, true, 2.0, &w, [](uint64_t, uint64_t) {});
  const FlashCounters& f = ftl.state().counters();
  const MapCacheStats& m = ftl.map_cache().stats();
  return {f.erases, f.gc_units_moved, m.gc_updates, m.gc_segment_writes, checker.errors(), checker.erases_checked(),
          checker.gc_copies_checked()};
}

}  // namespace

TEST_CASE("fast-forward map.gc_update: invariants hold for every scheme in victim and page mode", "[integrity][gc][mapping]") {
  for (const char* scheme : {"page", "dftl", "ptsd", "ptsd_entry"})
    for (const char* mode : {"victim", "page", "free"}) {
      INFO(scheme << " " << mode);
      const Result r = precondition_with(scheme, mode);
      CHECK(r.erases > 100);
      CHECK(r.errors == 0);
      CHECK(r.erases_checked == r.erases);
      CHECK(r.copies_checked >= r.moved);
    }
}

TEST_CASE("fast-forward map.gc_update=victim: fewer DFTL write-backs per GC-moved unit than page", "[gc][mapping]") {
  const Result page = precondition_with("dftl", "page"), victim = precondition_with("dftl", "victim");
  const double p = double(page.gc_writes) / double(page.moved), v = double(victim.gc_writes) / double(victim.moved);
  INFO("write-backs per GC-moved unit: page " << p << ", victim " << v);
  CHECK(p > 0.0);
  CHECK(v < p);
  CHECK(victim.gc_updates < victim.moved);  // a victim's moves share segments: one update per segment
}

TEST_CASE("fast-forward map.gc_update=free: GC map updates write nothing back and data stay intact", "[gc][mapping]") {
  for (const char* scheme : {"dftl", "ptsd", "ptsd_entry"}) {
    INFO(scheme);
    const Result victim = precondition_with(scheme, "victim"), freed = precondition_with(scheme, "free");
    CHECK(freed.moved > 0);
    CHECK(freed.gc_updates > 0);   // counted, as in the other modes
    CHECK(freed.gc_writes == 0);   // but no write-back is charged to them
    CHECK(victim.gc_writes > 0);
    CHECK(freed.errors == 0);
  }
}
