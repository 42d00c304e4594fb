// Stream assignment policies on hand-built write sequences: manual clamping, the hot/cold threshold
// boundary, AutoStream promotion, demotion, expiry and decay, and the Streams object's bookkeeping.
#include <catch2/catch.hpp>

#include <vector>

#include "config/config.h"
#include "config/params.h"
#include "controller/streams/autostream.h"
#include "controller/streams/streams.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

std::vector<uint8_t> assign(StreamPolicy& p, uint32_t lpn, uint32_t units, uint32_t hint) {
  std::vector<uint8_t> out(units, 0xEE);
  p.assign(lpn, units, WriteTag{hint, 0, 0, 0}, out.data());
  return out;
}

std::string error_of(const Config& c) { return test::config_error_of([&] { read_stream_params(c); }); }

}  // namespace

TEST_CASE("single stream: every unit to stream 0", "[streams]") {
  StreamContext ctx;
  ctx.streams = 4;
  auto p = make_stream_policy("single", ctx, "streams.assign");
  CHECK(assign(*p, 10, 3, 2) == std::vector<uint8_t>{0, 0, 0});
}

TEST_CASE("manual streams: the host's id, clamped to the highest stream", "[streams]") {
  StreamContext ctx;
  ctx.streams = 3;  // streams.count = 2
  auto p = make_stream_policy("manual", ctx, "streams.assign");
  CHECK(assign(*p, 0, 2, 0) == std::vector<uint8_t>{0, 0});  // no directive: the default stream
  CHECK(assign(*p, 0, 2, 1) == std::vector<uint8_t>{1, 1});
  CHECK(assign(*p, 0, 2, 2) == std::vector<uint8_t>{2, 2});
  CHECK(assign(*p, 0, 2, 3) == std::vector<uint8_t>{2, 2});  // beyond streams.count: clamped
  CHECK(assign(*p, 0, 1, 65535) == std::vector<uint8_t>{2});
}

TEST_CASE("hot/cold classification: a count above the threshold is hot", "[streams]") {
  // Two streams (seed 004): cold up to T, hot above.
  CHECK(hotcold_stream(0, 10, 2) == 0);
  CHECK(hotcold_stream(10, 10, 2) == 0);
  CHECK(hotcold_stream(11, 10, 2) == 1);
  CHECK(hotcold_stream(1000000, 10, 2) == 1);
  // Threshold 0: every written LPN is hot (no separation with two streams).
  CHECK(hotcold_stream(1, 0, 2) == 1);
  // More streams: hot levels by powers of two of the count over T + 1, the last stream takes the rest.
  CHECK(hotcold_stream(10, 10, 4) == 0);
  CHECK(hotcold_stream(11, 10, 4) == 1);
  CHECK(hotcold_stream(21, 10, 4) == 1);
  CHECK(hotcold_stream(22, 10, 4) == 2);
  CHECK(hotcold_stream(43, 10, 4) == 2);
  CHECK(hotcold_stream(44, 10, 4) == 3);
  CHECK(hotcold_stream(4000000000u, 10, 4) == 3);
  CHECK(hotcold_stream(5, 10, 1) == 0);  // one stream: nothing to separate
}

TEST_CASE("hotcold policy classifies each unit by its LPN's write count, this write included", "[streams]") {
  StreamParams sp;
  sp.count = 1;
  sp.assign = "hotcold";
  sp.hot_threshold = 2;
  Streams s(sp, 64);
  uint8_t out[4];
  s.assign(5, 1, WriteTag(), out);  // count 1
  CHECK(out[0] == 0);
  s.assign(5, 1, WriteTag(), out);  // count 2 == T: still cold
  CHECK(out[0] == 0);
  s.assign(5, 1, WriteTag(), out);  // count 3 > T: hot
  CHECK(out[0] == 1);
  // A multi-unit write: units classified one by one.
  s.assign(4, 3, WriteTag(), out);  // counts 1, 4, 1
  CHECK(out[0] == 0);
  CHECK(out[1] == 1);
  CHECK(out[2] == 0);
  CHECK((*s.counts())[5] == 4);
  CHECK(s.stats().writes[0] == 4);
  CHECK(s.stats().writes[1] == 2);
  // GC classification uses the count as it stands (no write is added).
  sp.gc = GcStreams::HotCold;
  Streams g(sp, 64);
  g.assign(9, 1, WriteTag(), out);
  g.assign(9, 1, WriteTag(), out);
  g.assign(9, 1, WriteTag(), out);
  CHECK(g.gc_data_stream(9, 0) == 1);
  CHECK(g.gc_data_stream(8, 1) == 0);
  CHECK(g.gc_stream_of(1) == 1);
}

