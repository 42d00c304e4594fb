// The FTL's zone eraser (ftl_parts.h): the timed executor of the zone reset job (placement/zone_reset_job.h,
// zns.reset_erase=reset). The job decides which of a reset's blocks erase and when; this file turns its erases into
// flash operations through the module's sockets, routes their completions back to the job, completes the reset's
// command, and tells the rest of the module what an erase changed (flush pacing, GC, writes waiting for room).
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

ZoneEraser::ZoneEraser(Ftl& f) : f_(f), job_(f.e_, *this) {}

FlashCounters& ZoneEraser::counters(uint32_t) { return f_.e_.state.counters(); }
IntegrityChecker* ZoneEraser::checker() { return f_.checker_; }
uint64_t ZoneEraser::now() { return now_ps(); }

void ZoneEraser::erase(uint32_t die, uint32_t gblock) {
  FlashOp& op = f_.new_op(FlashCmd::Erase, die, kZoneErase);
  op.block = f_.g_.block_in_die(gblock);
  f_.send(op);
}

void ZoneEraser::done(NvmeCommand* cmd) { f_.complete(*cmd, std::max(cmd->ready_ps, now_ps())); }

void ZoneEraser::erase_landed(uint32_t die) {
  f_.flush_.refresh(die);
  f_.gc_.kick(die);
}

void ZoneEraser::host_progress() {
  f_.host_.admit_writes();
  f_.flush_.pump();
}

void ZoneEraser::on_erase(FlashOp& op) { job_.on_erase(op.die, op.die * f_.g_.blocks_per_die + op.block); }

}  // namespace ssdtlm
