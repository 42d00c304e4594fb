// The map cache model alone (no SystemC): LRU order, PTSD's partition rule, clean -> dirty migration,
// entry-granular batch updates, write-back gathering, GTD arithmetic and the map.* key checks.
#include <catch2/catch.hpp>

#include <set>

#include "config/config.h"
#include "config/params.h"
#include "controller/mapping/map_cache.h"
#include "controller/mapping/translation_store.h"
#include "flash/geometry.h"

using namespace ssdtlm;

namespace {

// 64 segments of 4 entries (16-byte segments of 4-byte entries would be too small for the keys' range,
// but the model itself takes any size).
MapCacheParams params(uint32_t cache_segments, uint32_t entries_per_segment = 4, uint32_t per_page = 1) {
  MapCacheParams p;
  p.entry_bytes = 4;
  p.segment_bytes = 4 * entries_per_segment;
  p.logical_units = 64ull * entries_per_segment;
  p.cache_bytes = uint64_t(cache_segments) * p.segment_bytes;
  p.segments_per_page = per_page;
  return p;
}

struct Probe {
  Probe(MapCache& cache, uint32_t entries_per_segment) : c(cache), eps(entries_per_segment) {}
  MapCache& c;
  uint32_t eps;
  MapAccess a;
  MapAccess& read(uint32_t seg) {
    a.clear();
    c.read(seg, seg * eps, 1, a);
    return a;
  }
  MapAccess& write(uint32_t seg, uint32_t entry = 0) {
    a.clear();
    uint32_t lpn = seg * eps + entry;
    c.write(seg, &lpn, 1, a);
    return a;
  }
};

}  // namespace

TEST_CASE("dftl: a miss loads the segment and evicts the least recently used one", "[mapping][unit]") {
  auto c = make_dftl_cache(params(3));
  Probe p{*c, 4};
  CHECK(p.read(0).load == 0);
  CHECK(p.read(1).load == 1);
  CHECK(p.read(2).load == 2);
  CHECK(p.read(0).hit);  // 0 is now the most recent: 1 is the LRU
  MapAccess& a = p.read(3);
  CHECK(a.load == 3);
  CHECK(a.nwb == 0);  // clean victim: dropped without a write
  CHECK(p.read(0).hit);
  CHECK(p.read(2).hit);
  CHECK_FALSE(p.read(1).hit);  // 1 was evicted
  CHECK(c->stats().read_misses == 5);
  CHECK(c->stats().read_hits == 3);
}

TEST_CASE("dftl: evicting a dirty segment writes it back on the path of the miss", "[mapping][unit]") {
  auto c = make_dftl_cache(params(2));
  Probe p{*c, 4};
  CHECK(p.write(0, 1).load == 0);  // a write miss loads the segment too
  p.write(0, 2);
  p.read(1);
  MapAccess& a = p.read(2);  // 0 is the LRU and dirty
  CHECK(a.load == 2);
  REQUIRE(a.nwb == 1);
  CHECK(a.wb[0] == 0);
  CHECK(a.wb_entries == 2);  // two distinct entries were updated
  CHECK(c->stats().dirty_evictions == 1);
  CHECK(c->stats().segment_writes == 1);
  CHECK(c->dirty_segments() == 0);
  CHECK(c->dirty_entries() == 0);
}

TEST_CASE("dftl: a write-back gathers the oldest other dirty segments into the same map page", "[mapping][unit]") {
  auto c = make_dftl_cache(params(4, 4, 3));
  Probe p{*c, 4};
  p.write(0);
  p.write(1);
  p.write(2);
  p.read(3);
  MapAccess& a = p.read(4);  // evicts 0 (dirty), gathers 1 and 2
  REQUIRE(a.nwb == 3);
  CHECK(std::set<uint32_t>(a.wb, a.wb + 3) == std::set<uint32_t>{0, 1, 2});
  CHECK(c->dirty_segments() == 0);
  CHECK(p.read(1).hit);  // gathered segments stay cached, now clean
  CHECK(p.read(5).nwb == 0);
}

TEST_CASE("ptsd: a read miss evicts only from the clean area and never writes", "[mapping][unit]") {
  MapCacheParams mp = params(4);
  mp.clean_fraction = 0.5;  // 2 clean + 2 dirty segments
  auto c = make_ptsd_cache(mp);
  Probe p{*c, 4};
  p.write(10);
  p.write(11);  // the dirty area is full
  for (uint32_t s = 20; s < 40; ++s) {
    MapAccess& a = p.read(s);
    CHECK(a.nwb == 0);  // the partition rule: no read ever waits for a map write
  }
  CHECK(c->stats().segment_writes == 0);
  CHECK(p.read(10).hit);  // dirty segments serve reads too, and were never evicted by them
  CHECK(p.read(11).hit);
  CHECK(c->stats().dirty.hits == 2);
  CHECK(c->stats().clean.evictions == 18);
}

