// The application models (docs/reference/apps.md): each model's write mix against its documented parameters, the
// mixed interleaving, the aging layout and the configuration around pattern=app.
#include <catch2/catch.hpp>

#include <map>
#include <set>

#include "config/config.h"
#include "config/params.h"
#include "workload/apps/app_workload.h"
#include "workload/apps/gcc_app.h"
#include "workload/apps/lsm_app.h"
#include "workload/apps/sqlite_app.h"
#include "workload/workload_factory.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

// Drains the requests the model has queued; returns how many.
size_t drain(AppIo& io, std::vector<IoRequest>* keep = nullptr) {
  size_t n = io.out.size();
  if (keep) keep->insert(keep->end(), io.out.begin(), io.out.end());
  io.out.clear();
  return n;
}

std::string config_error(const Config& c) {
  try {
    make_workload(c, 1ull << 30, false);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("lsm: WAL = flushed data, per-level fan-out, bounded DB", "[host][apps][lsm]") {
  AppParams p;
  p.lsm_memtable_bytes = 256 << 10;  // 64 units
  p.lsm_table_bytes = 256 << 10;
  p.lsm_fanout = 10;
  p.lsm_l0_trigger = 4;  // L1 = 256 units, L2 = 2560, L3 = D = 25600 units (100 MiB)
  p.lsm_reads_per_write = 0.5;
  AppIo io(1 << 20, 32);  // 4 GiB
  p.lsm_db_fraction = 25600.0 / double(1 << 20);
  LsmApp lsm(io, p, 5);
  REQUIRE(lsm.levels() == 3);
  CHECK(lsm.level_target(1) == Approx(256));
  CHECK(lsm.level_target(2) == Approx(2560));
  while (lsm.stats().flush_units < 8 * lsm.db_units()) {
    lsm.step();
    drain(io);
  }
  const LsmStats& s = lsm.stats();
  INFO("wal " << s.wal_units << " flush " << s.flush_units << " compaction " << s.compaction_units);
  // The WAL logs exactly what the memtables held (up to the memtable being filled).
  CHECK(double(s.wal_units) == Approx(double(s.flush_units)).margin(2 * 64));
  CHECK(s.wal_deletes == s.flushes);
  // Fan-out: a table moved from L2 into L3 is merged with about fanout tables of L3 (L3 = D = 10 x L2's target).
  const double f3 = double(s.lower_in[3]) / double(s.upper_in[3]);
  const double f2 = double(s.lower_in[2]) / double(s.upper_in[2]);
  INFO("L2 in: lower/upper " << f2 << "; L3 in: lower/upper " << f3);
  // (The upper level runs between its target and twice it, L1 at twice after each L0 compaction, so the
  // measured ratio is the fan-out of the actual sizes: between f / 2 and f + 1.)
  CHECK(f2 > 0.45 * 10);
  CHECK(f2 < 1.2 * 11);
  CHECK(f3 > 0.45 * 10);
  CHECK(f3 < 1.2 * 11);
  // Write amplification of the tree: flush once, L0 -> L1 about twice (L1 = the L0 batch), then 1 + the
  // fan-out per byte moved into L2 and L3 (less what updates drop there): between (n - 1) f / 2 and
  // 2 + (n - 1)(f + 1) per flushed byte.
  const double wa = double(s.compaction_units) / double(s.flush_units);
  INFO("compaction / flush " << wa);
  CHECK(wa > 2 * 10 / 2.0);
  CHECK(wa < 2.0 + 2 * 11);
  // The DB stops growing: the last level holds D, the upper ones stay near their targets.
  CHECK(double(lsm.level_units(3)) == Approx(double(lsm.db_units())).epsilon(0.02));
  CHECK(double(lsm.level_units(2)) < 2.0 * lsm.level_target(2));
  CHECK(lsm.l0_tables() < 20);
  // PCs per activity and at most 8 hints.
  for (uint32_t pc : {kLsmPc + LsmApp::kPcWal, kLsmPc + LsmApp::kPcFlush, kLsmPc + LsmApp::kPcCompaction + 1,
                      kLsmPc + LsmApp::kPcCompaction + 2, kLsmPc + LsmApp::kPcCompaction + 3})
    CHECK(io.written_by_pc[pc] > 0);
  CHECK(io.written_by_pc.size() == 5);
  for (auto& [h, n] : io.written_by_hint) CHECK((h >= 1 && h <= 8));
  CHECK(io.written_by_pc[kLsmPc + LsmApp::kPcWal] == s.wal_units);
  CHECK(io.fs.check().empty());
}

TEST_CASE("sqlite: log and table shares, table hotness, checkpoints", "[host][apps][sqlite]") {
  AppParams p;
  p.sqlite_db_fraction = 0.05;
  AppIo io(1 << 18, 32);  // 1 GiB: a 51 MiB database
  SqliteApp db(io, p, 3);
  std::vector<IoRequest> reqs;
  for (int i = 0; i < 60000; ++i) {
    db.step();
    drain(io, &reqs);
  }
  // The transaction mix.
  CHECK(double(db.txns(SqliteApp::TxNewOrder)) / 60000 == Approx(0.45).margin(0.01));
  CHECK(double(db.txns(SqliteApp::TxPayment)) / 60000 == Approx(0.43).margin(0.01));
  // Checkpoints every sqlite_checkpoint_pages frames; a checkpoint writes each page once however often the
  // WAL holds it, so the log outweighs the tables (the hot warehouse and district pages are in every WAL).
  CHECK(db.checkpoints() <= db.wal_units() / 1001);
  CHECK(db.checkpoints() >= db.wal_units() / (1001 + 60));
  const double log_share = double(db.wal_units()) / double(db.wal_units() + db.checkpoint_units());
  INFO("log share " << log_share);
  CHECK(log_share > 0.5);
  CHECK(log_share < 0.9);
  // Hotness: writes per page per table: district >> customer, stock; item is never written.
  auto per_page = [&](int t) { return double(db.checkpoint_units_of(t)) / double(db.table_pages(t)); };
  INFO("per page: district " << per_page(SqliteApp::District) << " customer " << per_page(SqliteApp::Customer)
                             << " stock " << per_page(SqliteApp::Stock) << " order_line " << per_page(SqliteApp::OrderLine));
  CHECK(db.checkpoint_units_of(SqliteApp::Item) == 0);
  CHECK(per_page(SqliteApp::District) > 5 * per_page(SqliteApp::Stock));
  CHECK(per_page(SqliteApp::Stock) > 5 * per_page(SqliteApp::OrderLine));
  CHECK(per_page(SqliteApp::Stock) > 0);
  CHECK(db.checkpoint_units_of(SqliteApp::Stock) > db.checkpoint_units_of(SqliteApp::Customer));
  // PCs: frames of three transaction kinds, the WAL header, the checkpoint; hints 1 (log) and 2 (tables).
  CHECK(io.written_by_pc.size() == 5);
  CHECK(io.written_by_hint.size() == 2);
  CHECK(io.written_by_hint[1] == db.wal_units());
  CHECK(io.written_by_hint[2] == db.checkpoint_units());
  // In place: no trims, and the writes stay inside the database and WAL files.
  for (auto& r : reqs) CHECK(r.op != IoOp::Trim);
  CHECK(io.fs.check().empty());
}

TEST_CASE("gcc: PCs outnumber the streams, a process per tool run, temporaries die within the build", "[host][apps][gcc]") {
  AppParams p;
  p.gcc_sources = 300;
  p.gcc_jobs = 4;
  p.gcc_builds = 4;
  AppIo io(1 << 18, 32);
  GccApp gcc(io, p, 11);
  std::vector<IoRequest> reqs;
  std::set<uint32_t> temps_live_after_build;
  uint64_t last_builds = 0;
  while (gcc.step()) {
    drain(io, &reqs);
    if (gcc.stats().builds_done != last_builds) {  // a build just finished: its temporaries are gone
      last_builds = gcc.stats().builds_done;
      CHECK(gcc.stats().temps_created_build > 0);
      CHECK(gcc.stats().temps_created_build == gcc.stats().temps_deleted_build);
    }
  }
  drain(io, &reqs);
  const GccStats& s = gcc.stats();
  CHECK(s.builds_done == 4);
  CHECK(s.compiles == 300 + 3 * 100);             // a full build, then a third of the sources each time
  CHECK(s.sources_rewritten == 3 * 100);
  CHECK(s.objects_replaced == 3 * 100);            // every recompiled object replaced its predecessor
  CHECK(s.temps_created == s.temps_deleted);
  CHECK(io.written_by_pc.size() > 20);             // the checkout PC only writes the initial layout
  CHECK(io.written_by_pc.size() == p.gcc_pcs - 1);
  // Every compile runs new processes: the .o writes of one compile come from an `as` nobody else used.
  std::map<uint32_t, std::set<uint16_t>> slots_of_proc;
  std::set<uint32_t> as_procs;
  for (auto& r : reqs) {
    if (r.op != IoOp::Write) continue;
    slots_of_proc[r.proc].insert(r.proc_slot);
    if (r.pc >= kGccPc + GccApp::kFixedPcs + 1 + gcc.cc1_variants()) as_procs.insert(r.proc);  // as's writers
  }
  CHECK(as_procs.size() >= s.compiles);
  for (auto& [proc, slots] : slots_of_proc) CHECK(slots.size() == 1);  // a process stays in its lane
  std::set<uint16_t> slots;
  for (auto& r : reqs) slots.insert(r.proc_slot);
  CHECK(slots.size() == 4);
  // Trims: every deleted temporary and replaced object; hints 1..6
  uint64_t trims = 0;
  for (auto& r : reqs) trims += r.op == IoOp::Trim;
  CHECK(trims >= s.temps_deleted + s.objects_replaced);
  for (auto& [h, n] : io.written_by_hint) CHECK((h >= 1 && h <= 6));
  CHECK(io.fs.check().empty());
}

TEST_CASE("gcc: gcc_gap_ns idles before every build after the first, on that build's first request", "[host][apps][gcc]") {
  AppParams p;
  p.gcc_sources = 60;
  p.gcc_jobs = 2;
  p.gcc_builds = 3;
  p.gcc_gap_ns = 5'000'000'000ull;
  AppIo io(1 << 16, 32);
  GccApp gcc(io, p, 3);
  std::vector<IoRequest> reqs;
  std::vector<size_t> build_start;  // index of each build's first request
  uint64_t builds = 0;
  bool started = false;
  while (gcc.step()) {
    if (!started && !io.out.empty()) build_start.push_back(reqs.size()), started = true;
    drain(io, &reqs);
    if (gcc.stats().builds_done != builds) builds = gcc.stats().builds_done, started = false;
  }
  REQUIRE(build_start.size() == 3);
  std::vector<size_t> gaps;
  for (size_t i = 0; i < reqs.size(); ++i)
    if (reqs[i].idle_ns) {
      CHECK(reqs[i].idle_ns == p.gcc_gap_ns);
      gaps.push_back(i);
    }
  CHECK(gaps == std::vector<size_t>{build_start[1], build_start[2]});  // not before the first build
}

TEST_CASE("app workload: the precondition writes the aged layout, the timed run builds the same one", "[host][apps]") {
  AppParams p;
  p.app = "gcc";
  p.gcc_sources = 200;
  p.age_fraction = 0.9;
  p.age_file_bytes = 256 << 10;
  const uint64_t bytes = 512ull << 20;
  AppWorkload pre(p, bytes, true), run(p, bytes, false, 100000);
  CHECK(double(pre.aged_units()) == Approx(0.9 * double(bytes / 4096)).margin(1));
  IoRequest r;
  uint64_t units = 0;
  std::vector<bool> seen(bytes / 4096, false);
  while (pre.next(r)) {
    REQUIRE(r.op == IoOp::Write);
    for (uint64_t u = r.offset / 4096; u < (r.offset + r.bytes) / 4096; ++u) {
      REQUIRE(!seen[u]);
      seen[u] = true;
    }
    units += r.bytes / 4096;
  }
  CHECK(units == pre.layout_units());
  CHECK(run.layout_units() == pre.layout_units());
  CHECK(run.io().fs.free_units() == pre.io().fs.free_units());
  // The timed run writes only where the layout left space, or into files it created or replaced.
  uint64_t n = 0, overwrites_of_aged = 0;
  while (run.next(r)) {
    ++n;
    if (r.op == IoOp::Write && r.offset / 4096 < pre.aged_units()) ++overwrites_of_aged;
  }
  CHECK(n < 100000);  // gcc ended by itself after its 30 builds
  auto& gcc = dynamic_cast<GccApp&>(run.model(0));
  CHECK(gcc.stats().builds_done == 30);
  CHECK(overwrites_of_aged == 0);  // the aged files are never touched
  CHECK(run.io().fs.check().empty());
}

TEST_CASE("mixed: two apps in the configured write ratio with disjoint PCs", "[host][apps][mixed]") {
  AppParams p;
  p.app = "mixed1";
  p.mixed_ratio = 0.3;
  p.age_fraction = 0.5;
  p.lsm_memtable_bytes = p.lsm_table_bytes = 1 << 20;
  p.lsm_db_fraction = 0.05;
  p.gcc_sources = 500;
  AppWorkload w(p, 2ull << 30, false, 300000);
  IoRequest r;
  uint64_t lsm_w = 0, gcc_w = 0;
  while (w.next(r))
    if (r.op == IoOp::Write) {
      REQUIRE(((r.pc >= 1000 && r.pc < 1100) || (r.pc >= 3000 && r.pc < 3200)));
      (r.pc < 2000 ? lsm_w : gcc_w) += r.bytes;
    }
  const double share = double(lsm_w) / double(lsm_w + gcc_w);
  INFO("lsm share of writes " << share);
  CHECK(share == Approx(0.3).margin(0.02));
  CHECK(w.written_by_model(0) * 4096 == lsm_w);
  CHECK(w.io().fs.check().empty());
}

TEST_CASE("app workload: a layout that does not fit names the app and the sizes", "[host][apps]") {
  AppParams p;
  p.app = "lsm";
  p.lsm_db_fraction = 0.2;
  try {
    AppWorkload w(p, 1ull << 30, false);
    FAIL("no error");
  } catch (const FileLayerFull& e) {
    CHECK_THAT(e.what(), Contains("lsm needs") && Contains("free after aging"));
  }
}

TEST_CASE("app configuration: JSON nesting, and the precondition settings pattern=app needs", "[host][apps][config]") {
  Config c;
  c.merge_text(R"({"workload": {"pattern": "app", "app": "gcc", "app.gcc_jobs": 3, "app.age_fraction": 0.5}})", "test");
  CHECK(c.s("workload.app") == "gcc");
  CHECK(c.i("workload.app.gcc_jobs") == 3);
  Config again;  // the stored document reads back the same
  again.merge(c.json(), "config.json");
  CHECK(again.i("workload.app.gcc_jobs") == 3);
  CHECK(read_app_params(c).gcc_jobs == 3);
  // precondition.fill (default true) contradicts the aging
  CHECK_THAT(config_error(c), Contains("precondition.fill"));
  c.set("precondition.fill=false");
  c.set("precondition.drive_writes=0.2");
  CHECK_THAT(config_error(c), Contains("precondition.drive_writes"));
  c.set("precondition.drive_writes=1");
  CHECK(config_error(c).empty());
  c.set("workload.app.age_fraction=0.99");
  c.set("workload.app=lsm");
  CHECK_THAT(config_error(c), Contains("lsm needs") && Contains("workload.app.age_fraction"));
  c.set("workload.app.age_fraction=0.5");
  c.set("workload.stream_hint=zone");
  c.set("streams.assign=manual");
  CHECK_THAT(config_error(c), Contains("workload.stream_hint"));
}

TEST_CASE("app workload: without TRIM deletes free the space but send no trims", "[host][apps]") {
  AppParams p;
  p.app = "gcc";
  p.gcc_sources = 200;
  p.gcc_builds = 3;
  p.age_fraction = 0.5;
  p.age_file_bytes = 256 << 10;
  const uint64_t bytes = 512ull << 20;
  uint64_t trims[2] = {0, 0}, writes[2] = {0, 0};
  for (int trim = 0; trim < 2; ++trim) {
    p.trim = trim == 1;
    AppWorkload run(p, bytes, false, 1000000);
    IoRequest r;
    while (run.next(r)) (r.op == IoOp::Trim ? trims : writes)[trim] += r.bytes;
    CHECK(run.io().fs.check().empty());
  }
  CHECK(trims[0] == 0);
  CHECK(trims[1] > 0);
  CHECK(writes[0] == writes[1]);  // the same file operations either way
}
