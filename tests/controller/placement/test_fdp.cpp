// FDP placement alone (no simulation): placement identifiers and the RUH status list, the fdp stream policy
// (placed, default and invalid writes), the host-side plids decorator, and the fdp.* configuration rules.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "common/config_error.h"
#include "config/config.h"
#include "config/params.h"
#include "config/placement_params.h"
#include "controller/placement/fdp.h"
#include "controller/streams/streams.h"
#include "workload/placement/placement_workload.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("FDP placement identifiers: RG in the top RGIF bits, RUH status list RG-major", "[fdp]") {
  const FdpLayout one{1, 8};
  CHECK(one.rgif() == 0);
  CHECK(one.pid(0, 5) == 5);
  const FdpLayout four{4, 8};
  CHECK(four.rgif() == 2);
  CHECK(four.pid(3, 1) == ((3u << 14) | 1u));
  CHECK(four.pid_of_index(0) == four.pid(0, 0));
  CHECK(four.pid_of_index(9) == four.pid(1, 1));
  uint32_t s = 99;
  REQUIRE(four.stream_of(four.pid(2, 7), &s));
  CHECK(s == 2 * 8 + 7);
  CHECK_FALSE(four.stream_of(8, &s));               // handle 8 of 8
  CHECK_FALSE(FdpLayout{3, 2}.stream_of(3u << 14, &s));  // RG 3 of 3 (RGIF 2 bits)
  CHECK(FdpLayout::rg_of_die(5, 8, 2) == 1);
}

namespace {
std::vector<uint8_t> place(StreamPolicy& p, uint8_t dtype, uint16_t dspec, uint32_t units = 2) {
  std::vector<uint8_t> out(units, 0xEE);
  WriteTag t;
  t.dtype = dtype;
  t.dspec = dspec;
  p.assign(0, units, t, out.data());
  return out;
}
uint64_t counter(const StreamPolicy& p, const std::string& name) {
  for (auto& [n, v] : p.counters())
    if (n == name) return v;
  FAIL("no counter " << name);
  return 0;
}
}  // namespace

TEST_CASE("fdp policy: a write's PID picks its (RG, RUH) stream, none = handle 0, RG round robin, invalid = default, counted",
          "[fdp]") {
  StreamContext c;
  c.streams = 8;
  c.fdp_rgs = 2;
  c.fdp_ruhs = 4;
  auto p = make_stream_policy("fdp", c, "streams.assign");
  const FdpLayout l{2, 4};
  CHECK(place(*p, kDirectiveFdp, l.pid(1, 3)) == std::vector<uint8_t>{7, 7});
  CHECK(place(*p, kDirectiveFdp, l.pid(0, 2)) == std::vector<uint8_t>{2, 2});
  CHECK(place(*p, 0, 0) == std::vector<uint8_t>{0, 0});  // default placement: RG 0 ...
  CHECK(place(*p, 0, 0) == std::vector<uint8_t>{4, 4});  // ... then RG 1, handle 0
  CHECK(place(*p, kDirectiveFdp, 4) == std::vector<uint8_t>{0, 0});  // handle 4 of 4: invalid
  CHECK(place(*p, kDirectiveStreams, 3) == std::vector<uint8_t>{4, 4});  // a streams directive is no placement
  CHECK(counter(*p, "placed_commands") == 2);
  CHECK(counter(*p, "default_placement_commands") == 4);
  CHECK(counter(*p, "invalid_placement_identifier") == 1);
  p->reset_stats();
  CHECK(counter(*p, "placed_commands") == 0);
}

namespace {
class Writes : public Workload {
 public:
  bool next(IoRequest& r) override {
    r = IoRequest();
    r.op = n_ % 3 == 2 ? IoOp::Read : IoOp::Write;
    r.bytes = 4096;
    return ++n_ <= 30;
  }
  uint32_t n_ = 0;
};
std::vector<uint16_t> pids(const PlacementParams& p, uint64_t seed = 1) {
  PlacementWorkload w(std::make_unique<Writes>(), p, seed);
  std::vector<uint16_t> out;
  IoRequest r;
  while (w.next(r)) {
    if (r.op == IoOp::Read) {
      CHECK(r.dtype == 0);
      continue;
    }
    out.push_back(p.kind == DataPlacement::Fdp ? r.dspec : r.stream);
    if (p.kind == DataPlacement::Fdp) CHECK(r.dtype == kDirectiveFdp);
  }
  return out;
}
}  // namespace

