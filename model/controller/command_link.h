// One direction of the command-level interface's PCIe link (NvmeController): a calendar of the times its wire is
// busy. Transfers are booked in any order of their times (a write's data is booked when the FTL completes the
// command, after the next commands' entry fetches were booked for earlier times): a transfer takes the wire's free
// time from the moment it may start, as much as its bytes need, in the gaps the transfers booked before it left
// (a link carries packets: a transfer's TLPs go where the wire is free; those booked before keep their times). So
// a transfer never waits for one that starts after it, the wire never carries two at once, and every byte is
// charged once (busy_ps). NVMeVirt's PCIe model books its transfers the same way, in time slots filled from the
// request's time whatever the order of the requests (snu-csl/nvmevirt, channel_model.c, chmodel_request).
//
// Cost: the busy intervals are kept merged in a vector in time order, the retired ones before `head_`; a booking
// after everything booked (the common case: the link's transfers mostly come in time order) or inside the last
// interval is O(1); one into an earlier gap is a binary search plus a shift of the intervals after it, which are
// the transfers in flight (a few per queued command). retire() moves `head_` past those over before the caller's
// clock and compacts now and then, so the vector stays near the transfers in flight and allocates nothing once grown.
#pragma once
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ssdtlm {

class PcieLink {
 public:
  PcieLink(double bytes_per_s, uint64_t latency_ps) : ps_per_byte_(1e12 / bytes_per_s), latency_ps_(latency_ps) {}
  // A transfer of `bytes` that may start at `t` (at the retired horizon at the earliest); returns when its last
  // byte has left (the far end sees it latency later).
  uint64_t send(uint64_t t, uint32_t bytes);
  uint64_t transfer(uint64_t t, uint32_t bytes) { return send(t, bytes) + latency_ps_; }
  uint64_t busy_of(uint32_t bytes) const { return uint64_t(bytes * ps_per_byte_ + 0.5); }
  uint64_t busy_ps() const { return busy_ps_; }
  // The caller's clock reached `t`: no later transfer starts before it, the bookings over by then are dropped.
  void retire(uint64_t t);
  // The busy intervals not yet retired, [start, end) in time order (tests).
  std::vector<std::pair<uint64_t, uint64_t>> busy_intervals() const {
    std::vector<std::pair<uint64_t, uint64_t>> v;
    for (size_t i = head_; i < busy_.size(); ++i) v.emplace_back(busy_[i].start, busy_[i].end);
    return v;
  }

 private:
  struct Interval {
    uint64_t start, end;
  };
  uint64_t fill(size_t next, uint64_t cur, uint64_t left);  // books from `cur` in the gaps before busy_[next] on

  double ps_per_byte_;
  uint64_t latency_ps_;
  uint64_t busy_ps_ = 0;
  uint64_t horizon_ = 0;  // no transfer starts before it (retire)
  std::vector<Interval> busy_;  // disjoint intervals that do not touch, in time order; [0, head_) retired
  size_t head_ = 0;
};

}  // namespace ssdtlm
