// A fake executor of the GC job (controller/gc/gc_job.h) for tests: no SystemC, no fast-forward. It is timed (the
// job resumes on each completion) and completes its operations when the test says, in issue order or newest first,
// applying them to the drive's dies as a channel would. fill_until_gc writes a one-die drive until it needs GC.
#pragma once
#include <catch2/catch.hpp>

#include <deque>

#include "../ff_drive.h"
#include "common/rng.h"
#include "controller/gc/gc_job.h"

namespace ssdtlm {

class FakeGcExec final {
 public:
  static constexpr bool kTimed = true;
  FakeGcExec(FfDrive& d, IntegrityChecker& checker) : d_(d), checker_(checker), job_(d.ftl->engines(), *this) {}
  GcJob<FakeGcExec>& job() { return job_; }

  FlashCounters& counters(uint32_t) { return c_; }
  StreamStats* stream_stats() { return nullptr; }
  IntegrityChecker* checker() { return &checker_; }
  uint64_t now() { return 0; }
  void read(uint32_t die, uint32_t block, uint32_t page, uint32_t mask, bool) {
    ops_.push_back({Op::Read, die, block, page, mask, GcPage()});
  }
  void program(const GcPage& p) {
    // Programmed on the die now (a die's queue keeps a block's pages in order), landed when completed.
    d_.dies[p.die]->program(d_.g.block_of(p.ppa), d_.g.page_of(p.ppa), p.lpn, p.version, UnitKind::GUD, p.stream);
    ops_.push_back({Op::Program, p.die, 0, 0, 0, p});
  }
  void erase(uint32_t die, uint32_t victim) { ops_.push_back({Op::Erase, die, victim, 0, 0, GcPage()}); }
  void map_read(uint32_t, uint32_t, uint32_t, uint32_t) { FAIL("no map blocks on this drive"); }
  void map_program(uint32_t, uint32_t, uint32_t) { FAIL("no map blocks on this drive"); }
  void map_stalled(uint32_t) { FAIL("no map blocks on this drive"); }
  void map_updates(uint32_t, const uint32_t*, uint32_t) {}
  void gc_moves(uint32_t) {}
  void scan_started(uint32_t) {}
  void erased(uint32_t, uint32_t) {}
  void erase_refresh(uint32_t, uint32_t) {}
  void refresh(uint32_t) {}
  void refresh_all() {}
  void job_ended() { ++ended; }
  void host_progress() {}

  // Completes the oldest operation in flight (or the newest), as a channel would, and tells the job.
  bool complete(bool newest_first) {
    if (ops_.empty()) return false;
    const Op op = newest_first ? ops_.back() : ops_.front();
    if (newest_first) ops_.pop_back();
    else ops_.pop_front();
    ++done[op.kind];
    Die& die = *d_.dies[op.die];
    switch (op.kind) {
      case Op::Read: {
        uint32_t lpn[kMaxUnitsPerPage], version[kMaxUnitsPerPage];  // the page's out-of-band data, read now
        const uint32_t first = (op.block * d_.g.pages_per_block + op.page) * d_.g.units_per_page;
        for (uint32_t s = 0; s < d_.g.units_per_page; ++s) lpn[s] = die.lpn(first + s), version[s] = die.version(first + s);
        job_.on_read(op.die, op.block, op.page, op.mask, [&](uint32_t s) { return lpn[s]; },
                     [&](uint32_t s) { return version[s]; }, 0);
      } break;
      case Op::Program:
        job_.on_program(op.page_op);
        break;
      case Op::Erase:
        die.erase(d_.g.block_in_die(op.block));
        job_.on_erase(op.die, op.block);
        break;
    }
    return true;
  }
  uint32_t in_flight() const { return uint32_t(ops_.size()); }
  uint32_t ended = 0;
  uint32_t done[3] = {};  // completions per kind: reads, programs, erases

 private:
  struct Op {
    enum Kind { Read, Program, Erase } kind;
    uint32_t die, block, page, mask;  // erase: block is the victim's global id
    GcPage page_op;
  };
  FfDrive& d_;
  IntegrityChecker& checker_;
  FlashCounters c_;
  std::deque<Op> ops_;
  GcJob<FakeGcExec> job_;
};


// Every unit of d's die 0 written, then random pages overwritten until the die is short of free blocks after a page
// (the fast-forward collected before each page), so its victims hold valid units to move.
inline void fill_until_gc(FfDrive& d) {
  uint32_t v = 1, pages = 0;
  const uint32_t pairs = uint32_t(d.g.logical_units) / 2;
  Rng rng(46);
  auto write = [&](uint32_t pair) {
    const uint32_t lpns[2] = {2 * pair, 2 * pair + 1}, versions[2] = {v, v};
    FfHostExec(d.ftl->fast_forward()).write_page(0, lpns, versions);
    ++v;
  };
  for (uint32_t p = 0; p < pairs; ++p) write(p);
  do write(uint32_t(rng.below(pairs)));
  while (!d.ftl->gc_needed(0) && ++pages < 10000);
  d.ftl->fast_forward().merge_counters();
}

// The drive fill_until_gc writes: one die of 16 blocks of 8 pages of two units, half over-provisioned.
inline std::vector<std::string> gc_drive_settings() {
  return {"geometry.channels=1", "geometry.dies_per_channel=1", "geometry.blocks_per_plane=16",
          "geometry.pages_per_block=8", "geometry.page_bytes=8192", "geometry.over_provisioning=0.5"};
}

}  // namespace ssdtlm
