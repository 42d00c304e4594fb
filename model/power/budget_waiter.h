// What the power budget (power_budget.h) kicks when power comes back: a channel controller with refused dies.
#pragma once
#include <cstdint>

namespace ssdtlm {

struct BudgetWaiter {
  virtual ~BudgetWaiter() = default;
  virtual void budget_freed(uint32_t die) = 0;  // power came back for this refused die: retry its operation
};

}  // namespace ssdtlm
