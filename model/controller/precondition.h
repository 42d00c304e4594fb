// Preconditioning by fast-forward: the FTL algorithms run without SystemC timing (millions of page
// writes per second) to bring a drive to steady state before the timed run.
#pragma once
#include <cstdint>
#include <functional>

#include "controller/integrity_checker.h"
#include "controller/page_ftl.h"
#include "host/io_request.h"

namespace ssdtlm {

struct PreconditionResult {
  uint64_t units_written = 0;
  uint64_t nand_programs = 0;  // page programs, user data and GC copies
  double wall_s = 0;
};

// Fills the logical space sequentially (if fill), then writes drive_writes x logical units taken from
// the write requests of `overwrite`. Pages are striped over dies round-robin, channel first.
// `progress(done, total)` is called now and then.
PreconditionResult precondition(PageFtl& ftl, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress);

}  // namespace ssdtlm
