// The preconditioned-drive snapshot key (config/snapshot_key.cpp): every key the preconditioning reads, by the
// schema's declaration (KeySpec::precondition); keys it never reads leave the key alone, workload keys count only
// when it overwrites with the workload, and a replayed trace counts by content.
#include <catch2/catch.hpp>

#include <string>

#include "../common/temp_dir.h"
#include "config/config.h"
#include "config/params.h"

using namespace ssdtlm;

namespace {

std::string key_of(std::initializer_list<std::string> sets) {
  Config c;
  c.set("precondition.snapshot_dir=snaps");
  for (const auto& s : sets) c.set(s);
  return read_params(c).precondition.snapshot_key;
}

}  // namespace

TEST_CASE("the snapshot key holds what the preconditioning reads and nothing else", "[snapshot][config]") {
  const std::string base = key_of({});
  REQUIRE(!base.empty());
  CHECK(base.find("geometry.channels=") != std::string::npos);
  CHECK(base.find("buffer.policy") == std::string::npos);
  // Keys the preconditioning never reads: the same key (points differing only in them share a snapshot).
  CHECK(key_of({"buffer.policy=hexa"}) == base);
  CHECK(key_of({"buffer.bytes=1G"}) == base);
  CHECK(key_of({"timing.t_prog_us=500"}) == base);
  CHECK(key_of({"precondition.threads=3"}) == base);
  CHECK(key_of({"flash.die_sched=read_first"}) == base);
  // The host's queues: the preconditioning writes the workload's requests one after another, queue-less (a study
  // sweeping the queue depth preconditions once per drive).
  CHECK(key_of({"host.queue_depth=4"}) == base);
  CHECK(key_of({"host.queues=2"}) == base);
  // Keys it reads: another key.
  CHECK(key_of({"ftl.gc_victim=fifo"}) != base);
  CHECK(key_of({"map.protected_ratio=0.5"}) != base);
  CHECK(key_of({"geometry.over_provisioning=0.1"}) != base);
  CHECK(key_of({"check.integrity=false"}) != base);
  CHECK(key_of({"precondition.drive_writes=2"}) != base);
  // Workload keys only when the preconditioning writes the workload's pattern.
  CHECK(key_of({"workload.distribution=zipf:1.2"}) != base);
  const std::string fill_only = key_of({"precondition.drive_writes=0"});
  CHECK(key_of({"precondition.drive_writes=0", "workload.distribution=zipf:1.2"}) == fill_only);
  CHECK(key_of({"precondition.drive_writes=0", "host.queue_depth=4"}) == fill_only);
  // Off: no key computed.
  Config off;
  CHECK(read_params(off).precondition.snapshot_key.empty());
}

TEST_CASE("a replayed trace enters the snapshot key by its content", "[snapshot][config]") {
  test::TempDir dir("snapkey");
  const std::string path = dir.write("t.csv", "time_ns,op,offset_bytes,bytes\n0,W,0,4096\n");
  const std::initializer_list<std::string> sets = {"workload.pattern=trace", "workload.trace_format=csv",
                                                   "workload.trace_path=" + path};
  const std::string a = key_of(sets);
  dir.write("t.csv", "time_ns,op,offset_bytes,bytes\n0,W,8192,4096\n");
  const std::string b = key_of(sets);
  CHECK(a != b);
  CHECK(a.find("trace " + path) != std::string::npos);
}
