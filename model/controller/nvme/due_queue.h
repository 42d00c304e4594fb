// The endpoint's timed work (completion entries, MSI-X messages, timers, CSTS changes, a deferred fetch) in the
// order it is due: by time, then by the order it was scheduled (an event's `t` and `seq`, `seq` unique and rising).
// Completion entries reach the host in the order they were scheduled (each leaves behind everything reserved on
// the upstream wire before it, PcieWire::send), so they wait in a FIFO; the rest in a heap; the next due is the
// earlier of the two fronts. The order is that of one priority queue over everything, at a FIFO's cost for most.
#pragma once
#include <deque>
#include <functional>
#include <queue>
#include <vector>

namespace ssdtlm::nvme {

template <class Event>
class DueQueue {
 public:
  bool empty() const { return fifo_.empty() && heap_.empty(); }
  const Event& top() const { return fifo_first() ? fifo_.front() : heap_.top(); }
  void pop() {
    if (fifo_first()) fifo_.pop_front();
    else heap_.pop();
  }
  // `in_order`: an event of the kind whose times do not decrease (it goes to the heap all the same if it would).
  void push(const Event& e, bool in_order) {
    if (in_order && (fifo_.empty() || !(fifo_.back() > e))) fifo_.push_back(e);
    else heap_.push(e);
  }

 private:
  bool fifo_first() const { return !fifo_.empty() && (heap_.empty() || heap_.top() > fifo_.front()); }
  std::deque<Event> fifo_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> heap_;
};

}  // namespace ssdtlm::nvme
