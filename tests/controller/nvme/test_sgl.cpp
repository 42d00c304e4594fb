// The SGL walk (NVMe Base 2.0 §4.3.2) alone: data blocks, segments and last segments, and the statuses the
// specification gives for malformed lists.
#include <catch2/catch.hpp>

#include <map>
#include <vector>

#include "controller/nvme/sgl.h"

using namespace ssdtlm::nvme;

namespace {
// Host memory holding SGL segments: address -> descriptors.
struct Segments {
  std::map<uint64_t, std::vector<SglDescriptor>> at;
  int reads = 0;
  SglReader reader() {
    return [this](uint64_t a, uint32_t* out, uint32_t n) {
      ++reads;
      const auto& v = at.at(a);
      for (uint32_t i = 0; i < n; ++i) {
        const SglDescriptor d = i < v.size() ? v[i] : SglDescriptor{};
        out[i * 4] = uint32_t(d.addr), out[i * 4 + 1] = uint32_t(d.addr >> 32), out[i * 4 + 2] = d.length;
        out[i * 4 + 3] = uint32_t(d.id) << 24;
      }
    };
  }
};
SglDescriptor data(uint64_t a, uint32_t len) { return {a, len, kSglDataBlock << 4}; }
SglDescriptor seg(uint64_t a, uint32_t n) { return {a, n * 16, kSglSegment << 4}; }
SglDescriptor last(uint64_t a, uint32_t n) { return {a, n * 16, kSglLastSegment << 4}; }
}  // namespace

TEST_CASE("sgl: one data block, and a chain of segments with contiguous blocks merged") {
  Segments m;
  PrpWalk w = walk_sgl(data(0x10000, 8192), 8192, m.reader());
  CHECK(w.status == kSuccess);
  REQUIRE(w.data.size() == 1);
  CHECK(w.data[0].addr == 0x10000);
  CHECK(w.data[0].bytes == 8192);
  CHECK(m.reads == 0);

  m.at[0x1000] = {data(0x20000, 4096), data(0x21000, 4096), seg(0x2000, 2)};
  m.at[0x2000] = {data(0x40000, 1000), last(0x3000, 1)};
  m.at[0x3000] = {data(0x50000, 3096)};
  w = walk_sgl(seg(0x1000, 3), 12288, m.reader());
  CHECK(w.status == kSuccess);
  REQUIRE(w.data.size() == 3);
  CHECK(w.data[0].addr == 0x20000);
  CHECK(w.data[0].bytes == 8192);  // two adjacent blocks
  CHECK(w.data[1].bytes == 1000);
  CHECK(w.data[2].addr == 0x50000);
  CHECK(w.lists.size() == 3);
}

TEST_CASE("sgl: malformed lists get the specification's statuses") {
  Segments m;
  // The data blocks describe less, or more, than the transfer.
  CHECK(walk_sgl(data(0x10000, 4096), 8192, m.reader()).status == kDataSglLengthInvalid);
  CHECK(walk_sgl(data(0x10000, 8192), 4096, m.reader()).status == kDataSglLengthInvalid);
  m.at[0x1000] = {data(0x20000, 4096)};
  CHECK(walk_sgl(last(0x1000, 1), 8192, m.reader()).status == kDataSglLengthInvalid);
  // Types and subtypes not served: a bit bucket, a keyed data block (4h), the Offset subtype.
  CHECK(walk_sgl({0x10000, 4096, kSglBitBucket << 4}, 4096, m.reader()).status == kSglDescriptorTypeInvalid);
  CHECK(walk_sgl({0x10000, 4096, 0x40}, 4096, m.reader()).status == kSglDescriptorTypeInvalid);
  CHECK(walk_sgl({0x10000, 4096, 0x01}, 4096, m.reader()).status == kSglDescriptorTypeInvalid);
  m.at[0x5000] = {{0x20000, 4096, kSglBitBucket << 4}};
  CHECK(walk_sgl(last(0x5000, 1), 4096, m.reader()).status == kSglDescriptorTypeInvalid);
  // A segment of length 0 or not a multiple of 16.
  CHECK(walk_sgl({0x1000, 0, kSglLastSegment << 4}, 4096, m.reader()).status == kInvalidSglSegmentDescriptor);
  CHECK(walk_sgl({0x1000, 24, kSglSegment << 4}, 4096, m.reader()).status == kInvalidSglSegmentDescriptor);
  // A segment descriptor inside a last segment, or not last in its segment; a segment that does not chain on.
  m.at[0x2000] = {data(0x20000, 2048), seg(0x3000, 1)};
  CHECK(walk_sgl(last(0x2000, 2), 4096, m.reader()).status == kInvalidSglSegmentDescriptor);
  m.at[0x6000] = {seg(0x3000, 1), data(0x20000, 2048)};
  CHECK(walk_sgl(seg(0x6000, 2), 4096, m.reader()).status == kInvalidSglSegmentDescriptor);
  m.at[0x7000] = {data(0x20000, 4096)};
  CHECK(walk_sgl(seg(0x7000, 1), 4096, m.reader()).status == kInvalidSglSegmentDescriptor);
  // A list that never ends: a segment chaining to itself.
  m.at[0x8000] = {data(0x20000, 0), seg(0x8000, 2)};
  CHECK(walk_sgl(seg(0x8000, 2), 4096, m.reader()).status == kInvalidNumberOfSglDescriptors);
}
