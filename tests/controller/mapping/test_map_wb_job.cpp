// The map write-back job (controller/mapping/map_wb_job.h) against a fake executor (no SystemC), and the job under
// its two real executors: the timed FTL (ftl_harness.h) and the fast-forward given the same host pages must program
// the same map pages (one per access that writes back, the segments the cache chose) and read the same segments.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/rng.h"
#include "config/config.h"
#include "config/params.h"
#include "controller/fast_forward.h"
#include "controller/ftl_assembly.h"
#include "controller/ftl_harness.h"
#include "controller/mapping/map_wb_job.h"

using namespace ssdtlm;

namespace {

// 2 dies of 32 blocks of 16 8 KiB pages (2 units a page), 1 KiB map segments (256 entries, 8 to a map page), a map
// cache of 2 segments: random page writes miss and evict dirty segments, gathering others into the write-back.
std::vector<std::string> drive(const std::string& scheme) {
  return {"geometry.channels=2",       "geometry.dies_per_channel=1", "geometry.blocks_per_plane=32",
          "geometry.pages_per_block=16", "geometry.page_bytes=8192",    "geometry.over_provisioning=0.5",
          "ftl.mapping=" + scheme,     "map.segment_bytes=1024",      "map.cache_bytes=2048",
          "buffer.bytes=65536",        "buffer.power_protected=false"};
}

// A PageFtl built by the platforms' assembly code from the settings (no FTL module, no SystemC).
struct Drive {
  Config cfg;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<PageFtl> ftl;
  explicit Drive(const std::vector<std::string>& settings) {
    for (const auto& s : settings) cfg.set(s);
    const Params p = read_params(cfg);
    g = p.geometry;
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < g.dies; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, false));
      raw.push_back(dies.back().get());
    }
    ftl = build_page_ftl(p, g, raw, nullptr);
  }
};

// The random host pages of the tests: page-aligned unit pairs over the logical space.
std::vector<uint32_t> host_pages(const Geometry& g, uint32_t n, uint64_t seed) {
  Rng rng(seed);
  std::vector<uint32_t> first(n);
  for (uint32_t& f : first) f = 2 * uint32_t(rng.below(g.logical_units / 2));
  return first;
}

// The segments the GTD points at each map page, as sorted groups (pages whose segments all moved on are gone).
std::vector<std::vector<uint32_t>> packing(const TranslationStore& ts) {
  std::map<uint32_t, std::vector<uint32_t>> by_page;
  for (uint32_t seg = 0; seg < ts.segments(); ++seg)
    if (ts.where(seg) != TranslationStore::kNowhere) by_page[TranslationStore::page_ppa(ts.where(seg))].push_back(seg);
  std::vector<std::vector<uint32_t>> groups;
  for (auto& [page, segs] : by_page) groups.push_back(segs);
  std::sort(groups.begin(), groups.end());
  return groups;
}

class FakeMapExec final {
 public:
  struct Waiter {
    uint32_t id;
  };
  using Work = MapWork<Waiter>;
  explicit FakeMapExec(PageFtl& ftl) : ftl_(ftl), job_(ftl.engines(), *this) {}
  MapWbJob<FakeMapExec, Waiter>& job() { return job_; }

  FlashCounters& counters(uint32_t) { return c_; }
  static bool paced(const Waiter&) { return false; }
  uint32_t pick_die(bool) { return blocked ? kInvalid : ftl_.translation()->pick_die(); }
  void read(Work* m, uint32_t seg, bool merge) {
    merge_reads += merge;
    ops_.push_back({m, merge ? Op::Merge : Op::Load, seg});
  }
  void program(Work* m, uint32_t die, uint32_t ppa) {
    dies.push_back(die);
    for (const Op& op : ops_) CHECK_FALSE((op.work == m && op.kind == Op::Merge));  // its merge reads landed first
    std::vector<uint32_t> segs;  // what the GTD now points at the page
    for (uint32_t seg = 0; seg < ftl_.translation()->segments(); ++seg)
      if (ftl_.translation()->where(seg) != TranslationStore::kNowhere &&
          TranslationStore::page_ppa(ftl_.translation()->where(seg)) == ppa)
        segs.push_back(seg);
    programmed.push_back(segs);
    ops_.push_back({m, Op::Program, ppa});
  }
  void landed(uint32_t) { ++landed_pages; }
  void done(const Waiter& w, uint64_t) { ++done_for[w.id]; }

  // Completes the oldest operation in flight (or the newest) and tells the job; false when none is left.
  bool complete(bool newest_first) {
    if (ops_.empty()) return false;
    const Op op = newest_first ? ops_.back() : ops_.front();
    if (newest_first) ops_.pop_back();
    else ops_.pop_front();
    if (op.kind == Op::Program) job_.on_program(op.work, op.arg, 0);
    else job_.on_read(op.work, 0);
    return true;
  }

  bool blocked = false;                          // no die may take a map page
  std::vector<std::vector<uint32_t>> programmed;  // per program issued: the segments packed into it
  std::vector<uint32_t> dies;                     // per program issued: its die
  std::map<uint32_t, uint32_t> done_for;          // per waiter id: operations done
  uint32_t landed_pages = 0, merge_reads = 0;
  FlashCounters c_;

