// The FTL host path's read-ahead (cache.read_ahead=sequential; read_ahead/README.md): the flash reads that fetch a
// sequential stream's next units into DRAM, host reads served from them, and their landing. The engine
// (read_ahead/read_ahead.h) decides what to fetch and holds what was fetched.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

bool HostPath::read_ahead_hit(NvmeCommand& cmd, uint32_t i) {
  ReadAhead::Held h;
  const uint32_t lpn = cmd.lpn + i;
  if (!f_.read_ahead_->take(lpn, &h)) return false;
  if (h.op) {  // its flash read is under way: the command waits for it (on_read_ahead)
    if (cmd.path == ReadPath::Buffer) cmd.path = ReadPath::Data;
    ra_waiters_.push_back(ReadAheadWaiter{&cmd, i, h.op});
    ++cmd.pending;
    return true;
  }
  if (f_.checker_) f_.checker_->check(lpn, cmd.expect[i], h.found_lpn, h.version, now_ps());
  cmd.ready_ps = std::max(cmd.ready_ps, h.ready_ps);
  return true;
}

// The units the engine asks for that are neither buffered, held nor unmapped, read page by page (each flash page
// once, its units together) as the host read path reads, from when the command's map work is done.
void HostPath::read_ahead(const NvmeCommand& cmd) {
  const Geometry& g = f_.g_;
  ReadAhead& ra = *f_.read_ahead_;
  uint32_t first, end;
  ra.on_read(cmd.lpn, cmd.units, g.logical_units, &first, &end);
  FlashOp* cur = nullptr;
  for (uint32_t lpn = first; lpn < end; ++lpn) {
    uint32_t version;
    if (ra.holds(lpn) || f_.buffer_->lookup(lpn, &version)) continue;
    const uint32_t ppa = f_.e_.state.lookup(lpn);
    if (ppa == kInvalid) continue;
    const UnitAddress a = g.decode(ppa);
    if (!cur || cur->die != a.die || cur->block != a.block || cur->page != a.page) {
      if (cur) f_.send(*cur, cmd.ready_ps);
      cur = &open_user_read(a, kReadAhead);
      ra.page_issued();
    }
    cur->slot_mask |= 1u << a.slot;
    cur->aux[a.slot] = lpn;
    ra.add(lpn, cur);
  }
  if (cur) f_.send(*cur, cmd.ready_ps);
}

void HostPath::on_read_ahead(FlashOp& op) {
  ReadAhead& ra = *f_.read_ahead_;
  for (uint32_t m = op.slot_mask; m; m &= m - 1) {
    const uint32_t s = uint32_t(__builtin_ctz(m));
    ra.landed(op.aux[s], &op, op.done_ps, op.lpn[s], op.version[s], !op.uncorrectable);
  }
  // Host reads that found these units in flight take them now, as a read of this flash page would have.
  for (size_t w = 0; w < ra_waiters_.size();) {
    ReadAheadWaiter waiter = ra_waiters_[w];
    if (waiter.op != &op) {
      ++w;
      continue;
    }
    ra_waiters_[w] = ra_waiters_.back();
    ra_waiters_.pop_back();
    NvmeCommand& cmd = *waiter.cmd;
    const uint32_t lpn = cmd.lpn + waiter.index;
    for (uint32_t m = op.slot_mask; m; m &= m - 1) {
      const uint32_t s = uint32_t(__builtin_ctz(m));
      if (op.aux[s] != lpn) continue;
      if (f_.checker_ && !op.uncorrectable) f_.checker_->check(lpn, cmd.expect[waiter.index], op.lpn[s], op.version[s], op.done_ps);
    }
    cmd.ready_ps = std::max(cmd.ready_ps, op.done_ps);
    cmd.retries = std::max(cmd.retries, op.retries);
    cmd.soft_tier = std::max(cmd.soft_tier, op.soft_tier);
    cmd.uncorrectable = cmd.uncorrectable || op.uncorrectable;
    if (--cmd.pending == 0) finish_read(cmd);
  }
}

}  // namespace ssdtlm
