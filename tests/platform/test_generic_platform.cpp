// Platform regression tests: the timed model against analytic results and physical bounds.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>

#include "common/analytic.h"
#include "controller/precondition.h"
#include "workload/workload_factory.h"
#include "platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;

namespace {

// 4 KiB uniform random writes (independent picks) in steady state on a 2-die drive with many blocks
// per die, so the reserved blocks barely move alpha; a 1 MiB buffer so absorption stays negligible.
void check_greedy_waf(double op) {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=1100",
                             "geometry.pages_per_block=64", "geometry.over_provisioning=" + std::to_string(op),
                             "buffer.bytes=1048576", "workload.io_count=300000", "precondition.drive_writes=3",
                             "host.queues=2", "host.queue_depth=16"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  double alpha = s["ftl"]["alpha"].get<double>();
  double model = desnoyers_greedy_waf(alpha, s["geometry"]["units_per_block"].get<double>());
  double waf = s["waf"]["total"].get<double>();
  INFO("over-provisioning " << op << " alpha " << alpha << " WAF " << waf << " model " << model);
  CHECK(waf == Approx(model).epsilon(0.03));
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 100);
}

}  // namespace

TEST_CASE("timed greedy WAF matches Desnoyers at 7% over-provisioning", "[platform][gc][analytic]") { check_greedy_waf(0.07); }
TEST_CASE("timed greedy WAF matches Desnoyers at 12.5% over-provisioning", "[platform][gc][analytic]") { check_greedy_waf(0.125); }
TEST_CASE("timed greedy WAF matches Desnoyers at 25% over-provisioning", "[platform][gc][analytic]") { check_greedy_waf(0.25); }

TEST_CASE("saturated 128 KiB sequential writes reach the NAND program bound", "[platform][bounds]") {
  // Fresh drive (no GC), small buffer so the initial fill burst does not count.
  Config c = generic_config({"precondition.fill=false", "precondition.drive_writes=0", "workload.pattern=sequential",
                             "workload.block_bytes=131072", "workload.io_count=32768", "buffer.bytes=8388608"});
  RunResult r = run_generic(c);
  const Geometry g = read_geometry(c, 4);
  double program_bound = double(g.dies) * g.page_bytes * g.planes / (c.d("timing.t_prog_us") * 1e-6);
  double channel_bound = g.channels * c.d("timing.channel_mts") * 1e6 * c.d("timing.channel_width_bytes");
  double link_bound = c.d("nvme.link_mbps") * 1e6;
  double bound = std::min({program_bound, channel_bound, link_bound}) / 1e6;
  double mbps = r.summary["host"]["mbps"].get<double>();
  INFO("measured " << mbps << " MB/s, bound " << bound << " MB/s");
  CHECK(mbps <= bound * 1.005);  // the 8 MiB buffer's head start is 0.2% of the 4 GiB written
  CHECK(mbps >= bound * 0.97);
}

TEST_CASE("high queue depth 4 KiB random reads reach the read bound", "[platform][bounds]") {
  Config c = generic_config({"precondition.drive_writes=0", "workload.read_fraction=1", "workload.io_count=300000",
                             "host.queues=8", "host.queue_depth=128"});
  RunResult r = run_generic(c);
  const Geometry g = read_geometry(c, 4);
  const double bytes = 4096;
  // Per read the bus carries command cycles + 4 KiB; a die is busy tR + its transfer.
  double xfer_s = (c.d("timing.cmd_ns") * 1e-9) + bytes / (c.d("timing.channel_mts") * 1e6 * c.d("timing.channel_width_bytes"));
  double die_bound = g.dies / (c.d("timing.t_read_us") * 1e-6 + xfer_s);
  double channel_bound = g.channels / xfer_s;
  double link_bound = c.d("nvme.link_mbps") * 1e6 / (bytes + 16);
  double bound = std::min({die_bound, channel_bound, link_bound});
  double iops = r.summary["host"]["iops"].get<double>();
  INFO("measured " << iops << " IOPS, bound " << bound << " (die " << die_bound << ", channel " << channel_bound
                   << ", link " << link_bound << ")");
  CHECK(iops <= bound * 1.001);
  CHECK(iops >= bound * 0.97);
  CHECK(r.summary["integrity"]["checked_reads"].get<uint64_t>() == 300000);
  CHECK(r.summary["integrity"]["errors"] == 0);
}

TEST_CASE("mixed random reads and writes through buffer and GC keep data intact", "[platform][integrity]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=32", "geometry.over_provisioning=0.1", "buffer.bytes=2097152",
                             "workload.read_fraction=0.5", "workload.io_count=400000", "workload.block_bytes=8192",
                             "precondition.drive_writes=1", "host.queues=4", "host.queue_depth=32"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  INFO(s.dump(2));
  CHECK(s["integrity"]["enabled"] == true);
  CHECK(s["integrity"]["checked_reads"].get<uint64_t>() >= 390000);
  CHECK(s["integrity"]["errors"] == 0);
  CHECK(s["nand"]["gc_victims"].get<uint64_t>() > 1000);
  CHECK(s["ftl"]["buffer_read_hits"].get<uint64_t>() > 0);
  CHECK(r.exit_code == 0);
}

TEST_CASE("WAF counters add up and every host write is accounted for", "[platform]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=128",
                             "geometry.pages_per_block=64", "buffer.bytes=1048576", "workload.io_count=100000"});
  RunResult r = run_generic(c);
  const auto& s = r.summary;
  double total = s["waf"]["total"].get<double>();
  double parts = s["waf"]["ud"].get<double>() + s["waf"]["gud"].get<double>() + s["waf"]["md"].get<double>() +
                 s["waf"]["gmd"].get<double>();
  CHECK(total == Approx(parts));
  CHECK(s["host"]["write_ios"] == 100000);
  // Every accepted unit is either flushed or still in the buffer (less absorbed overwrites).
  uint64_t flushed = s["ftl"]["flushed_units"], absorbed = s["ftl"]["buffer_absorbed_writes"];
  CHECK(flushed + absorbed <= 100000);
  CHECK(flushed + absorbed + 256 >= 100000);
  CHECK(s["sim_time_s"].get<double>() > 0);
}

TEST_CASE("GC-relocated units carry their data stream and kind in their out-of-band data", "[platform][gc]") {
  Config c = generic_config({"geometry.channels=1", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=16", "buffer.bytes=1048576", "workload.io_count=50000"});
  std::unique_ptr<Platform> p = generic_platform_info().make(read_params(c));
  auto quiet = [](uint64_t, uint64_t) {};
  auto w = make_workload(c, p->geometry().logical_bytes(), true);
  precondition(p->page_ftl().fast_forward(), p->checker(), true, 2.0, w.get(), quiet);
  const Geometry& g = p->geometry();
  uint64_t gud = 0, ud = 0;
  for (uint32_t lpn = 0; lpn < g.logical_units; ++lpn) {
    uint32_t ppa = p->page_ftl().state().lookup(lpn);
    Die& d = p->page_ftl().state().die(g.die_of(ppa));
    uint32_t unit = ppa % (g.blocks_per_die * g.units_per_block);
    REQUIRE(d.lpn(unit) == lpn);
    if (d.kind(unit) == UnitKind::GUD) {
      ++gud;
      CHECK(d.stream(unit) == 0);  // single-stream drive: everything belongs to stream 0
    } else {
      ++ud;
      CHECK(d.stream(unit) == 0);
    }
  }
  CHECK(gud > 0);
  CHECK(ud > 0);
}