 private:
  struct Op {
    Work* work;
    enum Kind { Load, Merge, Program } kind;
    uint32_t arg;  // read: the segment; program: the page
  };
  PageFtl& ftl_;
  std::deque<Op> ops_;
  MapWbJob<FakeMapExec, Waiter> job_;
};

}  // namespace

TEST_CASE("map write-back job: one map page per access that writes back, waiters told once per operation",
          "[mapping][job]") {
  const std::string scheme = GENERATE(std::string("dftl"), std::string("ptsd_entry"));
  const bool newest_first = GENERATE(false, true);
  INFO(scheme << (newest_first ? ", newest first" : ", oldest first"));
  Drive d(drive(scheme)), ref(drive(scheme));  // ref: the same cache, asked directly, says what each access needs
  FakeMapExec x(*d.ftl);
  const std::vector<uint32_t> pages = host_pages(d.g, 400, 46);
  std::vector<std::vector<uint32_t>> want;  // per access that writes back: its segments, in order
  std::map<uint32_t, uint32_t> waits_of;
  for (uint32_t i = 0; i < pages.size(); ++i) {
    const uint32_t lpns[2] = {pages[i], pages[i] + 1};
    ref.ftl->map_cache().write_units(lpns, 2, [&](uint32_t, const MapAccess& a) {
      if (a.nwb) want.emplace_back(a.wb, a.wb + a.nwb);
    });
    x.blocked = i >= 100 && i < 150;  // no die for a while: the write-backs wait, in arrival order
    if (i == 150) {
      CHECK(x.job().writes_waiting());
      const size_t before = x.dies.size();
      x.job().retry();
      CHECK_FALSE(x.job().writes_waiting());
      // The waiting pages go round robin over the 2 dies: each retried page on the die its pick named (a die asked
      // for and not written would skip one, and every retried page would land on die 1).
      REQUIRE(x.dies.size() - before >= 3);
      for (size_t k = before + 1; k < x.dies.size(); ++k) CHECK(x.dies[k] != x.dies[k - 1]);
    }
    uint32_t waits = 0;
    x.job().updates(lpns, 2, FakeMapExec::Waiter{i}, &waits, false);
    waits_of[i] = waits;
    if (i % 7 == 0) x.complete(newest_first);  // some work lands while more is issued
  }
  while (x.complete(newest_first)) {
  }
  for (auto& w : want) std::sort(w.begin(), w.end());
  REQUIRE(want.size() > 10);
  if (scheme == "dftl")  // an eviction gathers other dirty segments into its page
    CHECK(std::any_of(want.begin(), want.end(), [](const std::vector<uint32_t>& w) { return w.size() > 1; }));
  else  // ptsd_entry's batch updates read the segment and merge it first
    CHECK(x.merge_reads > 0);
  // One page per access, packed with the segments the cache chose (a merge read may land after a later access's
  // page went out: compared as sets of pages).
  std::sort(want.begin(), want.end());
  std::sort(x.programmed.begin(), x.programmed.end());
  CHECK(x.programmed == want);
  CHECK(x.landed_pages == want.size());
  CHECK(x.c_.programs[uint32_t(UnitKind::MD)] == want.size());
  CHECK(x.c_.reads[uint32_t(ReadKind::Map)] > 0);
  CHECK(x.job().loads_in_flight() == 0);
  for (auto& [id, n] : waits_of) {
    INFO("access " << id);
    CHECK(x.done_for[id] == n);
  }
}

TEST_CASE("map write-back job: the timed FTL and the fast-forward program the same map pages for the same host pages",
          "[mapping][job][module]") {
  const std::string scheme = "dftl";
  FtlHarness h("h", drive(scheme));
  const std::vector<uint32_t> pages = host_pages(h.g, 300, 7);
  h.script = [&](FtlHarness& h) {
    for (uint32_t first : pages) {  // each page written, then flushed: the map sees the pages in this order
      h.wait_done(h.submit(IoOp::Write, first, 2));
      h.wait_done(h.submit(IoOp::Flush, 0, 0));
    }
  };
  sc_core::sc_start();
  CHECK(h.checker->errors() == 0);

  Drive ff(drive(scheme));
  uint32_t version = 1;
  for (uint32_t first : pages) {
    const uint32_t lpns[2] = {first, first + 1}, versions[2] = {version, version};
    FfHostExec(ff.ftl->fast_forward()).write_page(version++ % ff.g.dies, lpns, versions);
  }
  ff.ftl->fast_forward().finish();
  ff.ftl->fast_forward().merge_counters();

  const FlashCounters& timed = h.pftl->state().counters();
  const FlashCounters& fast = ff.ftl->state().counters();
  CHECK(timed.programs[uint32_t(UnitKind::UD)] == pages.size());
  CHECK(fast.programs[uint32_t(UnitKind::UD)] == pages.size());
  CHECK(timed.erases == 0);  // no GC: the map work is the host pages' alone
  CHECK(fast.erases == 0);
  REQUIRE(timed.programs[uint32_t(UnitKind::MD)] > 50);
  CHECK(fast.programs[uint32_t(UnitKind::MD)] == timed.programs[uint32_t(UnitKind::MD)]);
  CHECK(fast.reads[uint32_t(ReadKind::Map)] == timed.reads[uint32_t(ReadKind::Map)]);
  CHECK(ff.ftl->map_cache().stats().segment_writes == h.pftl->map_cache().stats().segment_writes);
  CHECK(packing(*ff.ftl->translation()) == packing(*h.pftl->translation()));
}
