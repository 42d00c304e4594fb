// The enum-like keys (config/choices.h): the schema offers exactly each table's names, every name the schema
// offers parses, an unknown one is refused naming its key, and the readers map the names through the tables.
#include <catch2/catch.hpp>

#include <algorithm>

#include "config/choices.h"
#include "config/config.h"
#include "config/params.h"
#include "config/placement_params.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("choices: every schema choice of an enum-like key parses through its table", "[config][choices]") {
  const auto& schema = config_schema();
  REQUIRE(keyed_choices().size() == 40);
  for (const KeyedChoices& keyed : keyed_choices()) {
    INFO(keyed.key);
    const auto it = std::find_if(schema.begin(), schema.end(), [&](const KeySpec& k) { return k.path == keyed.key; });
    REQUIRE(it != schema.end());
    CHECK(it->type == KeyType::String);
    CHECK(it->choices == keyed.names);
    CHECK(std::find(keyed.names.begin(), keyed.names.end(), it->def.get<std::string>()) != keyed.names.end());
    for (const std::string& name : it->choices) CHECK_NOTHROW(keyed.parse(name, keyed.key));
    CHECK_THROWS_WITH(keyed.parse("bogus", keyed.key), Contains(std::string("key '") + keyed.key + "'"));
  }
}

TEST_CASE("choices: the readers map the names through the tables", "[config][choices]") {
  CHECK(parse_choice(choices::kFlashCell, "tlc", "flash.cell") == 3);
  Config c;
  for (const char* s : {"flash.suspend=program_erase", "flash.multiplane=never", "flash.plane_rule=any",
                        "nvme.interface=register", "sim.converge=report", "streams.count=1",
                        "streams.gc_stream=per_stream", "streams.gc_frontier=user", "flash.cell=qlc", "cache.read_ahead=sequential"})
    c.set(s);
  const Params p = read_params(c);
  CHECK(p.flash.suspend == SuspendMode::ProgramErase);
  CHECK(p.flash.multiplane == MultiPlane::Never);
  CHECK(p.flash.plane_any);
  CHECK(p.flash.page_types == 4);
  CHECK(p.ftl.read_ahead.sequential);
  CHECK(p.nvme.register_interface);
  CHECK(p.sim.converge.mode == ConvergeParams::Mode::Report);
  CHECK(p.streams.gc == GcStreams::PerStream);
  CHECK(p.streams.gc_in_user);
}

TEST_CASE("choices: the workload readers map the names through the tables", "[config][choices]") {
  Config c;
  const WorkloadParams defaults = read_workload_params(c);
  CHECK_FALSE(defaults.jesd219);
  CHECK_FALSE(defaults.zone_hint);
  CHECK(defaults.trace.max_time_ns == 0);
  CHECK(defaults.capture.clean_cache);
  CHECK_FALSE(defaults.capture.pc_per_inode);
  CHECK(defaults.pacing.exit_what == ExitWhat::None);
  CHECK_FALSE(defaults.pacing.poisson);
  CHECK_FALSE(defaults.placement.random);
  CHECK_FALSE(defaults.app.lsm_random_pick);
  CHECK_FALSE(defaults.app.cache_lru);
  CHECK_FALSE(defaults.ext4);
  CHECK(read_log_params(c).window == IoLogParams::Window::Avg);
  for (const char* s : {"workload.preset=jesd219", "workload.stream_hint=zone", "workload.trace_timing=open",
                        "workload.capture_page_cache=dirty_only", "workload.capture_pc_scope=inode",
                        "workload.exit_what=stonewall", "workload.rate_process=poisson", "workload.plid_select=random",
                        "workload.app.lsm_compaction_pick=random", "workload.app.cache_eviction=lru",
                        "workload.log_window_value=both", "workload.filesystem=ext4"})
    c.set(s);
  const WorkloadParams w = read_workload_params(c);
  CHECK(w.jesd219);
  CHECK(w.zone_hint);
  CHECK(w.trace.max_time_ns == kMaxOpenLoopTimeNs);
  CHECK_FALSE(w.capture.clean_cache);
  CHECK(w.capture.pc_per_inode);
  CHECK(w.pacing.exit_what == ExitWhat::Stonewall);
  CHECK(w.pacing.poisson);
  CHECK(w.placement.random);
  CHECK(w.app.lsm_random_pick);
  CHECK(w.app.cache_lru);
  CHECK(w.ext4);
  CHECK(read_log_params(c).window == IoLogParams::Window::Both);
  c.set("workload.exit_what=group");
  CHECK(read_workload_params(c).pacing.exit_what == ExitWhat::Group);
  c.set("workload.log_window_value=max");
  CHECK(read_log_params(c).window == IoLogParams::Window::Max);
}