TEST_CASE("GC streams: shared, per stream, from the out-of-band stream", "[streams]") {
  StreamParams sp;
  sp.count = 3;
  sp.assign = "manual";
  Streams shared(sp, 16);
  CHECK(shared.gc_streams() == 1);
  CHECK(shared.gc_data_stream(3, 2) == 2);  // the data keeps its stream...
  CHECK(shared.gc_stream_of(2) == 0);       // ...in the one GC frontier
  sp.gc = GcStreams::PerStream;
  Streams per(sp, 16);
  CHECK(per.gc_streams() == 4);
  CHECK(per.gc_stream_of(2) == 2);
  CHECK(per.counts() == nullptr);  // nothing classifies by count
}

TEST_CASE("AutoStream promotes a chunk by log2 of its update count", "[streams][autostream]") {
  AutoStream a(4, 64 * 256, 256);  // 4 queues, 64 chunks of 1 MiB
  std::vector<uint32_t> got;
  for (int i = 0; i < 9; ++i) got.push_back(a.write(7));
  // counts 1..9: queue floor(log2(count)), the last queue (3) takes counts >= 8.
  CHECK(got == std::vector<uint32_t>{0, 1, 1, 2, 2, 2, 2, 3, 3});
  CHECK(a.count_of(7) == 9);
  CHECK(a.queue_of(7) == 3);
  // A command's units follow the chunk of its first unit; the chunk is lpn / chunk units.
  uint8_t out[3];
  a.assign(7 * 256 + 5, 3, WriteTag(), out);
  CHECK(out[0] == 3);
  CHECK(out[2] == 3);
  a.assign(6 * 256, 1, WriteTag(), out);
  CHECK(out[0] == 0);
  CHECK(a.count_of(6) == 1);
}

TEST_CASE("AutoStream lifetime: the write interval of the hottest chunk", "[streams][autostream]") {
  AutoStream a(4, 16 * 256, 256);
  a.write(0);  // t1: count 1, first chunk over 0 -> lifetime 1 - 0
  a.write(1);  // t2
  a.write(2);  // t3
  a.write(0);  // t4: count 2 > 1: the hottest; its interval 4 - 1 = 3
  CHECK(a.lifetime() == 3);
  CHECK(a.expiry_of(0) == 4 + 3);
  a.write(0);  // t5: count 3, interval 1
  CHECK(a.lifetime() == 1);
  a.write(1);  // t6: count 2 does not exceed 3: the lifetime stays
  CHECK(a.lifetime() == 1);
}

TEST_CASE("AutoStream demotes an expired chunk one queue at a time and halves its count", "[streams][autostream]") {
  AutoStream a(4, 64 * 256, 256);
  for (int i = 0; i < 4; ++i) a.write(3);  // t1..t4: count 4 -> queue 2; lifetime 1 (intervals of 1)
  REQUIRE(a.queue_of(3) == 2);
  REQUIRE(a.lifetime() == 1);
  REQUIRE(a.expiry_of(3) == 5);
  // Expiry is strict: at t5 (== expiry) chunk 3 stays; at t6 it is demoted to queue 1, count 4 -> 2.
  a.write(10);  // t5
  CHECK(a.queue_of(3) == 2);
  a.write(11);  // t6
  CHECK(a.queue_of(3) == 1);
  CHECK(a.count_of(3) == 2);
  CHECK(a.expiry_of(3) == 6 + 1);
  CHECK(a.demotions() == 1);
  a.write(12);  // t7 == its new expiry: stays
  CHECK(a.queue_of(3) == 1);
  a.write(13);  // t8: demoted to queue 0, count 1
  CHECK(a.queue_of(3) == 0);
  CHECK(a.count_of(3) == 1);
  // Back at the bottom, its next write counts 2: queue 1, not its old queue 2 (the count decayed).
  CHECK(a.write(3) == 1);
  CHECK(a.count_of(3) == 2);
}

TEST_CASE("AutoStream keeps a chunk written within its lifetime and demotes only queue heads", "[streams][autostream]") {
  AutoStream a(3, 64 * 256, 256);
  // Two chunks alternate: each is written every 2 ticks, the lifetime is 2, neither expires.
  for (int i = 0; i < 20; ++i) {
    a.write(1);
    a.write(2);
  }
  CHECK(a.queue_of(1) == 2);
  CHECK(a.queue_of(2) == 2);
  CHECK(a.demotions() == 0);
  // Chunk 1 stops; chunk 2 goes on. Chunk 1 (the least recent of queue 2) expires and drops a queue per
  // lifetime's worth of writes until it reaches queue 0.
  for (int i = 0; i < 10; ++i) a.write(2);
  CHECK(a.queue_of(2) == 2);
  CHECK(a.queue_of(1) == 0);
  CHECK(a.demotions() == 2);
}

