// One direction of the command-level interface's PCIe link (NvmeController): a calendar of the times its wire is
// busy. Transfers are booked in any order of their times (a write's data is booked when the FTL completes the
// command, after the next commands' entry fetches were booked for earlier times): a transfer takes the wire's free
// time from the moment it may start, as much as its bytes need, in the gaps the transfers booked before it left
// (a link carries packets: a transfer's TLPs go where the wire is free; those booked before keep their times). So
// a transfer never waits for one that starts after it, the wire never carries two at once, and every byte is
// charged once (busy_ps). NVMeVirt's PCIe model books its transfers the same way, in time slots filled from the
// request's time whatever the order of the requests (snu-csl/nvmevirt, channel_model.c, chmodel_request).
//
// Cost: the busy intervals are kept merged in a vector in time order. A booking after everything booked (the
// common case: the link's transfers mostly come in time order) or inside the last interval is O(1); one into an
// earlier gap (a read's data ready before the completion entry booked last, the channels' reads ending out of
// order) scans back from the last interval to the first that starts after it, which are the transfers booked
// later in flight (one or two), and shifts them. retire() only moves the horizon (O(1)): the intervals over by then
// are dropped when everything booked is over (the next booking after them clears the vector) or, in a busy stretch,
// when the vector has doubled since the last drop, so it stays near the transfers in flight and allocates nothing
// once grown. (A binary search and an eager retire of each call, as first written, cost about 300 instructions per
// 4 KiB read, for three transfers: more than the FIFO link it replaced, and with branches the CPU could not
// predict.)
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
  void retire(uint64_t t) { horizon_ = t > horizon_ ? t : horizon_; }
  // The busy intervals not yet over at the horizon, [start, end) in time order (tests).
  std::vector<std::pair<uint64_t, uint64_t>> busy_intervals() const {
    std::vector<std::pair<uint64_t, uint64_t>> v;
    for (const Interval& i : busy_)
      if (i.end > horizon_) v.emplace_back(i.start, i.end);
    return v;
  }

 private:
  struct Interval {
    uint64_t start, end;
  };
  uint64_t fill(size_t next, uint64_t cur, uint64_t left);  // books from `cur` in the gaps before busy_[next] on
  void append(uint64_t cur, uint64_t left);  // books [cur, cur + left) after everything booked

  double ps_per_byte_;
  uint64_t latency_ps_;
  uint64_t busy_ps_ = 0;
  uint64_t horizon_ = 0;  // no transfer starts before it (retire)
  std::vector<Interval> busy_;  // disjoint intervals that do not touch, in time order (those over by horizon_ first)
  size_t compact_at_ = 64;      // the size at which the intervals over by the horizon are dropped
};

}  // namespace ssdtlm
