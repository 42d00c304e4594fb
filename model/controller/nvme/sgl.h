// The SGL walk (NVMe Base 2.0 §4.3.2 "Scatter Gather List (SGL)"; 1.4 §4.4): the command's SGL descriptor
// (SGL1, in dwords 6-9 of the entry when CDW0.PSDT is 01b or 10b) and the SGL segments it chains to, turned into
// the host memory segments the data moves to or from. Plain C++: segments are read through a callback.
//
// A descriptor is 16 bytes: Address (8), Length (4), reserved (3), SGL Identifier (type 7:4, subtype 3:0).
// Served: Data Block (0h), Segment (2h) and Last Segment (3h), subtype Address (0h), as Identify's SGLS = 01b
// announces (SGLs supported, no alignment or granularity requirement; SGLS bit 18 = 0: the data blocks describe
// exactly the transfer). Statuses (generic, Base 2.0 Figure 101):
//  - SGL Descriptor Type Invalid: a type or subtype not served (Bit Bucket, Keyed Data Block, Transport, Offset);
//  - Invalid SGL Segment Descriptor: a segment whose length is 0 or not a multiple of 16, a Segment or Last Segment
//    descriptor that is not the last of its segment, or one inside a Last Segment;
//  - Data SGL Length Invalid: the data blocks describe less or more than the transfer;
//  - Invalid Number of SGL Descriptors: more segments than kMaxSglSegments (a list that never ends).
#pragma once
#include <cstdint>
#include <functional>

#include "controller/nvme/prp.h"

namespace ssdtlm::nvme {

enum SglType : uint8_t { kSglDataBlock = 0x0, kSglBitBucket = 0x1, kSglSegment = 0x2, kSglLastSegment = 0x3 };

struct SglDescriptor {
  uint64_t addr = 0;
  uint32_t length = 0;
  uint8_t id = 0;  // SGL Identifier: type << 4 | subtype
  uint8_t type() const { return id >> 4; }
  uint8_t subtype() const { return id & 0xF; }
  static SglDescriptor from_dwords(const uint32_t* dw) {  // 4 dwords, as in an entry or a segment
    return {dw[0] | uint64_t(dw[1]) << 32, dw[2], uint8_t(dw[3] >> 24)};
  }
};

constexpr uint32_t kMaxSglSegments = 1024;

// Reads `n` 16-byte descriptors at `addr` of host memory into `out` (4 dwords each).
using SglReader = std::function<void(uint64_t addr, uint32_t* out, uint32_t n)>;

// The segments of a `bytes`-byte transfer described by SGL1 `first`; `lists` holds the segment reads made.
PrpWalk walk_sgl(const SglDescriptor& first, uint64_t bytes, const SglReader& read);

}  // namespace ssdtlm::nvme
