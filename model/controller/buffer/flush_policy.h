// The order in which the write buffer flushes dirty units. A new policy is one new file plus one line
// in flush_policy.cpp (buffer.policy).
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

class FlushPolicy {
 public:
  virtual ~FlushPolicy() = default;
  virtual void on_dirty(uint32_t slot, uint32_t lpn) = 0;  // a slot became dirty
  virtual void on_overwrite(uint32_t slot, uint32_t lpn) {}  // a dirty slot absorbed a newer write
  virtual uint32_t pop() = 0;                               // next dirty slot to flush, kInvalid if none
};

using FlushFactory = std::function<std::unique_ptr<FlushPolicy>(uint32_t capacity_units)>;

std::unique_ptr<FlushPolicy> make_fifo_flush(uint32_t capacity_units);

std::unique_ptr<FlushPolicy> make_flush_policy(const std::string& name, uint32_t capacity_units, const std::string& key);
std::vector<std::string> flush_policy_names();

}  // namespace ssdtlm
