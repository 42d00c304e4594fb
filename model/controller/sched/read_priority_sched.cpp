// sched.policy=read_priority: PTSD's write-stop scheduling (seed 001, section III-B). The write that would
// make the buffer flush waits, with every write after it, until the queued reads are served; then the buffer
// flushes (down to the low watermark, or further if the held write would not fit under the high one) and
// the held writes enter once the flush has landed. Reads never queue behind a flush they did not cause.
#include "controller/sched/sched_policy.h"

namespace ssdtlm {
namespace {

class ReadPrioritySched : public SchedPolicy {
 public:
  bool flush_at_watermark() const override { return false; }
  bool hold_writes(uint32_t dirty, uint32_t units, uint32_t high) const override {
    return dirty > 0 && dirty + units >= high;  // nothing to flush: no stop
  }
  bool flush_below_low(uint32_t dirty, uint32_t head_units, uint32_t high) const override {
    return head_units > 0 && dirty + head_units >= high;
  }
};

}  // namespace

std::unique_ptr<SchedPolicy> make_read_priority_sched() { return std::make_unique<ReadPrioritySched>(); }

}  // namespace ssdtlm
