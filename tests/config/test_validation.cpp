// The cross-key rules (config/validation.h): each refuses its combination with a ConfigError naming the
// keys involved, through read_params as a run meets them.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "config/params.h"
#include "platform/platform_run.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
// read_params' error for the generic platform's defaults with `sets`, or "" when it accepts them.
std::string error_with(std::initializer_list<std::string> sets, const std::string& json = "") {
  Config c = platform_config(generic_platform_info());
  if (!json.empty()) c.merge_text(json, "test.json");
  try {
    for (auto& s : sets) c.set(s);  // (a key with choices is refused where it is set)
    read_params(c);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("validation: the defaults pass", "[config][validation]") { CHECK(error_with({}) == ""); }

TEST_CASE("validation: geometry", "[config][validation]") {
  CHECK_THAT(error_with({"geometry.page_bytes=6144"}), Contains("geometry.page_bytes") && Contains("multiple"));
  CHECK_THAT(error_with({"geometry.planes_per_die=8", "geometry.page_bytes=32768"}),
             Contains("geometry.planes_per_die") && Contains("geometry.page_bytes"));
  CHECK_THAT(error_with({"geometry.channels=256", "geometry.dies_per_channel=64", "geometry.blocks_per_plane=65536"}),
             Contains("geometry") && Contains("32-bit physical address space"));
  CHECK_THAT(error_with({"geometry.over_provisioning=0.001"}),
             Contains("geometry.over_provisioning") && Contains("ftl.gc_free_blocks"));
}

TEST_CASE("validation: page types against flash.cell", "[config][validation]") {
  CHECK_THAT(error_with({"timing.page_read_us=50"}), Contains("timing.page_read_us") && Contains("flash.cell=slc"));
  CHECK_THAT(error_with({"timing.page_prog_us=500"}), Contains("timing.page_prog_us") && Contains("flash.cell=slc"));
  CHECK_THAT(error_with({"flash.one_shot=true"}), Contains("flash.one_shot") && Contains("flash.cell=slc"));
  CHECK_THAT(error_with({"flash.cell=tlc", "timing.page_read_us=50,70"}),
             Contains("timing.page_read_us") && Contains("flash.cell=tlc"));
}

TEST_CASE("validation: power loss", "[config][validation]") {
  CHECK_THAT(error_with({"check.integrity=true", "fault.power_loss_count=2"}),
             Contains("fault.power_loss_window_ms") && Contains("fault.power_loss_count"));
  CHECK_THAT(error_with({"check.integrity=false", "fault.power_loss_at_ms=5"}),
             Contains("fault.power_loss_at_ms") && Contains("check.integrity=true"));
  CHECK_THAT(error_with({"check.integrity=true", "fault.power_loss_at_ms=5,x"}), Contains("fault.power_loss_at_ms"));
}

TEST_CASE("validation: power budget, power states and thermal thresholds", "[config][validation][power]") {
  // The generic drive's floor is 1.45 W and a die's operation 82.5 mW: a budget must hold both.
  CHECK_THAT(error_with({"power.budget_w=1.5"}), Contains("power.budget_w") && Contains("idle floor"));
  CHECK(error_with({"power.budget_w=1.54"}) == "");
  CHECK_THAT(error_with({"power.ps_entry_us=2000"}), Contains("power.ps_entry_us") && Contains("one entry latency per state"));
  CHECK_THAT(error_with({"power.apst_idle_ms=100,50"}), Contains("power.apst_idle_ms") && Contains("later"));
  CHECK_THAT(error_with({"power.ps_max_w=0.04,x"}), Contains("power.ps_max_w") && Contains("non-negative numbers"));
  CHECK_THAT(error_with({"power.apst=true", "power.ps_max_w=", "power.ps_entry_us=", "power.ps_exit_us="}),
             Contains("power.ps_max_w") && Contains("non-operational"));
  CHECK_THAT(error_with({"thermal.enabled=true", "thermal.tmt1_c=85"}), Contains("thermal.tmt1_c") && Contains("thermal.tmt2_c"));
  CHECK_THAT(error_with({"thermal.enabled=true", "thermal.tmt2_budget_w=5"}), Contains("thermal.tmt2_budget_w"));
  CHECK_THAT(error_with({"thermal.enabled=true", "thermal.tmt2_budget_w=1.5"}),
             Contains("thermal.tmt2_budget_w") && Contains("idle floor"));
  CHECK(error_with({"thermal.enabled=true"}) == "");
}

TEST_CASE("validation: streams", "[config][validation]") {
  CHECK_THAT(error_with({"streams.autostream_chunk_bytes=5000"}), Contains("streams.autostream_chunk_bytes"));
  CHECK_THAT(error_with({"streams.internal=true", "streams.gc_frontier=user"}),
             Contains("streams.internal") && Contains("streams.gc_frontier=user"));
  CHECK_THAT(error_with({"streams.internal=false", "streams.gc_stream=hotcold"}),
             Contains("streams.internal") && Contains("streams.gc_stream=hotcold"));
  CHECK_THAT(error_with({"streams.internal=true", "streams.count=1", "streams.assign=manual", "ftl.gc_unit=superblock"}),
             Contains("streams.internal") && Contains("ftl.gc_unit=superblock"));
  CHECK_THAT(error_with({"streams.assign=bogus"}), Contains("streams.assign") && Contains("bogus"));
  CHECK_THAT(error_with({"streams.assign=manual"}), Contains("streams.count") && Contains("streams.assign=manual"));
  CHECK_THAT(error_with({"streams.gc_stream=hotcold"}), Contains("streams.count") && Contains("streams.gc_stream=hotcold"));
  CHECK_THAT(error_with({"streams.count=1", "streams.assign=manual", "buffer.policy=hexa"}),
             Contains("buffer.policy") && Contains("streams.count"));
  CHECK_THAT(error_with({"streams.count=2", "streams.assign=autostream", "streams.pcstream_clock=time"}),
             Contains("streams.pcstream_clock") && Contains("streams.assign=autostream"));
  CHECK(error_with({"streams.count=2", "streams.assign=pcstream", "streams.pcstream_clock=time"}) == "");
  CHECK_THAT(error_with({"streams.pcstream_clock=hours"}), Contains("streams.pcstream_clock"));
}

TEST_CASE("validation: garbage collection", "[config][validation]") {
  CHECK_THAT(error_with({"ftl.gc_pacing=gc_first"}), Contains("ftl.gc_pacing") && Contains("ftl.gc_unit=superblock"));
  CHECK_THAT(error_with({"ftl.write_pointer=striped"}), Contains("ftl.write_pointer") && Contains("ftl.gc_unit=superblock"));
  CHECK_THAT(error_with({"ftl.gc_min_invalid=0.1", "ftl.gc_urgent_free_blocks=5"}),
             Contains("ftl.gc_urgent_free_blocks") && Contains("ftl.gc_free_blocks"));
  CHECK_THAT(error_with({"ftl.gc_unit=superblock", "streams.count=2", "streams.assign=manual",
                         "streams.gc_stream=per_stream", "streams.gc_frontier=user"}),
             Contains("ftl.gc_free_blocks") && Contains("superblock GC needs a free line"));
  CHECK_THAT(error_with({"ftl.gc_unit=superblock", "ftl.gc_free_blocks=4", "streams.count=2", "streams.assign=manual",
                         "streams.gc_stream=per_stream", "streams.gc_frontier=own"}),
             Contains("streams.gc_stream") && Contains("streams.gc_frontier=user"));
  CHECK_THAT(error_with({"ftl.gc_unit=superblock", "ftl.mapping=dftl"}), Contains("ftl.gc_unit") && Contains("ftl.mapping"));
  CHECK_THAT(error_with({"ftl.gc_victim=bogus"}), Contains("ftl.gc_victim") && Contains("greedy"));
}

TEST_CASE("validation: map cache", "[config][validation]") {
  CHECK_THAT(error_with({"map.entry_bytes=3"}), Contains("map.segment_bytes") && Contains("map.entry_bytes"));
  CHECK_THAT(error_with({"ftl.mapping=dftl", "map.segment_bytes=16384"}),
             Contains("map.segment_bytes") && Contains("one flash page"));
  CHECK_THAT(error_with({"map.cache_bytes=4096"}), Contains("map.cache_bytes") && Contains("one segment"));
  CHECK_THAT(error_with({"map.clean_fraction=0"}), Contains("map.clean_fraction"));
  CHECK_THAT(error_with({"ftl.mapping=ptsd", "map.cache_bytes=8192"}),
             Contains("map.cache_bytes") && Contains("map.clean_fraction"));
}

TEST_CASE("validation: write buffer", "[config][validation]") {
  CHECK_THAT(error_with({"buffer.low_watermark=0.95"}), Contains("buffer.low_watermark") && Contains("buffer.high_watermark"));
  CHECK_THAT(error_with({"buffer.bytes=4096"}), Contains("buffer.bytes") && Contains("workload.block_bytes"));
  CHECK_THAT(error_with({"buffer.policy=bogus"}), Contains("buffer.policy") && Contains("fifo"));
}

TEST_CASE("validation: workloads", "[config][validation]") {
  CHECK_THAT(error_with({"workload.stream_hint=zone"}), Contains("workload.stream_hint") && Contains("streams.assign=manual"));
  CHECK_THAT(error_with({"streams.count=1", "streams.assign=manual", "workload.stream_hint=zone", "workload.pattern=app",
                         "precondition.fill=false"}),
             Contains("workload.stream_hint") && Contains("workload.pattern=app"));
  CHECK_THAT(error_with({"streams.count=1", "streams.assign=manual", "workload.stream_hint=zone", "workload.pattern=trace"}),
             Contains("workload.stream_hint") && Contains("trace"));
  CHECK_THAT(error_with({"streams.count=1", "streams.assign=manual", "workload.stream_hint=zone"}),
             Contains("workload.stream_hint") && Contains("zoned:"));
  CHECK_THAT(error_with({"workload.pattern=trace"}), Contains("workload.trace_path") && Contains("workload.pattern=trace"));
  CHECK_THAT(error_with({"workload.address_offset=1T"}), Contains("workload.address_offset"));
  CHECK_THAT(error_with({"workload.address_offset=4096", "workload.address_range=1T"}),
             Contains("workload.address_offset") && Contains("workload.address_range"));
  CHECK_THAT(error_with({"workload.io_count=0"}),
             Contains("workload.io_count") && Contains("workload.io_bytes") && Contains("workload.runtime_ms"));
  CHECK_THAT(error_with({"workload.read_fraction=0.7", "workload.trim_fraction=0.5"}),
             Contains("workload.read_fraction") && Contains("workload.trim_fraction"));
}

TEST_CASE("validation: app workloads and jobs", "[config][validation]") {
  CHECK_THAT(error_with({"workload.pattern=app"}), Contains("precondition.fill") && Contains("workload.app.trim"));
  CHECK_THAT(error_with({"workload.pattern=app", "precondition.fill=false", "workload.io_count=0", "workload.app=lsm"}),
             Contains("workload.io_count") && Contains("workload.app=lsm"));
  CHECK_THAT(error_with({"workload.pattern=app", "precondition.fill=false", "workload.app=mixed2", "workload.app.gcc_gap_ms=1000"}),
             Contains("workload.app.gcc_gap_ms") && Contains("workload.app=mixed2"));
  CHECK(error_with({"workload.pattern=app", "precondition.fill=false", "workload.app=gcc", "workload.app.gcc_gap_ms=1000"}) == "");
  CHECK_THAT(error_with({"workload.app.gcc_gap_ms=-1"}), Contains("workload.app.gcc_gap_ms"));
  CHECK_THAT(error_with({"workload.pattern=app", "precondition.fill=false", "workload.app.max_io_bytes=16M"}),
             Contains("workload.app.max_io_bytes") && Contains("buffer.bytes"));
  CHECK_THAT(error_with({"precondition.fill=false"}, R"({"jobs": [{"pattern": "app"}, {"read_fraction": 0.5}]})"),
             Contains("jobs[0].pattern"));
  CHECK(error_with({"precondition.fill=false", "precondition.drive_writes=0"},
                   R"({"jobs": [{"pattern": "app"}, {"read_fraction": 0.5}]})") == "");
}

TEST_CASE("validation: superblock GC on several dies keeps a free line per writing frontier and one more (issue 30)",
          "[config][validation][superblock]") {
  const std::initializer_list<std::string> small = {"geometry.channels=2", "geometry.dies_per_channel=2",
                                                    "geometry.blocks_per_plane=64", "geometry.pages_per_block=64",
                                                    "buffer.bytes=1M", "ftl.gc_unit=superblock"};
  Config c = platform_config(generic_platform_info());
  for (auto& s : small) c.set(s);
  auto error = [&](std::initializer_list<std::string> more) {
    Config d = c;
    for (auto& s : more) d.set(s);
    try {
      read_params(d);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // It used to stop mid-run with exit 3: "superblock GC collected 129 lines without room for host data".
  CHECK_THAT(error({}), Contains("'ftl.gc_free_blocks', 'ftl.gc_unit', 'streams.count'") &&
                           Contains("on 4 dies") && Contains("at least 3 (lines), got 2"));
  CHECK(error({"ftl.gc_free_blocks=3"}).empty());
  CHECK_THAT(error({"ftl.gc_min_invalid=0.1", "ftl.gc_free_blocks=3"}), Contains("ftl.gc_urgent_free_blocks"));
  // Two user streams and the shared GC frontier: three frontiers, four lines.
  CHECK_THAT(error({"ftl.gc_free_blocks=3", "streams.count=1", "streams.assign=manual", "geometry.over_provisioning=0.5"}),
             Contains("at least 4 (lines), got 3"));
  CHECK(error({"ftl.gc_free_blocks=3", "geometry.channels=1", "geometry.dies_per_channel=1"}).empty());
  CHECK(error({"geometry.channels=1", "geometry.dies_per_channel=1"}).empty());  // one die: a line is a block
}

TEST_CASE("validation: workload.block_align is a multiple of a sector (issue 30)", "[config][validation]") {
  CHECK_THAT(error_with({"workload.block_align=3"}), Contains("workload.block_align") && Contains("multiple of 512"));
  CHECK(error_with({"workload.block_align=512"}).empty());
}

TEST_CASE("validation: slc and reliability", "[config][validation]") {
  CHECK_THAT(error_with({"slc.mode=dynamic"}), Contains("slc.mode") && Contains("flash.cell"));
  CHECK_THAT(error_with({"slc.mode=static", "flash.cell=tlc", "geometry.pages_per_block=255"}),
             Contains("slc.static_bytes"));
  CHECK(error_with({"slc.mode=dynamic", "flash.cell=tlc", "geometry.pages_per_block=255"}) == "");
  CHECK_THAT(error_with({"slc.mode=dynamic", "flash.cell=tlc", "ftl.gc_unit=superblock", "ftl.gc_free_blocks=3"}),
             Contains("slc.mode") && Contains("superblock"));
  CHECK_THAT(error_with({"reliability.model=rber", "reliability.rber_params=1,2,3"}), Contains("reliability.rber_params"));
  CHECK_THAT(error_with({"reliability.soft_rber=1e-3,2e-2"}), Contains("reliability.soft_rber") && Contains("increasing"));
  CHECK_THAT(error_with({"reliability.soft_reads=1,2,3"}), Contains("reliability.soft_reads"));
}

TEST_CASE("validation: a zoned namespace takes its zones' blocks from their capacity, not from the GC spare (issue 44)",
          "[config][validation][zns]") {
  // The 16 GiB generic drive (64 dies of 160 blocks, 32 spare): 32 open zones used to be refused ("leaves 32 spare
  // blocks per die; garbage collection needs at least 38"): an open zone's block is its capacity's, not spare.
  CHECK(error_with({"zns.enabled=true", "zns.max_open=32", "zns.max_active=32"}) == "");
  CHECK(error_with({"zns.enabled=true", "zns.max_open=63", "zns.max_active=63"}) == "");
  // Zones over one or two of the 64 dies (2 and 4 MiB), as many active zones as the drive has (a closed zone
  // keeps its open blocks, not one of the 64 write streams).
  CHECK(error_with({"zns.enabled=true", "zns.zone_dies=1"}) == "");
  CHECK(error_with({"zns.enabled=true", "zns.zone_dies=2", "zns.max_active=1000"}) == "");
  CHECK(error_with({"zns.enabled=true", "zns.zone_dies=1", "zns.max_active=8192"}) == "");  // every zone
  CHECK(error_with({"zns.enabled=true", "zns.zone_dies=1", "zns.max_active=0"}) == "");     // no limit
  // What stays refused, naming the key: more active zones than zones, open zones beyond the write streams, zones
  // whose capacity fills more blocks than the die has.
  CHECK_THAT(error_with({"zns.enabled=true", "zns.zone_dies=1", "zns.max_active=8193"}),
             Contains("zns.max_active") && Contains("8192 zones"));
  CHECK_THAT(error_with({"zns.enabled=true", "zns.max_open=64", "zns.max_active=64"}), Contains("zns.max_open") && Contains("63"));
  CHECK_THAT(error_with({"zns.enabled=true", "zns.max_open=0"}), Contains("zns.max_open"));
  CHECK_THAT(error_with({"zns.enabled=true", "zns.max_open=20"}), Contains("zns.max_open") && Contains("zns.max_active"));
  // Zones of 1.5 blocks per die fill 2 blocks per die each: 85 zones x 2 > 160 blocks.
  CHECK_THAT(error_with({"zns.enabled=true", "zns.zone_bytes=201326592"}), Contains("zns.zone_capacity_bytes") && Contains("160"));
}

TEST_CASE("validation: zone descriptor extensions and the register interface's zone size", "[config][validation][zns]") {
  CHECK(error_with({"zns.enabled=true", "nvme.interface=register", "zns.zone_ext_bytes=128"}) == "");
  CHECK_THAT(error_with({"zns.enabled=true", "nvme.interface=register", "zns.zone_ext_bytes=100"}),
             Contains("zns.zone_ext_bytes") && Contains("multiple of 64"));
  CHECK_THAT(error_with({"zns.enabled=true", "zns.zone_ext_bytes=128"}),
             Contains("zns.zone_ext_bytes") && Contains("nvme.interface=register"));
  CHECK_THAT(error_with({"zns.zone_ext_bytes=16384"}), Contains("zns.zone_ext_bytes"));  // beyond 255 x 64
  // The driver takes a zoned namespace as Linux does: a zone size of 3 blocks on 2 of the 64 dies (6 MiB, a block
  // per die writable) is refused before simulating with the register interface; the command-level front end takes it.
  CHECK(error_with({"zns.enabled=true", "zns.zone_dies=2", "zns.zone_bytes=6291456", "zns.zone_capacity_bytes=4194304",
                    "zns.max_active=100"}) == "");
  CHECK_THAT(error_with({"zns.enabled=true", "zns.zone_dies=2", "zns.zone_bytes=6291456", "zns.zone_capacity_bytes=4194304",
                         "zns.max_active=100", "nvme.interface=register"}),
             Contains("zns.zone_bytes") && Contains("power of two") && Contains("6 MiB"));
}

TEST_CASE("validation: slc.static_bytes beyond what the drive can give is refused, never truncated (issue 44)",
          "[config][validation][slc]") {
  // One QLC die of 64 blocks of 8 pages of 4 KiB: an SLC block holds 2 pages, 8 KiB. 1 PiB is 2^37 such blocks,
  // which a 32-bit count truncated to 0: no cache at all, without a word.
  const std::initializer_list<std::string> small = {"geometry.channels=1", "geometry.dies_per_channel=1",
                                                    "geometry.pages_per_block=8", "geometry.page_bytes=4096",
                                                    "geometry.blocks_per_plane=64", "buffer.bytes=64K",
                                                    "flash.cell=qlc", "slc.mode=static"};
  auto with = [&](const std::string& bytes) {
    std::vector<std::string> sets(small);
    sets.push_back("slc.static_bytes=" + bytes);
    Config c = platform_config(generic_platform_info());
    for (auto& s : sets) c.set(s);
    try {
      read_params(c);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  // 12 spare blocks per die, 5 of them for GC and the open block: 5 SLC blocks and 2 QLC blocks to fold them.
  for (const char* bytes : {"1PiB", "32GiB", "64MiB", "48K"})  // 2^37, 2^22, 2^13, 6 SLC blocks
    CHECK_THAT(with(bytes), Contains("key 'slc.static_bytes'") && Contains("at most 40 KiB"));
  CHECK(with("40K") == "");
}

TEST_CASE("validation: pacing that needs more than 2^64 ps of simulated time is refused before the run (issue 44)",
          "[config][validation][workload]") {
  // Each used to simulate until time ran out and stop with exit 3; SystemC's time ends at 2^64 ps (213.5 days).
  const auto refused = [](const std::string& error, const std::string& key) {
    CHECK_THAT(error, Contains("key '" + key + "'") && Contains("2^64 ps"));
  };
  refused(error_with({"workload.thinktime_us=1e12"}), "workload.thinktime_us");  // 10^6 s per I/O
  refused(error_with({"workload.rate_iops=1e-9"}), "workload.rate_iops");
  refused(error_with({"workload.rate_mbps=1e-9"}), "workload.rate_mbps");
  refused(error_with({"workload.start_delay_ms=1e12"}), "workload.start_delay_ms");
  refused(error_with({"workload.runtime_ms=1e12", "workload.io_count=0"}), "workload.runtime_ms");
  // 262144 I/Os of 4 KiB 100 s apart (the count from io_bytes): 2.6e7 s.
  refused(error_with({"workload.thinktime_us=1e8", "workload.io_count=0", "workload.io_bytes=1G"}), "workload.thinktime_us");
  // Within the limit: the last I/O's think time is never waited for, and a run time ends a slow job.
  CHECK(error_with({"workload.thinktime_us=1e12", "workload.io_count=1"}).empty());
  CHECK(error_with({"workload.thinktime_us=1e12", "workload.runtime_ms=1000"}).empty());
  CHECK(error_with({"workload.rate_iops=1e-3", "workload.io_count=1000"}).empty());  // 10^6 s
  CHECK(error_with({"workload.start_delay_ms=1e10"}).empty());  // 10^7 s
  // A job of a list is named by its place.
  refused(error_with({}, R"({"jobs": [{"name": "a"}, {"name": "b", "thinktime_us": 1e12}]})"), "jobs[1].thinktime_us");
}

TEST_CASE("sim.converge keys: only with sim.converge on, metrics named", "[config][converge]") {
  CHECK_THAT(error_with({"sim.converge_rel_ci=0.05"}), Contains("sim.converge_rel_ci") && Contains("sim.converge=report or stop"));
  CHECK_THAT(error_with({"sim.converge_metrics=iops"}), Contains("sim.converge_metrics") && Contains("sim.converge is off"));
  CHECK_THAT(error_with({"sim.converge=stop", "sim.converge_metrics=iops,tail"}), Contains("unknown metric 'tail'"));
  CHECK_THAT(error_with({"sim.converge=stop", "sim.converge_metrics=iops,"}), Contains("unknown metric ''"));
  CHECK_THAT(error_with({"sim.converge=maybe"}), Contains("sim.converge"));
  CHECK(error_with({"sim.converge=stop", "sim.converge_metrics=latency_p99", "sim.converge_rel_ci=0.05"}).empty());
}

TEST_CASE("validation: NVMe arbitration keys need the register interface", "[config][validation]") {
  CHECK_THAT(error_with({"nvme.arbitration=wrr"}), Contains("nvme.arbitration") && Contains("nvme.interface=register"));
  CHECK_THAT(error_with({"nvme.max_commands=8"}), Contains("nvme.max_commands"));
  CHECK_THAT(error_with({"host.sq_priority=urgent"}), Contains("host.sq_priority"));
  CHECK_THAT(error_with({}, R"({"jobs": [{"queues": 1}, {"queues": 1, "sq_priority": "low"}]})"),
             Contains("jobs[1].sq_priority"));
  CHECK_THAT(error_with({"nvme.interface=register", "nvme.wrr_high_weight=4"}),
             Contains("nvme.wrr_high_weight") && Contains("nvme.arbitration=wrr"));
  CHECK_THAT(error_with({"nvme.interface=register", "nvme.arbitration_burst=3"}), Contains("nvme.arbitration_burst"));
  CHECK(error_with({"nvme.interface=register", "nvme.arbitration=wrr", "nvme.wrr_high_weight=4",
                    "nvme.arbitration_burst=0", "nvme.max_commands=8", "host.sq_priority=urgent"}) == "");
}
