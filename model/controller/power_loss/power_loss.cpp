// The power loss at an instant and the recovery, as its steps over one plan (README.md beside): dump, scan,
// rebuild, verify.
#include "controller/power_loss/power_loss.h"

#include <algorithm>

#include "controller/power_loss/recovery_plan.h"

namespace ssdtlm {

uint64_t RecoveryTimeline::span(uint64_t op_ps, uint32_t cores) const {
  uint64_t t = 0;
  for (uint64_t x : die_) t = std::max(t, x);
  for (uint64_t x : chan_) t = std::max(t, x);
  return std::max(t, ops_ * op_ps / std::max<uint32_t>(1, cores));
}

RecoveryReport power_loss(PowerLossState& state, DriveState& drive, const MapCache& cache, WriteBuffer& buffer,
                          IntegrityChecker& checker, const PowerLossParams& p, const FlashParams& flash, const Channel& bus,
                          uint64_t unacknowledged_units, uint64_t now_ps) {
  const Geometry& g = drive.geometry();
  const LossContext x{state, drive, cache, buffer, checker, p, g, NandTiming(g, flash, bus), now_ps, uint32_t(g.logical_units)};
  RecoveryReport r;
  r.at_ps = now_ps;
  r.lost_unacknowledged = unacknowledged_units;
  RecoveryPlan plan = dump_at_loss(x, r);
  RecoveryTimeline rec(g, x.timing);
  plan_reads(x, plan, rec, r);
  scan_blocks(x, plan, rec, r);
  rebuild(x, plan, r);
  write_checkpoint(x, plan, rec, r);
  verify_recovery(x, plan, r);
  track_recovery_changes(state, drive, checker);  // the next loss checks what changes from here on
  return r;
}

void track_recovery_changes(PowerLossState& state, DriveState& drive, IntegrityChecker& checker) {
  LpnChangeLog& log = drive.changes();
  if (log.armed()) log.clear(); else log.arm(drive.geometry().logical_units);
  checker.track_changes(&log);
  state.close_clock = drive.blocks().close_clock();
}

}  // namespace ssdtlm
