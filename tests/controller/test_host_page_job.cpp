// The host page job (controller/host_page_job.h) against a fake executor: no SystemC, no write buffer. The fake is
// timed (its programs land when the test says, in issue order or newest first) or immediate (they land in the call
// that programs them), so the job's sequencing is checked on its own: a page's units are mapped and counted when it
// is issued, its block closes only once every page of it landed, GC's pacing is charged, the immediate job makes room
// first and drains its map write-backs; and the job under the fake and under the fast-forward's executor (FfHostExec)
// leave the same drive.
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <stdexcept>
#include <vector>

#include "controller/host_page_job.h"
#include "ff_drive.h"

using namespace ssdtlm;

namespace {

std::vector<std::string> small_drive() {
  return {"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=16",
          "geometry.pages_per_block=8", "geometry.page_bytes=8192", "geometry.over_provisioning=0.5"};
}

template <bool Timed>
class FakeHostExec final {
 public:
  static constexpr bool kTimed = Timed;
  struct Page {
    uint32_t lpn[kMaxUnitsPerPage], version[kMaxUnitsPerPage];
    uint32_t die, stream, ppa;
  };
  explicit FakeHostExec(FfDrive& d) : d_(d), job_(d.ftl->engines(), *this) {}

  // Writes a page of the given LPNs (kInvalid: padding) through the job.
  void write(uint32_t die, uint32_t stream, std::vector<uint32_t> lpns) {
    next_ = lpns;
    job_.write(die, stream);
  }
  // Lands the oldest page in flight (or the newest), as a channel would; false when none is left.
  bool complete(bool newest_first) {
    if (flight_.empty()) return false;
    Page* p = newest_first ? flight_.back() : flight_.front();
    if (newest_first) flight_.pop_back();
    else flight_.pop_front();
    job_.on_program(*p, d_.g.gblock_of(p->ppa));
    return true;
  }

  // ---- the executor
  FlashCounters& counters(uint32_t) { return c; }
  StreamStats* stream_stats() { return &stats; }
  uint64_t* flushed_units() { return &flushed; }
  void make_room(uint32_t die) {
    CHECK(d_.ftl->gc_needed(die));
    ++rooms;
  }
  Page& take(uint32_t die, uint32_t stream, uint32_t ppa) {
    pages_.push_back(std::make_unique<Page>());
    Page& p = *pages_.back();
    p.die = die, p.stream = stream, p.ppa = ppa;
    for (uint32_t s = 0; s < d_.g.units_per_page; ++s) {
      p.lpn[s] = s < next_.size() ? next_[s] : kInvalid;
      p.version[s] = 1;
    }
    return p;
  }
  void program(Page& p) {
    // The units are mapped before the program is issued (the buffer serves reads until it lands).
    for (uint32_t s = 0; s < d_.g.units_per_page; ++s)
      if (p.lpn[s] != kInvalid) CHECK(d_.ftl->state().lookup(p.lpn[s]) != kInvalid);
    d_.dies[p.die]->program(d_.g.block_of(p.ppa), d_.g.page_of(p.ppa), p.lpn, p.version, UnitKind::UD,
                            uint8_t(p.stream));
    if (Timed) flight_.push_back(&p);
    else job_.on_program(p, d_.g.gblock_of(p.ppa));
  }
  void map_updates(Page&) { ++map_updates_issued; }
  void drain_map(uint32_t) {
    CHECK_FALSE(Timed);
    ++drains;
  }
  void issued(uint32_t, Page&) { ++issued_pages; }
  void landed(Page&) { ++landed_pages; }

  FlashCounters c;
  StreamStats stats;
  uint64_t flushed = 0;
  uint32_t rooms = 0, map_updates_issued = 0, drains = 0, issued_pages = 0, landed_pages = 0;
  const std::vector<Page*> in_flight() const { return {flight_.begin(), flight_.end()}; }

 private:
  FfDrive& d_;
  HostPageJob<FakeHostExec> job_;
  std::vector<uint32_t> next_;
  std::vector<std::unique_ptr<Page>> pages_;
  std::deque<Page*> flight_;
};

}  // namespace

TEST_CASE("Host page job: a timed page is mapped and counted when issued, its block closes once every page landed",
          "[host_page][job]") {
  const bool newest_first = GENERATE(false, true);
  FfDrive d(small_drive());
  FakeHostExec<true> x(d);
  const uint32_t upp = d.g.units_per_page, ppb = d.g.pages_per_block;
  for (uint32_t p = 0; p < ppb; ++p)  // one block's pages; the last holds one unit and padding
    x.write(0, 0, p + 1 < ppb ? std::vector<uint32_t>{2 * p, 2 * p + 1} : std::vector<uint32_t>{2 * p});
  const uint32_t units = upp * ppb - 1;
  REQUIRE(x.in_flight().size() == ppb);
  const uint32_t block = d.g.gblock_of(x.in_flight().front()->ppa);
  for (const auto* p : x.in_flight()) CHECK(d.g.gblock_of(p->ppa) == block);  // the stream's frontier block
  for (uint32_t lpn = 0; lpn < units; ++lpn) CHECK(d.g.gblock_of(d.ftl->state().lookup(lpn)) == block);
  CHECK(d.ftl->state().blocks().valid(block) == units);
  CHECK(x.c.programs[uint32_t(UnitKind::UD)] == ppb);
  CHECK(x.flushed == units);
  CHECK(x.stats.user_padding == 1);
  CHECK(x.map_updates_issued == ppb);
  CHECK(x.issued_pages == ppb);
  CHECK(x.rooms == 0);  // a timed job's GC runs beside the page
  CHECK(x.landed_pages == 0);
  for (uint32_t left = ppb; left > 0; --left) {
    CHECK(d.ftl->state().blocks().state(block) == BlockState::Open);  // a page still in flight keeps it open
    REQUIRE(x.complete(newest_first));
  }
  CHECK(x.landed_pages == ppb);
  CHECK(d.ftl->state().blocks().state(block) == BlockState::Full);  // a GC candidate now
  IntegrityChecker checker(d.g.logical_units);
  CHECK(d.ftl->state().audit_map(checker, 0));
}

