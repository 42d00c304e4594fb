// sched.policy=fifo: commands are served in arrival order; the buffer flushes from its high watermark down to
// its low one, and on below it while a write waits for room.
#include "controller/sched/sched_policy.h"

namespace ssdtlm {
namespace {

class FifoSched : public SchedPolicy {
 public:
  bool flush_at_watermark() const override { return true; }
  bool hold_writes(uint32_t, uint32_t, uint32_t) const override { return false; }
  bool flush_below_low(uint32_t, uint32_t head_units, uint32_t) const override { return head_units > 0; }
};

}  // namespace

std::unique_ptr<SchedPolicy> make_fifo_sched() { return std::make_unique<FifoSched>(); }

}  // namespace ssdtlm
