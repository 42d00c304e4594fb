// ChannelController and the power budget (model/power/power_budget.h): which array operations may start.
#include "common/sim_time.h"
#include "controller/channel_controller.h"
#include "power/power_budget.h"

namespace ssdtlm {

void ChannelController::set_power_budget(PowerBudget* budget, const NandOpPower& power, const NandOpPower& slc) {
  budget_ = budget;
  op_w_ = power;
  slc_w_ = slc;
  held_w_.assign(dies_.size(), 0.0);
  wait_from_.assign(dies_.size(), kNever);
}

bool ChannelController::admit_in_budget(uint32_t k, const FlashOp& op, uint64_t start) {
  const uint64_t bit = uint64_t(1) << k;
  const double w = (op.slc ? slc_w_ : op_w_).of(uint32_t(op.cmd));
  if (!budget_->acquire(w, this, k, wait_from_[k] != kNever)) {
    budget_waiting_ |= bit;
    if (wait_from_[k] == kNever) wait_from_[k] = start;
    return false;
  }
  budget_waiting_ &= ~bit;
  held_w_[k] = w;
  if (wait_from_[k] != kNever) {
    // The operation could have started at wait_from_ (its first refusal); it starts at `start`.
    if (start > wait_from_[k]) stats_.budget_wait_ps += start - wait_from_[k];
    wait_from_[k] = kNever;
  }
  return true;
}

void ChannelController::give_back(uint32_t k) {
  if (held_w_[k] == 0) return;
  budget_->release(held_w_[k]);
  held_w_[k] = 0;
}

void ChannelController::budget_freed(uint32_t k) {
  // Only the die whose turn it is: the others stay refused until theirs (O(1) per kick).
  const uint64_t bit = uint64_t(1) << k;
  kick_ |= bit;
  budget_waiting_ &= ~bit;
  step();
}

}  // namespace ssdtlm