TEST_CASE("Host page job: two versions of one LPN in a page leave the second mapped and one unit valid",
          "[host_page][job]") {
  FfDrive d(small_drive());
  FakeHostExec<true> x(d);
  x.write(0, 0, {5, 5});
  const uint32_t ppa = x.in_flight().front()->ppa;
  CHECK(d.ftl->state().lookup(5) == ppa + 1);
  CHECK(d.ftl->state().blocks().valid(d.g.gblock_of(ppa)) == 1);
  CHECK_FALSE(d.ftl->state().valid(ppa));
  CHECK(d.ftl->state().valid(ppa + 1));
  x.write(0, 0, {5, 6});  // the next page moves 5 on: its old unit is dropped
  CHECK(d.ftl->state().blocks().valid(d.g.gblock_of(ppa)) == 2);
  CHECK_FALSE(d.ftl->state().valid(ppa + 1));
  while (x.complete(false)) {
  }
  IntegrityChecker checker(d.g.logical_units);
  CHECK(d.ftl->state().audit_map(checker, 0));
}

TEST_CASE("Host page job: a host page taken by a collecting die spends GC credit", "[host_page][job]") {
  FfDrive d(small_drive());
  FakeHostExec<true> x(d);
  GcDie& gc = d.ftl->gc().die(0);
  gc.credit = 2.0;
  x.write(0, 0, {1, 2});
  CHECK(gc.credit == 2.0);  // not collecting: no charge
  gc.active = true;
  x.write(0, 0, {3, 4});
  CHECK(gc.credit == 1.0);
  gc.active = false;
}

TEST_CASE("Host page job: the immediate job makes room first, lands the page at once and drains its map work",
          "[host_page][job]") {
  FfDrive d(small_drive());
  FakeHostExec<false> x(d);
  // The fake collects nothing: pages of distinct LPNs until the die runs out of blocks.
  uint32_t pages = 0, rooms_expected = 0;
  bool threw = false;
  try {
    for (uint32_t lpn = 0;; lpn = (lpn + 2) % uint32_t(d.g.logical_units)) {
      rooms_expected += d.ftl->gc_needed(0);
      x.write(0, 0, {lpn, lpn + 1});
      ++pages;
      REQUIRE(x.landed_pages == pages);  // landed before write returned
      REQUIRE(x.drains == pages);
      REQUIRE(x.rooms == rooms_expected);
    }
  } catch (const std::logic_error& e) {
    threw = true;
    CHECK(std::string(e.what()).find("die 0: no free block for user stream 0") != std::string::npos);
  }
  CHECK(threw);
  CHECK(x.rooms > 0);
  CHECK(pages == d.g.blocks_per_die * d.g.pages_per_block);
}

TEST_CASE("Host page job: the fake timed executor and the fast-forward's leave the same drive", "[host_page][job]") {
  FfDrive a(small_drive()), b(small_drive());
  FakeHostExec<true> x(a);
  FfHostExec ff(b.ftl->fast_forward());
  Rng rng(46);
  const uint32_t pairs = uint32_t(a.g.logical_units) / 2;
  for (uint32_t p = 0; p < 3 * a.g.pages_per_block; ++p) {  // no GC: a few blocks' worth of random pages
    const uint32_t first = 2 * uint32_t(rng.below(pairs));
    const uint32_t lpns[2] = {first, rng.below(4) == 0 ? kInvalid : first + 1}, versions[2] = {1, 1};
    x.write(0, 0, {lpns[0], lpns[1]});
    ff.write_page(0, lpns, versions);
    if (rng.below(2)) x.complete(false);
  }
  while (x.complete(true)) {
  }
  REQUIRE_FALSE(b.ftl->gc_needed(0));
  for (uint32_t lpn = 0; lpn < a.g.logical_units; ++lpn) CHECK(a.ftl->state().lookup(lpn) == b.ftl->state().lookup(lpn));
  for (uint32_t blk = 0; blk < a.g.blocks_per_die; ++blk) {
    CHECK(a.ftl->state().blocks().valid(blk) == b.ftl->state().blocks().valid(blk));
    CHECK(a.ftl->state().blocks().state(blk) == b.ftl->state().blocks().state(blk));
  }
  b.ftl->fast_forward().merge_counters();
  CHECK(x.c.programs[uint32_t(UnitKind::UD)] == b.ftl->state().counters().programs[uint32_t(UnitKind::UD)]);
}
