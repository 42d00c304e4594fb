#include "sim/watchdog.h"

#include <algorithm>
#include <cstdio>

#include "common/sim_time.h"

namespace ssdtlm {

namespace {
std::string seconds(uint64_t ps) {
  char b[48];
  std::snprintf(b, sizeof b, "%.3f s", double(ps) / 1e12);
  return b;
}
}  // namespace

uint64_t longest_chain_ps(const Params& p) {
  const FlashParams& f = p.flash;
  const Geometry& g = p.geometry;
  uint64_t tr = f.timing.t_read_ps, tp = f.timing.t_prog_ps, te = f.timing.t_erase_ps;
  for (uint32_t t = 0; t < kMaxPageTypes; ++t) {
    tr = std::max(tr, f.page_read_ps[t]);
    tp = std::max(tp, f.page_prog_ps[t]);
  }
  const uint64_t suspensions = f.suspend == SuspendMode::None ? 0 : uint64_t(f.max_suspends) * (f.t_suspend_ps + f.t_resume_ps + tr);
  const uint64_t xfer = p.bus.bus().transfer_ps(g.page_bytes * std::max(1u, g.planes));
  const uint64_t block_gc = uint64_t(g.pages_per_block) * (tr + tp + suspensions + 2 * xfer) + te + suspensions;
  uint64_t commands = uint64_t(p.host_queues) * p.host_queue_depth;
  for (const JobParams& j : p.jobs) commands += uint64_t(j.queues) * j.queue_depth;
  const uint64_t firmware =
      commands * (p.ftl.cmd_ps + p.ftl.write_cmd_ps + p.ftl.flash_op_ps * std::max(1u, g.units_per_page));
  return block_gc * std::max(1u, g.dies_per_channel) + firmware;
}

uint64_t stall_window_ps(const Params& p) {
  const uint64_t chain = longest_chain_ps(p);
  const uint64_t window = chain > kNever / 64 ? kNever : 64 * chain;
  return std::max<uint64_t>(window, 1000000000000ull);
}

bool Watchdog::check(uint64_t now) {
  if (tripped()) return true;
  const NvmeHost& h = p_.host();
  const uint64_t done = h.completed() + h.stats().trims + h.stats().syncs;
  // Progress, nothing due, a recovery, or the first check that finds commands waiting (the previous one found
  // none: the sampler may have slept across an idle gap since, the commands are newer than that check).
  const bool waiting = h.outstanding() > 0;
  if (done != last_done_ || !waiting || !waiting_ || now < hold_ps_) {
    last_done_ = done;
    waiting_ = waiting;
    since_ps_ = std::max(now, hold_ps_);
    return false;
  }
  if (now - since_ps_ < window_ps_) return false;
  reason_ = "no host command completed in " + seconds(now - since_ps_) + " of simulated time (watchdog window " +
            seconds(window_ps_) + ", 64 times the longest operation chain)";
  sc_core::sc_stop();
  return true;
}

void Watchdog::hold_until(uint64_t until) { hold_ps_ = std::max(hold_ps_, until); }

RunStuck Watchdog::stuck(const std::string& reason) const {
  return RunStuck(reason, p_.stuck_state(), now_ps(), p_.host().completed());
}

}  // namespace ssdtlm
