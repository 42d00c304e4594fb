#include "controller/nvme/sgl.h"

#include <vector>

namespace ssdtlm::nvme {

namespace {
bool served_data(const SglDescriptor& d) { return d.type() == kSglDataBlock && d.subtype() == 0; }
bool is_segment(const SglDescriptor& d) { return d.type() == kSglSegment || d.type() == kSglLastSegment; }

// Takes data block d into w; false (with w.status) when it goes past the transfer.
bool take(PrpWalk& w, const SglDescriptor& d, uint64_t& left) {
  if (d.length > left) {
    w.status = kDataSglLengthInvalid;
    return false;
  }
  if (d.length) {
    if (!w.data.empty() && w.data.back().addr + w.data.back().bytes == d.addr) w.data.back().bytes += d.length;
    else w.data.push_back({d.addr, d.length});
  }
  left -= d.length;
  return true;
}
}  // namespace

PrpWalk walk_sgl(const SglDescriptor& first, uint64_t bytes, const SglReader& read) {
  PrpWalk w;
  uint64_t left = bytes;
  SglDescriptor d = first;
  if (d.subtype() != 0 || !(served_data(d) || is_segment(d))) {
    w.status = kSglDescriptorTypeInvalid;
    return w;
  }
  for (uint32_t segments = 0; is_segment(d); ++segments) {
    if (segments == kMaxSglSegments) {
      w.status = kInvalidNumberOfSglDescriptors;
      return w;
    }
    if (d.length == 0 || d.length % 16) {
      w.status = kInvalidSglSegmentDescriptor;
      return w;
    }
    const bool last_segment = d.type() == kSglLastSegment;
    const uint32_t n = d.length / 16;
    std::vector<uint32_t> raw(size_t(n) * 4);
    read(d.addr, raw.data(), n);
    w.lists.push_back({d.addr, d.length});
    SglDescriptor next{};
    for (uint32_t i = 0; i < n; ++i) {
      const SglDescriptor e = SglDescriptor::from_dwords(&raw[size_t(i) * 4]);
      if (e.subtype() != 0 || !(served_data(e) || is_segment(e))) {
        w.status = kSglDescriptorTypeInvalid;
        return w;
      }
      if (is_segment(e)) {  // chains on: only as the last descriptor of a segment that is not the last one
        if (last_segment || i + 1 != n) {
          w.status = kInvalidSglSegmentDescriptor;
          return w;
        }
        next = e;
        break;
      }
      if (!take(w, e, left)) return w;
    }
    if (!is_segment(next)) {
      if (!last_segment) {  // a Segment whose last descriptor does not chain on ends the list too early
        w.status = kInvalidSglSegmentDescriptor;
        return w;
      }
      break;
    }
    d = next;
  }
  if (served_data(d) && w.lists.empty() && !take(w, d, left)) return w;
  if (left) w.status = kDataSglLengthInvalid;
  return w;
}

}  // namespace ssdtlm::nvme