TEST_CASE("choices: the keys carried into the model map to their enums and back to their names", "[config][choices]") {
  Config c;
  const Params defaults = read_params(c);
  CHECK(defaults.precondition.snapshot_mode == SnapshotMode::Auto);
  const WorkloadParams w0 = read_workload_params(c);
  CHECK(w0.placement.kind == DataPlacement::None);
  CHECK(w0.app.placement == AppPlacement::None);
  CHECK(w0.app.allocation == ExtentAllocator::Fit::Best);
  CHECK(w0.trace_fit == TraceFitMode::Auto);
  CHECK(w0.trace.blkparse_event == BlkparseEvent::Queued);
  Config snap;
  snap.set("precondition.snapshot=load");
  CHECK(read_params(snap).precondition.snapshot_mode == SnapshotMode::Load);
  for (const char* s : {"workload.dataplacement=streams", "workload.app.placement=zns", "workload.app.allocation=spread",
                        "workload.trace_fit=shift", "workload.blkparse_event=D"})
    c.set(s);
  const WorkloadParams w = read_workload_params(c);
  CHECK(w.placement.kind == DataPlacement::Streams);
  CHECK(w.app.placement == AppPlacement::Zns);
  CHECK(w.app.allocation == ExtentAllocator::Fit::Spread);
  CHECK(w.trace_fit == TraceFitMode::Shift);
  CHECK(w.trace.blkparse_event == BlkparseEvent::Issued);
  CHECK(char(w.trace.blkparse_event) == 'D');  // the blkparse action's letter
  // choice_name: a parsed value named back as the configuration spells it
  CHECK(std::string(choice_name(choices::kWorkloadTraceFit, TraceFitMode::Scale)) == "scale");
  CHECK(std::string(choice_name(choices::kAppPlacement, AppPlacement::Fdp)) == "fdp");
  for (const Choice<DataPlacement>& e : choices::kWorkloadDataplacement)
    CHECK(std::string(choice_name(choices::kWorkloadDataplacement, e.value)) == e.name);
  DataPlacement found = DataPlacement::None;
  CHECK(find_choice(choices::kWorkloadDataplacement, "fdp", &found));
  CHECK(found == DataPlacement::Fdp);
  CHECK_FALSE(find_choice(choices::kWorkloadDataplacement, "zns", &found));
  CHECK(found == DataPlacement::Fdp);  // unchanged
  CHECK_THROWS_WITH(parse_choice(choices::kWorkloadTraceFit, "squeeze", "workload.trace_fit"),
                    Contains("key 'workload.trace_fit'") && Contains("auto error wrap scale shift"));
}

TEST_CASE("choices: host.sq_priority maps to the QPRIO class", "[config][choices]") {
  for (const auto& [name, qprio] : {std::pair<const char*, int>{"urgent", 0}, {"high", 1}, {"medium", 2}, {"low", 3}}) {
    Config c;
    c.set(std::string("host.sq_priority=") + name);
    INFO(name);
    CHECK(int(read_job_params(c).at(0).sq_priority) == qprio);
  }
}

TEST_CASE("choices: stats.lifetimes and streams.internal map through their tables", "[config][choices]") {
  CHECK(lifetimes_on(LifetimeStats::On, 0));
  CHECK(lifetimes_on(LifetimeStats::All, 0));
  CHECK_FALSE(lifetimes_on(LifetimeStats::Auto, 0));
  CHECK(lifetimes_on(LifetimeStats::Auto, 2));
  CHECK_FALSE(lifetimes_on(LifetimeStats::Off, 2));
  Config c;
  for (const char* s : {"streams.count=2", "streams.assign=manual", "stats.lifetimes=all"}) c.set(s);
  StreamParams p = read_stream_params(c);
  CHECK(p.lifetimes);
  CHECK(p.lifetime_shift == 0);
  CHECK(p.gc == GcStreams::Shared);
  c.set("stats.lifetimes=on");
  c.set("streams.internal=true");
  p = read_stream_params(c);
  CHECK(p.lifetime_shift == 3);
  CHECK(p.gc == GcStreams::PerStream);
  CHECK_FALSE(p.gc_in_user);
  c.set("streams.internal=false");
  p = read_stream_params(c);
  CHECK(p.gc == GcStreams::PerStream);
  CHECK(p.gc_in_user);
  c.set("streams.gc_stream=hotcold");  // not the default, and not what streams.internal=false sets
  CHECK_THROWS_WITH(read_stream_params(c), Contains("streams.internal=false puts GC copies back in their own"));
  c.set("streams.gc_stream=shared");
  c.set("streams.internal=true");
  c.set("streams.gc_frontier=user");
  CHECK_THROWS_WITH(read_stream_params(c), Contains("streams.internal=true puts GC copies in GC frontiers"));
}