TEST_CASE("ptsd: a write to a clean segment moves it to the dirty area, writing back the dirty LRU", "[mapping][unit]") {
  MapCacheParams mp = params(4);
  auto c = make_ptsd_cache(mp);
  Probe p{*c, 4};
  p.read(1);
  p.read(2);  // clean area: 2, 1
  p.write(5);
  p.write(6);  // dirty area: 6, 5
  MapAccess& a = p.write(1);  // hit in the clean area
  CHECK(a.hit);
  CHECK(a.load == kInvalid);  // already in DRAM
  REQUIRE(a.nwb == 1);
  CHECK(a.wb[0] == 5);  // the dirty area's LRU
  CHECK(c->stats().clean.hits == 1);
  // 1 now lives in the dirty area: the clean area has room, so reading 3 evicts nothing.
  p.read(3);
  CHECK(c->stats().clean.evictions == 0);
  CHECK(p.read(1).hit);
  CHECK(c->stats().dirty.hits == 1);
  // A write miss loads into the dirty area (evicting 6, its LRU).
  MapAccess& m = p.write(7);
  CHECK(m.load == 7);
  REQUIRE(m.nwb == 1);
  CHECK(m.wb[0] == 6);
}

TEST_CASE("ptsd_entry: updates are recorded without loads, the greedy victim has the most dirty entries", "[mapping][unit]") {
  MapCacheParams mp = params(4, 16);  // 64-byte segments, cache of 256 bytes: dirty area of 128 bytes = 16 entries
  auto c = make_ptsd_entry_cache(mp);
  Probe p{*c, 16};
  REQUIRE(c->stats().dirty.capacity == 16);
  for (uint32_t e = 0; e < 9; ++e) CHECK(p.write(3, e).load == kInvalid);
  for (uint32_t e = 0; e < 4; ++e) p.write(7, e);
  for (uint32_t e = 0; e < 3; ++e) p.write(9, e);
  CHECK(c->dirty_entries() == 16);
  CHECK(c->stats().write_misses == 0);
  CHECK(p.read(3).hit);  // entry 0 of segment 3 is dirty: the read needs no load
  MapAccess& a = p.write(12);  // the 17th entry: batch update
  REQUIRE(a.nwb == 1);
  CHECK(a.wb[0] == 3);     // greedy: 9 dirty entries
  CHECK(a.merge == 3);     // not in the clean area: read, merge, write
  CHECK(a.wb_entries == 9);
  CHECK(c->dirty_entries() == 8);
  CHECK(c->stats().dirty_evictions == 1);
  // A batch update of a segment the clean area holds needs no merge read.
  p.read(7);  // not all of 7's entries asked are dirty? entry 0 is: a hit without load
  a.clear();
  c->read(9, 9 * 16 + 5, 1, a);  // entry 5 of segment 9 is clean: load into the clean area
  CHECK(a.load == 9);
  for (uint32_t e = 0; e < 9; ++e) p.write(9, 3 + e);  // segment 9 now has 12 dirty entries
  MapAccess& b = p.a;
  CHECK(b.nwb == 1);
  CHECK(b.wb[0] == 9);
  CHECK(b.merge == kInvalid);
}

TEST_CASE("ptsd_entry: the lru victim is the least recently updated segment", "[mapping][unit]") {
  MapCacheParams mp = params(4, 16);
  mp.dirty_victim = "lru";
  auto c = make_ptsd_entry_cache(mp);
  Probe p{*c, 16};
  for (uint32_t e = 0; e < 10; ++e) p.write(3, e);
  for (uint32_t e = 0; e < 5; ++e) p.write(7, e);
  p.write(3, 10);  // 3 is now the most recently updated
  MapAccess& a = p.write(8);
  REQUIRE(a.nwb == 1);
  CHECK(a.wb[0] == 7);
  CHECK(a.wb_entries == 5);
}

TEST_CASE("the whole-map scheme always hits and never touches flash", "[mapping][unit]") {
  auto c = make_full_map(params(1));
  Probe p{*c, 4};
  for (uint32_t s = 0; s < 64; ++s) {
    CHECK(p.read(s).hit);
    CHECK(p.write(s).nwb == 0);
  }
  CHECK(c->stats().lookups() == 128);
  CHECK(c->stats().hits() == 128);
}