TEST_CASE("plids: fio's id lists, round robin or random over them, FDP indices become the RUH status list's PIDs", "[fdp]") {
  CHECK(parse_id_list("0,1,2,3") == std::vector<uint32_t>{0, 1, 2, 3});
  CHECK(parse_id_list("0-2,6") == std::vector<uint32_t>{0, 1, 2, 6});
  CHECK(parse_id_list("").empty());
  CHECK_THROWS_WITH(parse_id_list("a"), Contains("expected a list"));
  CHECK_THROWS_WITH(parse_id_list("3-1"), Contains("backwards"));
  PlacementParams p;
  p.kind = DataPlacement::Fdp;
  p.rgs = 2;
  p.ruhs = 4;
  p.ids = {4, 5};
  const FdpLayout l{2, 4};
  std::vector<uint16_t> got = pids(p);
  REQUIRE(got.size() == 20);
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == l.pid(1, uint32_t(i % 2)));
  p.ids = {};  // every PID of the device
  got = pids(p);
  for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == l.pid_of_index(uint32_t(i % 8)));
  p.ids = {0, 1, 2, 3};
  p.random = true;
  got = pids(p);
  std::vector<int> seen(4, 0);
  for (uint16_t v : got) ++seen[v];
  CHECK(std::count(seen.begin(), seen.end(), 0) == 0);  // 20 picks of 4: each taken (fails with p ~ 1e-2.5)
  CHECK(pids(p, 1) == got);  // reproducible
  p.kind = DataPlacement::Streams;
  p.random = false;
  p.ids = {3, 5};
  got = pids(p);
  CHECK(got[0] == 3);
  CHECK(got[1] == 5);
}

namespace {
std::string params_error(std::initializer_list<std::string> sets) {
  return test::config_error_of([&] {
    Config c;
    for (auto& s : sets) c.set(s);
    read_params(c);
  });
}
}  // namespace

TEST_CASE("fdp keys are validated and errors name the key", "[fdp][config]") {
  CHECK_THAT(params_error({"fdp.enabled=true", "fdp.reclaim_groups=3"}), Contains("fdp.reclaim_groups"));  // 64 dies
  CHECK_THAT(params_error({"fdp.enabled=true", "fdp.reclaim_groups=8", "fdp.ruhs=16"}), Contains("fdp.ruhs"));
  CHECK_THAT(params_error({"fdp.enabled=true", "fdp.ru_bytes=4096"}), Contains("fdp.ru_bytes"));
  CHECK_THAT(params_error({"fdp.enabled=true", "fdp.reclaim_groups=2"}), Contains("precondition"));
  // Reclaim units are the GC unit: whole RUs per die, no block-level wear levelling, no translation pages on flash.
  CHECK_THAT(params_error({"fdp.enabled=true", "ftl.wear_level_spread=8"}), Contains("ftl.wear_level_spread"));
  CHECK_THAT(params_error({"fdp.enabled=true", "ftl.mapping=dftl"}), Contains("ftl.mapping"));
  CHECK_THAT(params_error({"fdp.enabled=true", "reliability.model=rber", "reliability.reclaim_reads=1000"}),
             Contains("reliability.reclaim_reads"));
  CHECK_THAT(params_error({"fdp.enabled=true", "ftl.gc_min_invalid=0.1", "ftl.gc_urgent_free_blocks=1"}),
             Contains("ftl.gc_urgent_free_blocks"));
  CHECK_THAT(params_error({"fdp.enabled=true", "streams.count=2", "streams.assign=manual"}), Contains("streams.count"));
  CHECK_THAT(params_error({"fdp.ruh_type=isolated"}), Contains("fdp.ruh_type"));
  CHECK_THAT(params_error({"workload.dataplacement=fdp"}), Contains("fdp.enabled"));
  CHECK_THAT(params_error({"fdp.enabled=true", "workload.dataplacement=fdp", "workload.plids=8"}), Contains("workload.plids"));
  CHECK_THAT(params_error({"workload.dataplacement=streams"}), Contains("workload.plids"));
  CHECK_THAT(params_error({"workload.dataplacement=streams", "workload.plids=1"}), Contains("streams.assign=manual"));
  CHECK_THAT(params_error({"workload.plids=1"}), Contains("workload.dataplacement"));
  // What FDP sets up: a stream per (RG, RUH), GC streams by RUH type.
  Config c;
  c.set("fdp.enabled=true");
  c.set("fdp.ruhs=4");
  c.set("fdp.ruh_type=persistently_isolated");
  Params p = read_params(c);
  CHECK(p.streams.assign == "fdp");
  CHECK(p.streams.user_streams() == 4);
  CHECK(p.streams.gc == GcStreams::PerStream);
  CHECK_FALSE(p.streams.gc_in_user);
  const uint64_t row = uint64_t(p.geometry.units_per_block) * 4096 * p.geometry.dies;
  CHECK(p.streams.fdp_ru_bytes == row);
  CHECK(p.gc.fdp);
  CHECK(fdp_ru_blocks_per_die(p.fdp, p.geometry) == 1);
  c.set("fdp.ruh_type=initially_isolated");
  CHECK(read_params(c).streams.gc == GcStreams::Shared);
  Config one;  // one RG and one RUH: FDP's reclaim on a single stream
  one.set("fdp.enabled=true");
  one.set("fdp.ruhs=1");
  CHECK(read_params(one).streams.user_streams() == 1);
  // An RU of k blocks on each die: k must divide the blocks of a die (RUs are whole).
  c.set("fdp.ru_bytes=" + std::to_string(2 * row));
  CHECK(fdp_ru_blocks_per_die(read_params(c).fdp, p.geometry) == 2);
  const uint32_t odd = p.geometry.blocks_per_die % 3 ? 3 : 7;
  REQUIRE(p.geometry.blocks_per_die % odd != 0);
  CHECK_THAT(params_error({"fdp.enabled=true", "fdp.ru_bytes=" + std::to_string(odd * row)}), Contains("fdp.ru_bytes"));
}
