// WriteBuffer::upcoming, the flush prefetch's look into the flush order (a hint): what it names is what take()
// then returns, in FIFO order and per stream; a unit dropped meanwhile, or a policy that cannot tell, names none.
#include <catch2/catch.hpp>

#include <vector>

#include "flush_context.h"
#include "controller/buffer/flush_policy.h"
#include "controller/buffer/write_buffer.h"

using namespace ssdtlm;

namespace {
// The k-th next unit's LPN alone (upcoming with n = 1).
uint32_t upcoming_one(const WriteBuffer& b, uint32_t stream, uint32_t k) {
  uint32_t lpn;
  b.upcoming(stream, k, 1, &lpn);
  return lpn;
}
}  // namespace

TEST_CASE("upcoming names the units take() returns next, in order", "[buffer][upcoming]") {
  for (uint32_t streams : {1u, 3u}) {
    WriteBuffer b(64, make_flush_policy("fifo", test::flush_context(64), "buffer.policy"), streams);
    for (uint32_t i = 0; i < 30; ++i) b.write(100 + i, 1, i, i % streams);
    b.write(105, 2, 40, 5 % streams);  // absorbed in place: keeps its position
    b.discard(107);                      // dropped: its position names no unit
    for (uint32_t s = 0; s < streams; ++s) {
      std::vector<uint32_t> ahead;
      for (uint32_t k = 0; k < 12; ++k) ahead.push_back(upcoming_one(b, s, k));
      uint32_t k = 0, lpn, version;
      uint32_t taken = 0;
      while (b.take(s, &lpn, &version, 50) != kInvalid) {
        ++taken;
        while (k < ahead.size() && ahead[k] == kInvalid) ++k;  // the dropped unit's place
        if (k == ahead.size()) continue;
        INFO("streams " << streams << " stream " << s << " k " << k);
        REQUIRE(ahead[k++] == lpn);
      }
      CHECK(taken == (30 + streams - 1 - s) / streams - (7 % streams == s ? 1 : 0));  // less the dropped one
      CHECK(upcoming_one(b, s, 0) == kInvalid);  // all taken
    }
  }
}

TEST_CASE("upcoming names nothing beyond the dirty units, nor for a policy that cannot tell", "[buffer][upcoming]") {
  WriteBuffer fifo(16, make_flush_policy("fifo", test::flush_context(16), "buffer.policy"));
  fifo.write(1, 1);
  fifo.write(2, 1);
  CHECK(upcoming_one(fifo, 0, 0) == 1);
  CHECK(upcoming_one(fifo, 0, 1) == 2);
  CHECK(upcoming_one(fifo, 0, 2) == kInvalid);
  WriteBuffer hexa(16, make_flush_policy("hexa", test::flush_context(16), "buffer.policy"));
  hexa.write(1, 1);
  CHECK(upcoming_one(hexa, 0, 0) == kInvalid);
}
