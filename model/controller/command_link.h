// One direction of the command-level interface's PCIe link (NvmeController): a calendar of the times its wire is
// busy. Transfers are booked in any order of their times (a write's data is booked when the FTL completes the
// command, after the next commands' entry fetches were booked for earlier times): a transfer takes the wire's free
// time from the moment it may start, as much as its bytes need, in the gaps the transfers booked before it left
// (a link carries packets: a transfer's TLPs go where the wire is free; those booked before keep their times). So
// a transfer never waits for one that starts after it, the wire never carries two at once, and every byte is
// charged once (busy_ps). NVMeVirt's PCIe model books its transfers the same way, in time slots filled from the
// request's time whatever the order of the requests (snu-csl/nvmevirt, channel_model.c, chmodel_request).
//
// Cost: the busy intervals are kept merged in an ordered map (start -> end); a booking is O(log n) plus one
// merge per gap it fills (each merge removes an interval), n the intervals not yet over; retire() drops those over
// before the caller's clock, so n stays near the transfers in flight. Map nodes are recycled: no allocation per
// transfer once the calendar has grown.
#pragma once
#include <cstdint>
#include <map>
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
  std::vector<std::pair<uint64_t, uint64_t>> busy_intervals() const { return {busy_.begin(), busy_.end()}; }

 private:
  using Calendar = std::map<uint64_t, uint64_t>;
  Calendar::iterator add(Calendar::const_iterator hint, uint64_t start, uint64_t end);
  void drop(Calendar::iterator it) { spare_.push_back(busy_.extract(it)); }

  double ps_per_byte_;
  uint64_t latency_ps_;
  uint64_t busy_ps_ = 0;
  uint64_t horizon_ = 0;  // no transfer starts before it (retire)
  Calendar busy_;  // disjoint intervals that do not touch: start -> end
  std::vector<Calendar::node_type> spare_;  // nodes of dropped intervals, for the next ones
};

}  // namespace ssdtlm
