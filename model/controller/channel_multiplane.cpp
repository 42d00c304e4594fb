// Multi-plane operations of the channel controller (flash.multiplane, docs/reference/hardware.md): which planes an
// operation works, the statistics, and opportunistic grouping of a die's queued reads into one tR.
#include "controller/channel_controller.h"

#include <algorithm>

namespace ssdtlm {

uint32_t ChannelController::plane_mask(const FlashOp& op) const {
  const uint32_t all = (1u << g_.planes) - 1;
  if (g_.planes == 1 || op.cmd != FlashCmd::Read) return all;
  if (op.bytes) return 1;  // a map segment: within one flash page
  const uint32_t per_plane = g_.units_per_page / g_.planes;
  uint32_t m = 0;
  for (uint32_t s = op.slot_mask; s; s &= s - 1) m |= 1u << (uint32_t(__builtin_ctz(s)) / per_plane);
  return m;
}

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
  uint32_t planes = plane_mask(*op);
  uint64_t t = array_time(*op);
  d.joined_n = d.joined_out = 0;
  while (d.joined_n + 1 < g_.planes) {
    FlashOp* nx = d.queue.front();
    if (!nx || nx->cmd != FlashCmd::Read || nx->ready_ps > start || (plane_mask(*nx) & planes) ||
        (!params_.plane_any && nx->page != op->page))
      break;
    d.queue.pop();
    d.joined[d.joined_n++] = nx;
    planes |= plane_mask(*nx);
    t = std::max(t, array_time(*nx));
    ++stats_.combined_reads;
  }
  count_planes(planes);
  return t;
}

}  // namespace ssdtlm
