// The typed parameter tree: every key read once into the structs the modules take.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "config/params.h"
#include "platform/platform_run.h"

using namespace ssdtlm;

namespace {
Config with(std::initializer_list<std::string> sets) {
  Config c = platform_config(generic_platform_info());
  for (auto& s : sets) c.set(s);
  return c;
}
}  // namespace

TEST_CASE("params: the generic platform's defaults read into every part of the tree", "[config][params]") {
  const Config c = platform_config(generic_platform_info());
  const Params p = read_params(c);
  CHECK(p.geometry.channels == uint32_t(c.i("geometry.channels")));
  CHECK(p.geometry.dies == p.geometry.channels * p.geometry.dies_per_channel);
  CHECK(p.geometry.logical_units > 0);
  CHECK(p.geometry.logical_units % p.geometry.dies == 0);
  CHECK(p.ftl.buffer_units == c.u("buffer.bytes") / kUnitBytes);
  CHECK(p.ftl.cores == uint32_t(c.i("firmware.cores")));
  CHECK(p.buffer.policy == c.s("buffer.policy"));
  CHECK(p.gc.victim == c.s("ftl.gc_victim"));
  CHECK(p.map.scheme == c.s("ftl.mapping"));
  CHECK(p.map.cache.logical_units == p.geometry.logical_units);
  CHECK(p.flash.timing.t_read_ps == uint64_t(c.d("timing.t_read_us") * 1e6));
  CHECK(p.bus.mts == c.d("timing.channel_mts"));
  CHECK(p.dram.mts == c.d("dram.mts"));
  CHECK(p.stats.interval_ps == uint64_t(c.d("stats.interval_ms") * 1e9));
  CHECK(p.sim.seed == c.u("sim.seed"));
  CHECK(p.fault.power_loss_ps.empty());
  REQUIRE(p.jobs.size() == 1);
  CHECK_FALSE(p.jobs_listed);
  CHECK(p.jobs[0].queue_depth == uint32_t(c.i("host.queue_depth")));
  CHECK(p.jobs[0].workload.pattern == c.s("workload.pattern"));
  CHECK(p.jobs[0].workload.seed == c.u("sim.seed") * 2 + c.u("workload.seed_offset") * 1000003);
}

TEST_CASE("params: derived values: the reserve and frontiers, a map on flash, lifetimes", "[config][params]") {
  const Params plain = read_params(with({}));
  CHECK(plain.frontiers.frontiers() == plain.frontiers.user + plain.frontiers.gc);
  CHECK(plain.reserved_blocks_per_die == plain.gc.kept_free_blocks() + plain.frontiers.frontiers());
  const Params dftl = read_params(with({"ftl.mapping=dftl"}));
  CHECK(dftl.map.pages_on_flash);
  CHECK(dftl.frontiers.map);
  CHECK(dftl.fault.recovery.map_on_flash);
  const Params streams = read_params(with({"streams.count=3", "streams.assign=manual", "streams.internal=true"}));
  CHECK(streams.streams.user_streams() == 4);
  CHECK(streams.streams.gc == GcStreams::PerStream);
  CHECK_FALSE(streams.streams.gc_in_user);
  CHECK(streams.streams.lifetimes);  // stats.lifetimes=auto: on with streams
  const Params urgent = read_params(with({"ftl.gc_min_invalid=0.125", "ftl.gc_free_blocks=4", "ftl.gc_urgent_free_blocks=2"}));
  CHECK(urgent.gc.kept_free_blocks() == 2);
}

TEST_CASE("params: per-page-type times and the power-loss schedule", "[config][params]") {
  const Params tlc = read_params(with({"flash.cell=tlc", "timing.page_read_us=50,70,110", "timing.page_prog_us=500,2000,5000"}));
  CHECK(tlc.flash.page_types == 3);
  CHECK(tlc.flash.page_read_ps[2] == 110000000);
  CHECK(tlc.flash.prog_ps(1) == 2000000000);
  const Params one_shot = read_params(with({"flash.cell=tlc", "timing.page_prog_us=500,2000,5000", "flash.one_shot=true"}));
  CHECK(one_shot.flash.prog_ps(2) == 5000000000);
  CHECK(one_shot.flash.prog_ps(0) == 0);
  const Params loss = read_params(with({"check.integrity=true", "fault.power_loss_at_ms=5, 2"}));
  REQUIRE(loss.fault.power_loss_ps.size() == 2);
  CHECK(loss.fault.power_loss_ps[0] == 2000000000);  // sorted
}

TEST_CASE("params: jobs take their overrides and a seed offset each, the precondition its own", "[config][params]") {
  Config c = with({"precondition.drive_writes=0.5"});
  c.merge_text(R"({"jobs": [{"name": "reader", "read_fraction": 1, "queue_depth": 4}, {"seed_offset": 7}]})", "jobs.json");
  const Params p = read_params(c);
  REQUIRE(p.jobs.size() == 2);
  CHECK(p.jobs_listed);
  CHECK(p.jobs[0].name == "reader");
  CHECK(p.jobs[0].queue_depth == 4);
  CHECK(p.jobs[0].workload.read_fraction == 1.0);
  CHECK(p.jobs[1].workload.seed == p.sim.seed * 2 + 7 * 1000003);
  CHECK(p.jobs[0].workload.seed == p.sim.seed * 2 + 0 * 1000003);
  CHECK(p.jobs[1].workload.seed != p.jobs[0].workload.seed + 1);
  REQUIRE(p.precondition_workloads.size() == 2);
  CHECK(p.precondition_workloads[1].seed == p.jobs[1].workload.seed);
}