TEST_CASE("GTD and segment arithmetic", "[mapping][unit]") {
  MapCacheParams p;
  p.logical_units = (32ull << 30) / 4096;  // 32 GiB in 4 KiB units
  p.entry_bytes = 2;
  for (uint32_t seg : {1024u, 2048u, 4096u, 8192u}) {
    p.segment_bytes = seg;
    CHECK(p.entries_per_segment() == seg / 2);
    CHECK(p.segments() == (32ull << 30) / 4096 * 2 / seg);
    CHECK(p.gtd_bytes() == 4ull * p.segments());  // one 4-byte flash address per segment
  }
  p.segment_bytes = 2048;
  p.logical_units = (1ull << 30) / 4096;  // the 1 GiB range of seed 003: a 512 KiB map
  CHECK(p.map_bytes() == 512 * 1024);
  p.cache_bytes = 8192;
  CHECK(p.cache_segments() == 4);
  p.cache_bytes = 0;
  CHECK(p.cache_segments() == p.segments());
  p.logical_units = 1000;  // a partial last segment still needs a whole one
  CHECK(p.segments() == 1);
  p.logical_units = 1025;
  CHECK(p.segments() == 2);
}

TEST_CASE("map-block valid counts are kept in unit equivalents", "[mapping][unit]") {
  Config c;
  c.set("geometry.channels=1");
  c.set("geometry.dies_per_channel=1");
  c.set("geometry.blocks_per_plane=32");
  c.set("geometry.pages_per_block=4");
  c.set("geometry.over_provisioning=1");
  const Geometry g = read_geometry(c, 5);
  FrontierLayout layout;
  layout.map = true;  // user, GC and map frontiers
  BlockManager blocks(g, layout, make_greedy_victim(g));
  TranslationStore ts(g, blocks, 40, 1024);  // 8 segments to a 2-unit page
  REQUIRE(ts.segments_per_page() == 8);
  uint32_t segs[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  const uint32_t ppa = ts.place(0, segs, 8);
  const uint32_t b = g.gblock_of(ppa);
  CHECK(ts.is_map_block(b));
  CHECK(blocks.valid(b) == 2);  // 8 live segments = one full 2-unit page
  uint32_t again[5] = {0, 1, 2, 3, 4};
  const uint32_t ppa2 = ts.place(0, again, 5);  // the same block, next page
  CHECK(g.gblock_of(ppa2) == b);
  CHECK(blocks.valid(b) == 2);  // 3 + 5 live: ceil(8 x 2 / 8)
  uint32_t live[8];
  uint64_t locs[8];
  CHECK(ts.live_in_page(b, 0, live, locs) == 3);
  CHECK(ts.live_in_page(b, 1, live, locs) == 5);
  CHECK(ts.gtd_bytes() == 160);
}

TEST_CASE("map keys are checked against each other and the geometry", "[mapping][config]") {
  auto fails = [&](std::initializer_list<std::string> sets, const std::string& key) {
    Config c;
    for (auto& s : sets) c.set(s);
    const Geometry geo = read_geometry(c, 5);
    try {
      read_map_cache_params(c, geo);
      FAIL("accepted " << key);
    } catch (const ConfigError& e) {
      CHECK(std::string(e.what()).find("'" + key + "'") != std::string::npos);
    }
  };
  fails({"map.segment_bytes=1028", "map.entry_bytes=8"}, "map.segment_bytes");
  fails({"map.segment_bytes=16384", "ftl.mapping=dftl"}, "map.segment_bytes");  // larger than the 8 KiB page
  fails({"map.segment_bytes=16384", "map.protected_ratio=0.5"}, "map.segment_bytes");
  fails({"map.cache_bytes=4096"}, "map.cache_bytes");        // less than one 8 KiB segment
  fails({"map.clean_fraction=0"}, "map.clean_fraction");
  fails({"map.clean_fraction=1"}, "map.clean_fraction");
  fails({"ftl.mapping=ptsd", "map.cache_bytes=8192"}, "map.cache_bytes");  // one segment cannot be split
  Config page_map;  // a whole map in DRAM writes no segment to flash: a segment larger than a page is fine
  page_map.set("map.segment_bytes=16384");
  CHECK_NOTHROW(read_map_cache_params(page_map, read_geometry(page_map, 5)));
  Config ok;
  ok.set("ftl.mapping=ptsd");
  ok.set("map.cache_bytes=16384");
  CHECK_NOTHROW(read_map_cache_params(ok, read_geometry(ok, 5)));
  CHECK_THROWS_AS(make_map_cache("nope", MapCacheParams(), "ftl.mapping"), ConfigError);
}
