#include "controller/integrity_checker.h"

#include "flash/geometry.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void IntegrityChecker::snapshot(SnapshotArchive& a) {
  a.section("integrity checker");
  a.io_all(expected_, trimmed_from_, counter_, checked_, errors_, erases_checked_, gc_copies_checked_, first_error_);
}

void IntegrityChecker::check(uint32_t lpn, uint32_t want, uint32_t got_lpn, uint32_t got_version, uint64_t time_ps) {
  ++checked_;
  if (matches(lpn, want, got_lpn, got_version)) return;
  if (errors_++ == 0)
    first_error_ = "read of LPN " + std::to_string(lpn) + " at " + std::to_string(time_ps / 1000) +
                   " ns expected version " + std::to_string(want) + ", got LPN " +
                   (got_lpn == kInvalid ? std::string("none") : std::to_string(got_lpn)) + " version " +
                   std::to_string(got_version);
}

void IntegrityChecker::violation(const std::string& what, uint64_t time_ps) {
  std::lock_guard<std::mutex> lock(first_mutex_);
  if (errors_++ == 0) first_error_ = what + " at " + std::to_string(time_ps / 1000) + " ns";
}

}  // namespace ssdtlm
