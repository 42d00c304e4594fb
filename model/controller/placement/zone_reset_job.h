// The zone reset job: the one sequencing of zns.reset_erase=reset (a Zone Reset's blocks erased at the reset, as a
// drive that erases at reset does: ConfZNS charges the erase on the reset), the reset completing once they are. The
// job decides which of a reset's blocks erase now and hands each erase to an executor X, whose completion comes back
// to on_erase. X is a final class (no virtual call):
// - timed (controller/ftl_zone_erase.cpp, ZoneEraser): erases through the FTL module's sockets, completions at their
//   simulated times (routed by FtlOpTag), the command completed to the host; X::kTimed = true;
// - immediate: none in production. The fast-forward never meets a zone reset: a zoned namespace starts with every
//   zone empty and turns preconditioning off (config/params.cpp), and its writes go by zone, not by LPN.
//   tests/controller/placement/fake_zone_exec.h runs the job against a fake executor, timed or immediate.
// zns.reset_erase=lazy erases nothing at the reset: the reset completes at once and GC takes the empty blocks (no
// copy) when the dies need free blocks (HostPath::zone_send).
//
// Per block of a reset, once it is neither open (its zone's slot still draining, its programs in flight) nor GC's
// victim (GC tells when it is erased: erased()): closed with nothing valid, it is taken as a victim, checked
// (check.integrity) and erased; closed holding valid data (a write admitted before the reset that landed after it),
// it is left to GC, counted as kept; already free (GC erased it first), it counts as done.
//
// Executor interface (X):
//   static constexpr bool kTimed;  (Reset, the job's second parameter: what a reset completes; timed: the command)
//   FlashCounters& counters(uint32_t die); IntegrityChecker* checker(); uint64_t now();
//   void erase(die, gblock)        -> job.on_erase(die, gblock)
//   void done(Reset r)             the reset's blocks are all erased or kept
//   timed only: erase_landed(die)  (the die may take host writes, GC may start), host_progress().
#pragma once
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "controller/drive_state.h"
#include "controller/ftl_engines.h"
#include "controller/gc/gc_engine.h"

namespace ssdtlm {

template <class X, class Reset>
class ZoneResetJob {
 public:
  ZoneResetJob(const FtlEngines& e, X& x) : gc_(e.gc), state_(e.state), x_(x) {}

  void reset(Reset r, const std::vector<uint32_t>& blocks);  // done(r) once the blocks are erased (or kept)
  void kick();                                 // erases the blocks that may be erased now
  void on_erase(uint32_t die, uint32_t gblock);  // an erase it issued landed
  void erased(uint32_t gblock);                // GC erased a block (it may be one a reset waits for)
  bool waiting() const { return !pending_.empty() || !inflight_.empty(); }
  uint32_t in_flight() const { return uint32_t(inflight_.size()); }
  uint64_t erases() const { return erases_; }  // blocks erased for resets (by it, or by GC first)
  uint64_t kept() const { return kept_; }      // blocks of reset zones left holding valid data
  std::string describe() const;                // the blocks resets wait for, with their states (a stuck run)

 private:
  void finish(uint32_t job);
  struct Job {
    Reset reset{};
    uint32_t left = 0;
  };
  GcEngine& gc_;
  DriveState& state_;
  X& x_;
  std::vector<std::pair<uint32_t, uint32_t>> pending_;   // (block, job) not yet erasable
  std::vector<std::pair<uint32_t, uint32_t>> inflight_;  // (block, job) being erased
  std::vector<Job> jobs_;
  std::vector<uint32_t> free_jobs_;
  uint64_t erases_ = 0, kept_ = 0;
};

template <class X, class Reset>
void ZoneResetJob<X, Reset>::reset(Reset r, const std::vector<uint32_t>& blocks) {
  uint32_t job;
  if (free_jobs_.empty()) {
    job = uint32_t(jobs_.size());
    jobs_.emplace_back();
  } else {
    job = free_jobs_.back();
    free_jobs_.pop_back();
  }
  jobs_[job] = Job{r, uint32_t(blocks.size())};
  for (uint32_t b : blocks) pending_.emplace_back(b, job);
  if (blocks.empty()) finish(job);
  kick();
}

template <class X, class Reset>
void ZoneResetJob<X, Reset>::finish(uint32_t job) {
  const Reset r = jobs_[job].reset;
  jobs_[job].reset = Reset{};
  free_jobs_.push_back(job);
  x_.done(r);
}

template <class X, class Reset>
void ZoneResetJob<X, Reset>::kick() {
  BlockManager& blocks = state_.blocks();
  for (size_t i = 0; i < pending_.size();) {
    const auto [b, job] = pending_[i];
    const BlockState st = blocks.state(b);
    if (st == BlockState::Open || st == BlockState::Victim) {  // still closing, or GC's (it tells when erased)
      ++i;
      continue;
    }
    pending_[i] = pending_.back();
    pending_.pop_back();
    if (st == BlockState::Full && blocks.valid(b) == 0 && blocks.take_victim(b)) {
      if (IntegrityChecker* checker = x_.checker()) gc_.check_erase(b, *checker, x_.now());
      inflight_.emplace_back(b, job);
      x_.erase(state_.geometry().die_of_gblock(b), b);
      continue;
    }
    if (st == BlockState::Full) ++kept_;  // valid data written after the reset: GC's to collect
    if (--jobs_[job].left == 0) finish(job);
  }
}

template <class X, class Reset>
void ZoneResetJob<X, Reset>::on_erase(uint32_t die, uint32_t gblock) {
  gc_.land_erase(gblock, x_.counters(die));
  auto it = std::find_if(inflight_.begin(), inflight_.end(), [&](const auto& e) { return e.first == gblock; });
  const uint32_t job = it->second;
  *it = inflight_.back();
  inflight_.pop_back();
  ++erases_;
  if constexpr (X::kTimed) x_.erase_landed(die);
  if (--jobs_[job].left == 0) finish(job);
  if constexpr (X::kTimed) x_.host_progress();
}

template <class X, class Reset>
void ZoneResetJob<X, Reset>::erased(uint32_t gblock) {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].first != gblock) continue;
    const uint32_t job = pending_[i].second;
    pending_[i] = pending_.back();
    pending_.pop_back();
    ++erases_;
    if (--jobs_[job].left == 0) finish(job);
    return;
  }
}

template <class X, class Reset>
std::string ZoneResetJob<X, Reset>::describe() const {
  static const char* const kState[] = {"free", "open", "full", "victim", "cached"};
  const BlockManager& blocks = state_.blocks();
  std::string s = std::to_string(pending_.size()) + " blocks to erase, " + std::to_string(inflight_.size()) +
                  " erasing";
  for (size_t i = 0; i < pending_.size() && i < 4; ++i) {
    const uint32_t b = pending_[i].first;
    s += (i ? ", " : ": ") + std::string("block ") + std::to_string(b) + " " + kState[uint32_t(blocks.state(b))] +
         " (" + std::to_string(blocks.valid(b)) + " valid, " + std::to_string(blocks.pages_written(b)) + " pages)";
  }
  return s;
}

}  // namespace ssdtlm
