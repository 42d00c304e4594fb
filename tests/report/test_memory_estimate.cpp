// The memory estimate sums what the configured components state of themselves (report/memory_estimate.cpp):
// the stream assignment policy's own part from its registry entry, the write counts and lifetimes from Streams,
// the flush policy's bytes per buffered unit; nothing for a component the configuration leaves out.
#include <catch2/catch.hpp>

#include <initializer_list>

#include "config/config.h"
#include "config/params.h"
#include "report/memory_estimate.h"

using namespace ssdtlm;

namespace {
MemoryEstimate estimate(std::initializer_list<const char*> sets) {
  Config c;
  for (const char* s : sets) c.set(s);
  return estimate_memory(read_params(c));
}
uint64_t part(const MemoryEstimate& e, const std::string& what) {
  for (const MemoryPart& p : e.parts)
    if (p.what == what) return p.bytes;
  return 0;
}
}  // namespace

TEST_CASE("memory estimate: the stream parts come from the configured components", "[report][memory]") {
  const MemoryEstimate plain = estimate({});
  const Params p = read_params(Config());
  const double L = double(p.geometry.logical_units);
  CHECK(part(plain, "lifetime statistics") == 0);  // stats.lifetimes=auto without streams: off
  CHECK(part(plain, "pcstream lifetimes and PC-stream table") == 0);
  CHECK(part(plain, "hot/cold write counts") == 0);

  const MemoryEstimate pc = estimate({"streams.count=3", "streams.assign=pcstream", "streams.pc_table_bytes=1048576"});
  CHECK(part(pc, "pcstream lifetimes and PC-stream table") == uint64_t(L * 12 + double(1 << 20) * 1.25));
  CHECK(part(pc, "lifetime statistics") == uint64_t(L * 0.625));  // auto with streams: one unit in 8, 5 B each
  CHECK(part(pc, "hot/cold write counts") == 0);

  const MemoryEstimate all = estimate({"streams.count=1", "streams.assign=hotcold", "stats.lifetimes=all"});
  CHECK(part(all, "hot/cold write counts") == uint64_t(L * 4));  // the policy reads the counts
  CHECK(part(all, "lifetime statistics") == uint64_t(L * 5));
  const MemoryEstimate gc = estimate({"streams.count=1", "streams.assign=manual", "streams.gc_stream=hotcold"});
  CHECK(part(gc, "hot/cold write counts") == uint64_t(L * 4));  // GC classifies by them
}

TEST_CASE("memory estimate: the flush policy states its bytes per buffered unit", "[report][memory]") {
  const Params p = read_params(Config());
  const uint64_t units = p.buffer.bytes / 4096;
  const uint64_t fifo = part(estimate({}), "write buffer"), hexa = part(estimate({"buffer.policy=hexa"}), "write buffer");
  CHECK(hexa - fifo == units * (24 - 4));
}
