// The PRP walk (NVMe Base 1.4 §4.3): PRP1 and PRP2 of a command and, when the transfer spans more than two
// memory pages, the PRP lists PRP2 points to, turned into the host memory segments the data moves to or from.
// Plain C++: the lists are read through a callback, which also tells the caller what to charge the link for.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "controller/nvme/nvme_spec.h"

namespace ssdtlm::nvme {

struct Segment {
  uint64_t addr = 0;
  uint32_t bytes = 0;
};

struct PrpWalk {
  uint16_t status = kSuccess;      // kPrpOffsetInvalid when an entry breaks the offset rules
  std::vector<Segment> data;       // host memory the data occupies, in transfer order
  std::vector<Segment> lists;      // PRP list reads the walk made (one per list page touched)
};

// Reads `n` 8-byte PRP entries at `addr` of host memory into `out`.
using PrpReader = std::function<void(uint64_t addr, uint64_t* out, uint32_t n)>;

// The segments of a `bytes`-byte transfer described by prp1/prp2 with memory pages of `page` bytes.
// Rules: every entry's offset is dword aligned; PRP1 may start anywhere in its page; a data entry after the
// first, and every entry of a list, starts at offset 0; a list may start at an offset and its last entry,
// when more entries follow, points to the next list page.
PrpWalk walk_prps(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, const PrpReader& read);
// The same into `out`, whose vectors keep their capacity (a caller walking once per command allocates nothing).
void walk_prps(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, const PrpReader& read, PrpWalk& out);
// The walk of a transfer PRP1 and PRP2 describe without a list (at most two memory pages, the common case), into
// `out` as walk_prps would: true. False, `out` untouched beyond being cleared, when PRP2 points to a list (walk_prps
// then reads it); the caller then needs no reader for the short case.
bool walk_prps_direct(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, PrpWalk& out);

}  // namespace ssdtlm::nvme
