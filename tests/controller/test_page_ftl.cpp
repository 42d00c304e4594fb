// Algorithm-level tests of the page FTL (no SystemC): mapping, validity, greedy GC against the
// analytic model, run through the functional fast-forward path.
#include <catch2/catch.hpp>

#include "common/analytic.h"
#include "config/config.h"
#include "common/rng.h"
#include "controller/page_ftl.h"
#include "controller/precondition.h"
#include "ff_drive.h"

using namespace ssdtlm;

namespace {

struct Drive : FfDrive {
  Drive(double op, uint32_t dies_n, uint32_t blocks, uint32_t pages, const std::string& victim = "greedy")
      : FfDrive({"geometry.channels=" + std::to_string(dies_n), "geometry.dies_per_channel=1",
                 "geometry.blocks_per_plane=" + std::to_string(blocks),
                 "geometry.pages_per_block=" + std::to_string(pages), "geometry.page_bytes=8192",
                 "geometry.over_provisioning=" + std::to_string(op)},
                victim) {}
};

double steady_waf(Drive& d, double warm_drive_writes, double measured_drive_writes) {
  UniformWrites w(d.g.logical_units, 7);
  auto quiet = [](uint64_t, uint64_t) {};
  precondition(d.ftl->fast_forward(), nullptr, true, warm_drive_writes, &w, quiet);
  d.ftl->state().counters() = FlashCounters();
  auto r = precondition(d.ftl->fast_forward(), nullptr, false, measured_drive_writes, &w, quiet);
  const FlashCounters& f = d.ftl->state().counters();
  return double(f.programs[0] + f.programs[2]) * d.g.units_per_page / double(r.units_written);
}

}  // namespace

TEST_CASE("lambert W and the Desnoyers greedy model reproduce the published table", "[analytic]") {
  CHECK(lambert_w0(-std::exp(-1.0)) == Approx(-1.0).margin(1e-6));
  CHECK(lambert_w0(-0.1) == Approx(-0.111832559).epsilon(1e-8));
  // VALIDATION.md, Np = 256 column
  CHECK(desnoyers_greedy_waf(1.07, 256) == Approx(7.60).margin(0.01));
  CHECK(desnoyers_greedy_waf(1.125, 256) == Approx(4.60).margin(0.01));
  CHECK(desnoyers_greedy_waf(1.25, 256) == Approx(2.67).margin(0.01));
  CHECK(desnoyers_greedy_waf(1.25, 64) == Approx(2.60).margin(0.01));
}

TEST_CASE("mapping: host writes invalidate the old copy and keep valid counts exact", "[ftl]") {
  Drive d(0.25, 2, 64, 16);
  uint32_t lpns[2] = {5, 6}, v[2] = {0, 0};
  FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, v);
  uint32_t first = d.ftl->state().lookup(5);
  REQUIRE(first != kInvalid);
  CHECK(d.ftl->state().valid(first));
  FfHostExec(d.ftl->fast_forward()).write_page(1, lpns, v);
  CHECK(!d.ftl->state().valid(first));
  CHECK(d.ftl->state().valid(d.ftl->state().lookup(5)));
  CHECK(d.ftl->state().blocks().valid(d.g.gblock_of(first)) == 0);
  CHECK(d.ftl->state().blocks().valid(d.g.gblock_of(d.ftl->state().lookup(6))) == 2);
  CHECK(d.ftl->state().die(d.g.die_of(first)).kind(first % (d.g.blocks_per_die * d.g.units_per_block)) == UnitKind::UD);
  d.ftl->state().unmap(6);
  CHECK(d.ftl->state().lookup(6) == kInvalid);
}

TEST_CASE("greedy GC matches Desnoyers' model (SYSTOR'12 Eq. 12) within 3%", "[ftl][gc][analytic]") {
  const double op = GENERATE(0.07, 0.125, 0.25);
  Drive d(op, 2, 1100, 64);  // Np = 128 units per block, ~1100 blocks per die
  double waf = steady_waf(d, 4.0, 2.0);
  double model = desnoyers_greedy_waf(d.ftl->alpha(), d.g.units_per_block);
  INFO("over-provisioning " << op << " alpha " << d.ftl->alpha() << " measured " << waf << " model " << model);
  CHECK(waf == Approx(model).epsilon(0.03));
}

TEST_CASE("FIFO victim selection writes more than greedy at small blocks", "[ftl][gc]") {
  Drive greedy(0.125, 2, 600, 16), fifo(0.125, 2, 600, 16, "fifo");
  double wg = steady_waf(greedy, 3.0, 1.0), wf = steady_waf(fifo, 3.0, 1.0);
  INFO("greedy " << wg << " fifo " << wf);
  CHECK(wf > wg * 1.03);
}
