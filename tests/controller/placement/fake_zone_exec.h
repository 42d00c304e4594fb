// A fake executor of the zone reset job (controller/placement/zone_reset_job.h) for tests: no SystemC, no zoned
// namespace (the job reads only the blocks' states and the GC engine). Timed: erases complete when the test says, in
// issue order, applied to the die as a channel would; immediate (Timed = false): each erase completes before
// erase() returns, as the fast-forward's executors do. A reset is named by a number; done() records it.
#pragma once
#include <catch2/catch.hpp>

#include <deque>
#include <vector>

#include "../ff_drive.h"
#include "controller/integrity_checker.h"
#include "controller/placement/zone_reset_job.h"

namespace ssdtlm {

template <bool Timed>
class FakeZoneExec final {
 public:
  static constexpr bool kTimed = Timed;
  FakeZoneExec(FfDrive& d, IntegrityChecker& checker) : d_(d), checker_(checker), job_(d.ftl->engines(), *this) {}
  ZoneResetJob<FakeZoneExec, uint32_t>& job() { return job_; }

  FlashCounters& counters(uint32_t) { return d_.ftl->state().counters(); }
  IntegrityChecker* checker() { return &checker_; }
  uint64_t now() { return 0; }
  void erase(uint32_t die, uint32_t gblock) {
    ++issued;
    if constexpr (Timed) erases_.push_back({die, gblock});
    else land(die, gblock);
  }
  void done(uint32_t reset) { completed.push_back(reset); }
  void erase_landed(uint32_t) { ++landed; }
  void host_progress() {}

  // Completes the oldest erase in flight; false if none.
  bool complete() {
    if (erases_.empty()) return false;
    const auto [die, gblock] = erases_.front();
    erases_.pop_front();
    land(die, gblock);
    return true;
  }
  uint32_t in_flight() const { return uint32_t(erases_.size()); }
  uint32_t issued = 0, landed = 0;
  std::vector<uint32_t> completed;  // the resets done, in order

 private:
  void land(uint32_t die, uint32_t gblock) {
    d_.dies[die]->erase(d_.g.block_in_die(gblock));
    job_.on_erase(die, gblock);
  }
  struct Erase {
    uint32_t die, gblock;
  };
  FfDrive& d_;
  IntegrityChecker& checker_;
  std::deque<Erase> erases_;
  ZoneResetJob<FakeZoneExec, uint32_t> job_;
};

}  // namespace ssdtlm
