// Command arbitration among submission queues (NVMe Base 1.4 §4.13) and interrupt coalescing (§5.21.1.8),
// plain C++.
//  - Round robin: the queues with entries take turns, one command each (the arbitration burst of 1).
//  - Weighted round robin with urgent priority class: the admin queue first, then the urgent class (strict
//    priority), then high, medium and low served in proportion to their weights HPW+1, MPW+1, LPW+1 (Set
//    Features Arbitration, 0's based); round robin within a class.
#pragma once
#include <cstdint>
#include <vector>

namespace ssdtlm::nvme {

enum class Prio : uint8_t { Urgent = 0, High = 1, Medium = 2, Low = 3 };

class Arbiter {
 public:
  // Submission queue ids 0..queues-1 (0 = admin).
  explicit Arbiter(uint32_t queues) : prio_(queues, Prio::Medium), ready_(queues, 0) {}
  void set_wrr(bool on) { wrr_ = on; }
  bool wrr() const { return wrr_; }
  // Set Features Arbitration's weights, 0's based.
  void set_weights(uint8_t hpw, uint8_t mpw, uint8_t lpw) {
    weight_[1] = hpw + 1u, weight_[2] = mpw + 1u, weight_[3] = lpw + 1u;
  }
  void set_prio(uint32_t sq, Prio p) { prio_[sq] = p; }
  // Entries waiting in queue `sq` (tail - head as the controller sees them).
  void set_ready(uint32_t sq, uint32_t n) {
    total_ += n;
    total_ -= ready_[sq];
    ready_[sq] = n;
  }
  // The queue the next command comes from, or -1 when none has an entry; the caller fetches it and
  // lowers that queue's count.
  int pick();
  // Whether any queue has an entry (without choosing one).
  bool pick_ready() const { return total_ != 0; }

 private:
  int next_in(int cls);  // round robin among the class's queues with entries (cls -1 = all I/O queues)
  bool wrr_ = false;
  std::vector<Prio> prio_;
  std::vector<uint32_t> ready_;
  uint64_t total_ = 0;  // entries waiting in all queues
  uint32_t weight_[4] = {1, 1, 1, 1};
  uint32_t credit_[4] = {0, 0, 0, 0};
  uint32_t rr_[5] = {1, 1, 1, 1, 1};  // next queue to look at, per class (index 4: plain round robin)
};

// Interrupt coalescing of one vector: an interrupt goes when `threshold` completions are waiting or
// `time_ps` after the first of them, whichever comes first.
class Coalescer {
 public:
  void configure(uint32_t threshold, uint64_t time_ps) {
    threshold_ = threshold ? threshold : 1;
    time_ps_ = time_ps;
  }
  // A completion entry was posted at `t`. Returns true when the interrupt must go now; else `deadline()`
  // tells when it must go at the latest.
  bool posted(uint64_t t) {
    if (++waiting_ == 1) first_ = t;
    return waiting_ >= threshold_ || time_ps_ == 0;
  }
  bool waiting() const { return waiting_ != 0; }
  uint64_t deadline() const { return first_ + time_ps_; }
  void fired() { waiting_ = 0; }

 private:
  uint32_t threshold_ = 1;
  uint64_t time_ps_ = 0;
  uint32_t waiting_ = 0;
  uint64_t first_ = 0;
};

}  // namespace ssdtlm::nvme
