// What the power budget (power_budget.h) kicks when power comes back: a channel controller with refused dies.
#pragma once

namespace ssdtlm {

struct BudgetWaiter {
  virtual ~BudgetWaiter() = default;
  virtual void budget_freed() = 0;  // power came back: retry the refused operations
};

}  // namespace ssdtlm
