// tpcc (workload/apps/tpcc_app.cpp): TPC-C on an InnoDB-like engine. Its I/O shape: 16 KiB page reads on
// buffer-pool misses, every flushed page written twice (doublewrite, then home), redo appends in 4 KiB pages,
// fuzzy checkpoints when the redo log fills, and TPC-C's skew (stock and customer hot, item never written).
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "workload/apps/app_model.h"
#include "workload/workload_factory.h"

using namespace ssdtlm;

namespace {
struct Shape {
  uint64_t reads = 0, read_units = 0, redo = 0, doublewrite = 0, home = 0, records = 0, home_requests = 0;
  bool all_16k_reads = true, all_16k_homes = true;
};

Shape run(uint64_t pool_bytes, uint64_t log_bytes, int txns) {
  AppParams p;
  p.tpcc_db_fraction = 0.5;
  p.tpcc_pool_bytes = pool_bytes;
  p.tpcc_log_bytes = log_bytes;
  AppIo io(1 << 18, 32);  // 1 GiB, a 512 MiB database
  auto db = make_tpcc_app(io, p, 5);
  Shape s;
  for (int i = 0; i < txns; ++i) {
    db->step();
    for (const IoRequest& r : io.out) {
      const uint64_t units = r.bytes / 4096;
      if (r.op == IoOp::Read) {
        ++s.reads;
        s.read_units += units;
        s.all_16k_reads &= r.bytes == 16384;
        continue;
      }
      switch (r.pc - kTpccPc) {
        case 1: s.redo += units; break;
        case 2: s.doublewrite += units; break;
        case 3:
        case 4:
          s.home += units;
          ++s.home_requests;
          s.all_16k_homes &= r.bytes == 16384;
          break;
        case 5: s.records += units; break;
        default: FAIL("unexpected pc " << r.pc);
      }
    }
    io.out.clear();
  }
  return s;
}
}  // namespace

TEST_CASE("tpcc: 16 KiB misses, doublewrite before every home write, redo and fuzzy checkpoints", "[host][apps][tpcc]") {
  const Shape small = run(8 << 20, 4 << 20, 20000), large = run(256 << 20, 4 << 20, 20000);
  INFO("reads " << small.reads << " redo " << small.redo << " dblwr " << small.doublewrite << " home " << small.home
                << " records " << small.records);
  CHECK(small.all_16k_reads);
  CHECK(small.all_16k_homes);
  CHECK(small.reads > 0);
  // Every flushed page goes to the doublewrite area first.
  CHECK(small.doublewrite == small.home);
  CHECK(small.home > 0);
  // Fuzzy checkpoints: a small redo log forces them.
  CHECK(small.records > 0);
  CHECK(small.redo > 0);
  // A larger buffer pool misses less and flushes less.
  CHECK(large.reads < small.reads / 2);
  CHECK(large.home < small.home);
}

TEST_CASE("tpcc through the workload: the layout fits a 75 % full drive", "[host][apps][tpcc]") {
  WorkloadParams w;
  w.pattern = "app";
  w.app.app = "tpcc";
  w.app.age_fraction = 0;
  w.app.tpcc_db_fraction = 0.75;
  w.io_count = 1000;
  w.precondition_drive_writes = 1;
  auto pre = make_workload(w, 1ull << 30, true);
  IoRequest r;
  uint64_t layout = 0;
  while (pre->next(r)) layout += r.bytes;
  // Whole warehouses: at most the share asked, less by under one warehouse (about 130 MiB here).
  CHECK(double(layout) / double(1ull << 30) <= 0.75);
  CHECK(double(layout) / double(1ull << 30) > 0.75 - 140.0 / 1024);
  auto timed = make_workload(w, 1ull << 30, false);
  uint64_t n = 0;
  while (timed->next(r)) ++n;
  CHECK(n == 1000);
}
