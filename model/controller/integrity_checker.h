// End-to-end data integrity: every accepted write of a 4 KiB unit gets a new version number; every read
// is checked against the version current when the controller looked the unit up. A stale, lost or
// misplaced unit is an error, reported with the first occurrence.
//
// Invariants stronger than reads (checked by the FTL, reported here): an erase may not hit a block that a live
// mapping or a pending GC copy still refers to, and a GC copy's source must be its unit's current location
// (DriveState::check_erase, DriveState::check_gc_source). A violation is an integrity error like a bad read.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "controller/lpn_change_log.h"
#include "flash/geometry.h"  // kInvalid

namespace ssdtlm {

class SnapshotArchive;

class IntegrityChecker {
 public:
  explicit IntegrityChecker(uint64_t logical_units) : expected_(logical_units, 0) {}

  uint32_t next_version(uint32_t lpn) {
    if (++counter_ == 0) ++counter_;  // 0 means "never written"
    if (changes_) changes_->note(lpn);
    return expected_[lpn] = counter_;
  }
  uint32_t expected(uint32_t lpn) const { return expected_[lpn]; }
  // The look-ahead hint (Ftl::submit): the next command's entry, written by a write, read by a read.
  void prefetch(uint32_t lpn) const {
    if (lpn < expected_.size()) __builtin_prefetch(&expected_[lpn], 1);
  }
  void trimmed(uint32_t lpn) {
    if (changes_) changes_->note(lpn);
    if (expected_[lpn]) {  // the version the trim removed (allocated at the first trim)
      if (trimmed_from_.empty()) trimmed_from_.assign(expected_.size(), 0);
      trimmed_from_[lpn] = expected_[lpn];
    }
    expected_[lpn] = 0;
  }
  // While lpn is trimmed (expected 0): the version its last trim removed, 0 if none. A recovery that loses the
  // trim may bring back that version or an older one, never a newer one.
  uint32_t trimmed_version(uint32_t lpn) const { return trimmed_from_.empty() ? 0 : trimmed_from_[lpn]; }
  // Notes every version change into `log` from now on (controller/power_loss/, after the first loss).
  void track_changes(LpnChangeLog* log) { changes_ = log; }
  // After a power loss: lpn now holds `version` (an older one, or 0, when its last write was lost).
  void recovered(uint32_t lpn, uint32_t version) { expected_[lpn] = version; }
  uint64_t logical_units() const { return expected_.size(); }

  // Whether the unit tagged (got_lpn, got_version) is what a read of `lpn` expecting `want` may return (nothing, or
  // a version-0 unit, where nothing is expected).
  static bool matches(uint32_t lpn, uint32_t want, uint32_t got_lpn, uint32_t got_version) {
    return want == 0 ? got_lpn == kInvalid || got_version == 0 : got_lpn == lpn && got_version == want;
  }
  // A read of `lpn` expected `want`; the device returned the unit tagged (got_lpn, got_version).
  void check(uint32_t lpn, uint32_t want, uint32_t got_lpn, uint32_t got_version, uint64_t time_ps);

  // An invariant the FTL found broken (thread-safe: preconditioning workers call it).
  void violation(const std::string& what, uint64_t time_ps);
  void erase_checked() { erases_checked_.fetch_add(1, std::memory_order_relaxed); }
  void gc_copy_checked() { gc_copies_checked_.fetch_add(1, std::memory_order_relaxed); }
  uint64_t erases_checked() const { return erases_checked_.load(std::memory_order_relaxed); }
  uint64_t gc_copies_checked() const { return gc_copies_checked_.load(std::memory_order_relaxed); }

  // Saves or loads the expected versions and the counts so far (controller/snapshot).
  void snapshot(SnapshotArchive& a);
  uint64_t checked() const { return checked_; }
  size_t memory_bytes() const { return (expected_.capacity() + trimmed_from_.capacity()) * 4; }
  uint64_t errors() const { return errors_; }
  const std::string& first_error() const { return first_error_; }
  // summary.json "integrity" (checker null: check.integrity off).
  static nlohmann::json report(const IntegrityChecker* checker);

 private:
  std::vector<uint32_t> expected_;
  std::vector<uint32_t> trimmed_from_;  // per lpn: the version its last trim removed (trimmed_version)
  LpnChangeLog* changes_ = nullptr;  // track_changes
  uint32_t counter_ = 0;  // global write sequence: versions are unique, so a stale copy never matches
  uint64_t checked_ = 0;
  std::atomic<uint64_t> errors_{0}, erases_checked_{0}, gc_copies_checked_{0};
  std::mutex first_mutex_;  // first_error_ when a worker thread reports a violation
  std::string first_error_;
};

}  // namespace ssdtlm
