// sched.policy: how the FTL orders host writes, buffer flushes and reads (ARCHITECTURE.md section 3). A policy
// answers three questions the host path and the flush scheduler ask; a new policy is one file plus one line
// in the table of sched_policy.cpp.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

class SchedPolicy {
 public:
  virtual ~SchedPolicy() = default;
  // Does the buffer start flushing by itself at its high watermark (or when a write waits for room)? If not,
  // it flushes only while writes are held (hold_writes) and no read is left to serve.
  virtual bool flush_at_watermark() const = 0;
  // A write of `units` is about to enter the buffer holding `dirty` dirty units (`high`: the flush threshold):
  // hold it, and every write after it, until queued reads are served and the flush is over?
  virtual bool hold_writes(uint32_t dirty, uint32_t units, uint32_t high) const = 0;
  // Flushing has reached the low watermark: go on? `head_units`: the first waiting write's units (0: none).
  virtual bool flush_below_low(uint32_t dirty, uint32_t head_units, uint32_t high) const = 0;
};

std::unique_ptr<SchedPolicy> make_fifo_sched();
std::unique_ptr<SchedPolicy> make_read_priority_sched();

std::vector<std::string> sched_policy_names();
// The policy registered as `name`; a ConfigError naming `key` otherwise.
std::unique_ptr<SchedPolicy> make_sched_policy(const std::string& name, const std::string& key = "sched.policy");

}  // namespace ssdtlm
