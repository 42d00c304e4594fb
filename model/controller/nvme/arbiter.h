// Command arbitration among submission queues (NVMe Base 2.0 §3.4.4, "Command Arbitration"; 1.4 §4.13) and
// interrupt coalescing (Base 2.0 §5.27.1.9; 1.4 §5.21.1.8), plain C++.
//  - Arbitration Burst (Set Features Arbitration, AB bits 2:0): once a queue is chosen, up to 2^AB of its
//    commands start before arbitration takes place again (111b: no limit); fewer when the queue holds fewer.
//  - Round robin (§3.4.4.1): every submission queue, the admin queue included, with equal priority; the queues
//    with entries take turns, a burst each.
//  - Weighted round robin with urgent priority class (§3.4.4.2): three strict classes, the admin queue, then the
//    urgent queues (round robin among them), then the weighted round robin class, whose high, medium and low
//    levels share what is left by their weights HPW+1, MPW+1, LPW+1 (0's based) per round; round robin among
//    the queues of one level; a queue chosen in that class starts at most the smaller of the burst and its
//    level's credits left in the round.
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
    for (int c = 1; c <= 3; ++c) credit_[c] = weight_[c];
  }
  // Set Features Arbitration's AB: a burst of 2^ab commands, 7 = no limit.
  void set_burst(uint8_t ab) { burst_ = ab >= 7 ? ~0u : 1u << ab; }
  uint32_t burst() const { return burst_; }
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
  // Round robin among the queues of class `cls` with entries (cls -1: every queue, the admin queue included;
  // 0..3 the I/O queues of that priority); -1 when none.
  int next_in(int cls);
  // Starts a burst of at most `n` commands on queue q (its first one is the command picked now).
  int start(int q, uint32_t n, int cls);
  bool wrr_ = false;
  std::vector<Prio> prio_;
  std::vector<uint32_t> ready_;
  uint64_t total_ = 0;  // entries waiting in all queues
  uint32_t burst_ = 1;  // AB = 0 at reset
  uint32_t weight_[4] = {1, 1, 1, 1};
  uint32_t credit_[4] = {1, 1, 1, 1};
  uint32_t rr_[5] = {0, 1, 1, 1, 1};  // next queue to look at, per class (index 0: plain round robin, all queues)
  int cur_ = -1;          // the queue of the burst under way
  int cur_cls_ = -1;      // its weighted level (1..3), or -1 (admin, urgent, plain round robin)
  uint32_t left_ = 0;     // commands the burst may still start
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
