// Multi-plane operations of the channel controller (flash.multiplane, docs/reference/hardware.md): the statistics and
// opportunistic grouping of a die's queued reads into one tR (which planes an operation works: NandTiming::plane_mask).
#include "controller/channel_controller.h"

#include <algorithm>

namespace ssdtlm {

void ChannelController::count_planes(uint32_t planes) {
  const uint32_t n = uint32_t(__builtin_popcount(planes));
  if (params_.multiplane == MultiPlane::Never) {
    stats_.plane_ops += n;
  } else {
    ++stats_.plane_ops;
    stats_.multiplane_ops += n > 1;
  }
}

uint64_t ChannelController::join_reads(DieState& d, FlashOp* op, uint64_t start) {
  // The die's next queued reads join op's tR while each works planes none of the group does, satisfies the
  // plane rule and is ready by the start (the queue's order is kept: only its head may join).
  uint32_t planes = timing_.plane_mask(*op);
  uint64_t t = timing_.array_ps(*op);
  d.joined_n = d.joined_out = 0;
  while (d.joined_n + 1 < g_.planes) {
    FlashOp* nx = d.queue.front();
    if (!nx || nx->cmd != FlashCmd::Read || nx->ready_ps > start || (timing_.plane_mask(*nx) & planes) ||
        (!params_.plane_any && nx->page != op->page))
      break;
    d.queue.pop();
    d.joined[d.joined_n++] = nx;
    planes |= timing_.plane_mask(*nx);
    t = std::max(t, timing_.array_ps(*nx));
    ++stats_.combined_reads;
  }
  count_planes(planes);
  return t;
}

}  // namespace ssdtlm
