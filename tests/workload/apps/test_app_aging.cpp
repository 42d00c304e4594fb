// Aging by file-system churn and the application warm-up (workload.app.age_churn, warmup_drive_writes;
// docs/reference/apps.md): what the precondition's workload issues, and that the timed workload starts from the same
// file-layer state, with gcc's measured builds counted after the warm-up.
#include <catch2/catch.hpp>

#include "workload/apps/app_workload.h"
#include "workload/apps/gcc_app.h"

using namespace ssdtlm;

namespace {

AppParams small_gcc() {
  AppParams p;
  p.app = "gcc";
  p.gcc_sources = 200;
  p.gcc_builds = 3;
  p.age_fraction = 0.9;
  p.age_file_bytes = 256 << 10;
  return p;
}

struct Issued {
  uint64_t writes = 0, trims = 0, app_writes = 0;
};

Issued drain(AppWorkload& w) {
  Issued n;
  IoRequest r;
  while (w.next(r)) {
    if (r.op == IoOp::Write) n.writes += r.bytes / 4096;
    if (r.op == IoOp::Write && r.pc) n.app_writes += r.bytes / 4096;
    if (r.op == IoOp::Trim) n.trims += r.bytes / 4096;
  }
  return n;
}

}  // namespace

TEST_CASE("aging churn: files deleted and rewritten fragment the free space, and the timed run starts from that layout",
          "[host][apps][aging]") {
  const uint64_t bytes = 512ull << 20, units = bytes / 4096;
  AppParams plain = small_gcc();
  AppParams churned = small_gcc();
  churned.age_churn = 1.0;
  AppWorkload pre_plain(plain, bytes, true), pre(churned, bytes, true), run(churned, bytes, false);
  const Issued n = drain(pre);
  // The fill, then the churn's writes: at least the aged volume again; every deleted file trimmed.
  CHECK(n.writes >= pre.layout_units() + uint64_t(1.9 * 0.9 * double(units)));
  CHECK(n.trims > uint64_t(0.9 * 0.9 * double(units)));
  CHECK(n.writes - n.trims == units - pre.io().fs.free_units());  // what is written and not trimmed is live
  CHECK(double(pre.aged_units()) == Approx(0.9 * double(units)).margin(1));
  CHECK(pre.aging_free_extents() > 10 * pre_plain.io().fs.allocator().free_extents());
  CHECK(pre.io().fs.check().empty());
  // The timed workload built the same files and free space without issuing them.
  CHECK(run.io().fs.free_units() == pre.io().fs.free_units());
  CHECK(run.io().fs.allocator().free_extents() == pre.io().fs.allocator().free_extents());
  CHECK(run.io().written_units == 0);
  // Without churn nothing is trimmed: the old layout, written once.
  const Issued m = drain(pre_plain);
  CHECK(m.trims == 0);
  CHECK(m.writes == pre_plain.layout_units());
}

TEST_CASE("warm-up: the precondition runs the app to the end of a build, and the timed run measures gcc_builds more",
          "[host][apps][aging]") {
  const uint64_t bytes = 512ull << 20, units = bytes / 4096;
  AppParams p = small_gcc();
  p.warmup_drive_writes = 0.05;
  AppWorkload pre(p, bytes, true), run(p, bytes, false);
  const Issued n = drain(pre);
  CHECK(n.app_writes >= uint64_t(0.05 * double(units)));
  CHECK(pre.warmup_written_units() >= uint64_t(0.05 * double(units)));
  auto& pre_gcc = dynamic_cast<GccApp&>(pre.model(0));
  const uint64_t warm_builds = pre_gcc.stats().builds_done;
  CHECK(warm_builds >= 1);
  CHECK(pre_gcc.between_runs());
  // The timed run starts where the warm-up ended: same file layer, same builds done, statistics afresh.
  auto& gcc = dynamic_cast<GccApp&>(run.model(0));
  CHECK(gcc.stats().builds_done == warm_builds);
  CHECK(run.io().fs.allocator().free_extents() == pre.io().fs.allocator().free_extents());
  CHECK(run.io().fs.free_units() == pre.io().fs.free_units());
  CHECK(run.io().written_units == 0);
  CHECK(run.progress().done == 0);
  drain(run);
  CHECK(gcc.measured_builds() == 3);
  CHECK(gcc.stats().builds_done == warm_builds + 3);
}
