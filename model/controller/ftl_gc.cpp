// The FTL's GC driver (ftl_parts.h): the timed executor of the GC job (gc/gc_job.h). The job sequences GC and the
// engine (gc/gc_engine.h) decides; this file turns the job's reads, programs and erases (and map-block victims'
// reads and copies) into flash operations through the module's sockets, routes their completions back to the job,
// and tells the rest of the module what GC changed (flush pacing, map work waiting for room, zone resets).
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"
#include "controller/gc/gc_job.h"

namespace ssdtlm {

GcDriver::GcDriver(Ftl& f, const FtlEngines& e) : f_(f), job_(std::make_unique<GcJob<GcDriver>>(e, *this)) {}
GcDriver::~GcDriver() = default;

void GcDriver::kick(uint32_t die) { job_->kick(die); }
void GcDriver::host_idle(bool idle) { job_->host_idle(idle); }
void GcDriver::advance(uint32_t die) { job_->advance(die); }

// ---------------------------------------------------------------- the executor's operations

FlashCounters& GcDriver::counters(uint32_t) { return f_.e_.state.counters(); }
StreamStats* GcDriver::stream_stats() { return &f_.streams_.stats(); }
IntegrityChecker* GcDriver::checker() { return f_.checker_; }
uint64_t GcDriver::now() { return now_ps(); }

void GcDriver::read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, bool fold) {
  if (f_.streams_.params().gc == GcStreams::HotCold)  // GC classifies the units by count: fetch the counts now
    for (uint32_t m = mask; m; m &= m - 1)
      f_.streams_.prefetch(f_.e_.state.die(die).lpn((block * f_.g_.pages_per_block + page) * f_.g_.units_per_page +
                                                uint32_t(__builtin_ctz(m))));
  FlashOp& op = f_.new_op(FlashCmd::Read, die, kGcRead);
  op.block = block;
  op.page = page;
  op.slot_mask = mask;
  op.read_kind = ReadKind::Gc;
  op.fold = fold;
  f_.send(op);
}

void GcDriver::program(const GcPage& page) {
  FlashOp& op = f_.new_op(FlashCmd::Program, page.die, kGcProgram);
  op.block = f_.g_.block_of(page.ppa);
  op.page = f_.g_.page_of(page.ppa);
  op.kind = UnitKind::GUD;
  op.stream = page.stream;
  op.fold = page.fold;
  std::copy(page.lpn, page.lpn + f_.g_.units_per_page, op.lpn);
  std::copy(page.version, page.version + f_.g_.units_per_page, op.version);
  std::copy(page.old, page.old + f_.g_.units_per_page, op.aux);
  // A hint: the units' map entries are read and written when the page lands (GcEngine::land_page).
  for (uint32_t s = 0; s < page.n; ++s)
    if (page.lpn[s] != kInvalid) f_.e_.state.prefetch_map(page.lpn[s]);
  f_.send(op, f_.e_.gc.die(page.src).data_ps);
  if (op.page == 0 && f_.e_.state.blocks().unit().shared_by_group())
    f_.flush_.refresh_group(page.die);  // a block opened: maybe a free unit of the group taken
  else f_.flush_.refresh(page.die);
}

void GcDriver::erase(uint32_t die, uint32_t victim) {
  FlashOp& op = f_.new_op(FlashCmd::Erase, die, kGcErase);
  op.block = f_.g_.block_in_die(victim);
  f_.send(op);
}

void GcDriver::map_read(uint32_t die, uint32_t block, uint32_t page, uint32_t segments) {
  FlashOp& op = f_.new_op(FlashCmd::Read, die, kGcMapRead);
  op.block = block;
  op.page = page;
  op.bytes = segments * f_.ts_->segment_bytes();
  op.read_kind = ReadKind::Gc;
  f_.send(op);
}

void GcDriver::map_program(uint32_t src, uint32_t to, uint32_t ppa) {
  FlashOp& op = f_.map_.map_page_op(to, ppa, kGcMapProgram, UnitKind::GMD);
  op.aux[0] = src;  // the collecting die
  f_.send(op, f_.e_.gc.die(src).data_ps);
  job_->kick(to);
  f_.flush_.refresh(to);
}

void GcDriver::map_stalled(uint32_t die) { f_.map_.stalled_gc(die); }

void GcDriver::map_updates(uint32_t src, const uint32_t* moved, uint32_t n) {
  f_.map_.updates(moved, n, MapWorkQueue::Waiter{MapWorkQueue::Waiter::Gc, nullptr, src},
                  &f_.e_.gc.die(src).map_updates, true);
}

void GcDriver::gc_moves(uint32_t die) { f_.map_.gc_moves(die, &f_.e_.gc.die(die).map_updates); }

// ---------------------------------------------------------------- what GC changed, for the rest of the module

void GcDriver::erased(uint32_t, uint32_t gblock) {
  if (f_.zone_erase_.waiting()) f_.zone_erase_.erased(gblock);
  if (f_.ts_) f_.map_.retry();
}

void GcDriver::erase_refresh(uint32_t die, uint32_t lines_before) {
  const BlockManager& b = f_.e_.state.blocks();
  if (f_.e_.victims.pacing().lines_hold_host() && lines_before && !b.pool().units_in_gc())
    f_.flush_.refresh_all();  // the last line in GC is free: every die may take host writes again
  else if (b.unit().shared_by_group() && b.pool().units_in_gc() != lines_before)
    f_.flush_.refresh_group(die);  // a unit is free: every die of its group may take host writes again
  else
    f_.flush_.refresh(die);
}

void GcDriver::refresh(uint32_t die) { f_.flush_.refresh(die); }
void GcDriver::refresh_all() { f_.flush_.refresh_all(); }
void GcDriver::job_ended() { f_.flush_.gc_ended(); }

void GcDriver::host_progress() {
  f_.host_.admit_writes();
  f_.flush_.pump();
}

// ---------------------------------------------------------------- completions, routed by FtlOpTag

void GcDriver::on_read(FlashOp& op) {
  job_->on_read(op.die, op.block, op.page, op.slot_mask, [&](uint32_t s) { return op.lpn[s]; },
                [&](uint32_t s) { return op.version[s]; }, op.done_ps);
}

void GcDriver::on_program(FlashOp& op) {
  GcPage page;
  page.die = op.die;
  page.src = f_.g_.die_of(op.aux[0]);  // the die whose job staged it: its first unit's old location (never padding)
  page.ppa = f_.g_.ppa(op.die, op.block, op.page);
  page.n = f_.g_.units_per_page;  // (padding units have no LPN)
  page.stream = op.stream;
  std::copy(op.lpn, op.lpn + f_.g_.units_per_page, page.lpn);
  std::copy(op.aux, op.aux + f_.g_.units_per_page, page.old);
  job_->on_program(page);
}

void GcDriver::on_erase(FlashOp& op) { job_->on_erase(op.die, op.die * f_.g_.blocks_per_die + op.block); }

void GcDriver::on_map_read(FlashOp& op) { job_->on_map_read(op.die, op.done_ps); }

void GcDriver::on_map_program(FlashOp& op) {
  job_->on_map_program(op.aux[0], op.die, f_.g_.ppa(op.die, op.block, op.page));
}

}  // namespace ssdtlm
