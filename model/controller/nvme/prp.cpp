#include "controller/nvme/prp.h"

#include <algorithm>

namespace ssdtlm::nvme {

namespace {
void add(std::vector<Segment>& v, uint64_t addr, uint32_t bytes) {
  if (!v.empty() && v.back().addr + v.back().bytes == addr)
    v.back().bytes += bytes;  // contiguous pages make one segment
  else
    v.push_back({addr, bytes});
}
}  // namespace

PrpWalk walk_prps(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, const PrpReader& read) {
  PrpWalk w;
  walk_prps(prp1, prp2, bytes, page, read, w);
  return w;
}

bool walk_prps_direct(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, PrpWalk& w) {
  w.status = kSuccess;
  w.data.clear();
  w.lists.clear();
  if (prp1 & 3) {
    w.status = kPrpOffsetInvalid;
    return true;
  }
  const uint64_t first = std::min<uint64_t>(bytes, page - prp1 % page);
  const uint64_t left = bytes - first;
  if (left > page) return false;  // PRP2 points to a list
  add(w.data, prp1, uint32_t(first));
  if (!left) return true;
  if (prp2 % page) {  // PRP2 is the second data page: it starts at offset 0
    w.status = kPrpOffsetInvalid;
    return true;
  }
  add(w.data, prp2, uint32_t(left));
  return true;
}

void walk_prps(uint64_t prp1, uint64_t prp2, uint64_t bytes, uint32_t page, const PrpReader& read, PrpWalk& w) {
  if (walk_prps_direct(prp1, prp2, bytes, page, w)) return;
  const uint64_t first = std::min<uint64_t>(bytes, page - prp1 % page);
  add(w.data, prp1, uint32_t(first));
  uint64_t left = bytes - first;
  // PRP2 points to a list; entries up to the end of the list's page, the last one chaining when more follow.
  if (prp2 & 7) {
    w.status = kPrpOffsetInvalid;
    return;
  }
  uint64_t list = prp2;
  std::vector<uint64_t> entries;
  while (left) {
    const uint32_t room = uint32_t((page - list % page) / 8);  // entries left in this list page
    const uint64_t pages_left = (left + page - 1) / page;
    const bool chain = pages_left > room;
    const uint32_t n = chain ? room : uint32_t(pages_left);
    entries.resize(n);
    read(list, entries.data(), n);
    w.lists.push_back({list, n * 8});
    const uint32_t data_entries = chain ? n - 1 : n;
    for (uint32_t i = 0; i < data_entries; ++i) {
      if (entries[i] % page) {
        w.status = kPrpOffsetInvalid;
        return;
      }
      const uint64_t b = std::min<uint64_t>(left, page);
      add(w.data, entries[i], uint32_t(b));
      left -= b;
    }
    if (chain) {
      list = entries[n - 1];
      if (list % page) {  // a chained list page starts at offset 0
        w.status = kPrpOffsetInvalid;
        return;
      }
    }
  }
}

}  // namespace ssdtlm::nvme