TEST_CASE("AutoStream with a count clamped in the last queue demotes to the top of the next", "[streams][autostream]") {
  AutoStream a(3, 8 * 256, 256);  // queues 0..2; queue 2 holds counts >= 4
  for (int i = 0; i < 100; ++i) a.write(0);  // count 100, lifetime 1
  a.write(1);
  a.write(1);  // t102: chunk 0 expired at 101 < 102: demoted to queue 1 with count min(50, 3) = 3
  CHECK(a.queue_of(0) == 1);
  CHECK(a.count_of(0) == 3);
  CHECK(a.write(0) == 2);  // count 4: back in queue 2
}

TEST_CASE("stream keys are checked together", "[streams][config]") {
  Config c;
  CHECK(error_of(c).empty());
  c.set("streams.assign=hotcold");
  CHECK_THAT(error_of(c), Contains("streams.count") && Contains("hotcold"));
  c.set("streams.count=1");
  CHECK(error_of(c).empty());
  // An unknown policy is refused where it is set, naming the registered ones (the schema's choices).
  CHECK_THAT(test::config_error_of([&] { c.set("streams.assign=nope"); }),
             Contains("streams.assign") && Contains("autostream") && Contains("manual"));
  c.set("streams.assign=single");
  c.set("streams.count=0");
  c.set("streams.gc_stream=hotcold");
  CHECK_THAT(error_of(c), Contains("streams.count") && Contains("gc_stream=hotcold"));
  c.set("streams.gc_stream=shared");
  c.set("streams.autostream_chunk_bytes=6000");
  CHECK_THAT(error_of(c), Contains("streams.autostream_chunk_bytes") && Contains("4 KiB"));
  c.set("streams.autostream_chunk_bytes=1048576");
  c.set("streams.count=2");
  c.set("buffer.policy=hexa");
  CHECK_THAT(error_of(c), Contains("buffer.policy") && Contains("not supported yet"));
  c.set("buffer.policy=fifo");
  StreamParams p = read_stream_params(c);
  CHECK(p.user_streams() == 3);
  CHECK(p.gc_streams() == 1);
  CHECK(p.lifetimes);  // auto: on with streams
  c.set("stats.lifetimes=off");
  CHECK_FALSE(read_stream_params(c).lifetimes);
}

TEST_CASE("streams.internal sets the GC streams and refuses contradicting keys", "[streams][config][internal]") {
  Config c;
  c.set("streams.count=2");
  c.set("streams.assign=pcstream");
  StreamParams p = read_stream_params(c);  // auto: the existing keys' defaults, unchanged
  CHECK(p.gc == GcStreams::Shared);
  CHECK_FALSE(p.gc_in_user);
  CHECK(p.pc_table_bytes == 16384);
  c.set("streams.internal=true");  // GC frontiers of their own, one per data stream
  p = read_stream_params(c);
  CHECK(p.gc == GcStreams::PerStream);
  CHECK_FALSE(p.gc_in_user);
  CHECK(p.gc_streams() == 3);
  c.set("streams.internal=false");  // GC copies back into their own stream's user frontier
  p = read_stream_params(c);
  CHECK(p.gc == GcStreams::PerStream);
  CHECK(p.gc_in_user);
  // Explicit settings that agree are accepted; contradicting ones name both keys.
  c.set("streams.gc_frontier=user");
  c.set("streams.gc_stream=per_stream");
  CHECK(error_of(c).empty());
  c.set("streams.internal=true");
  CHECK_THAT(error_of(c), Contains("streams.internal") && Contains("streams.gc_frontier=user"));
  c.set("streams.gc_frontier=own");
  c.set("streams.gc_stream=hotcold");
  CHECK_THAT(error_of(c), Contains("streams.internal") && Contains("streams.gc_stream=hotcold"));
  c.set("streams.internal=false");
  CHECK_THAT(error_of(c), Contains("streams.internal") && Contains("streams.gc_stream=hotcold"));
  c.set("streams.gc_stream=per_stream");
  c.set("streams.internal=auto");
  p = read_stream_params(c);  // auto: the keys as set
  CHECK(p.gc == GcStreams::PerStream);
  CHECK_FALSE(p.gc_in_user);
  // Superblock GC refuses several GC frontiers of their own: internal=true with streams says so.
  c.set("streams.gc_stream=shared");
  c.set("ftl.gc_unit=superblock");
  c.set("streams.internal=true");
  CHECK_THAT(error_of(c), Contains("streams.internal") && Contains("superblock") && Contains("ftl.gc_unit"));
  c.set("streams.internal=false");
  CHECK(error_of(c).empty());
  c.set("streams.count=0");  // one data stream: one GC frontier of its own is fine
  c.set("streams.assign=single");
  c.set("streams.internal=true");
  CHECK(error_of(c).empty());
  CHECK(read_stream_params(c).gc_streams() == 1);
}
