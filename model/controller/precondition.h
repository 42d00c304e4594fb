// Preconditioning by fast-forward: the FTL algorithms run without SystemC timing (millions of page
// writes per second) to bring a drive to steady state before the timed run.
#pragma once
#include <cstdint>
#include <functional>

#include "controller/integrity_checker.h"
#include "controller/fast_forward.h"
#include "flash/geometry.h"
#include "host/io_request.h"

namespace ssdtlm {

struct PreconditionResult {
  uint64_t units_written = 0;
  uint64_t nand_programs = 0;  // page programs, user data and GC copies
  double wall_s = 0;
  unsigned threads = 1;        // workers that ran it
  bool fill = false;           // what was asked (precondition.fill, precondition.drive_writes): the drive's state
  double drive_writes = 0;     //   at the start of the timed run
};

// The drive's fast-forward (PageFtl::fast_forward()) fills the logical space sequentially (if fill), then writes
// drive_writes x logical units taken from the write requests of `overwrite`.
//
// Placement is static: stripes of whole pages (at least 16 units, one cache line of map entries) are
// dealt to the dies round-robin, channel first, so a unit always goes to the die of its stripe and each
// die sees its own units in workload order. That makes the dies independent: `threads` workers (0 = one
// per hardware thread) claim groups of dies batch by batch while the caller generates the next batch,
// and the result is the same for any number of workers. Each die pads its last partial page, and its partial
// GC page (the timed run starts with no victim half collected).
// With a demand-based mapping scheme the writes go through the map cache (write-backs programmed on
// the die being written) on one worker, so the timed run starts with the cache as the writes left it.
// `progress(done, total)` is called now and then, from the calling thread.
PreconditionResult precondition(FastForward& ff, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress,
                                unsigned threads = 1);

// Units per placement stripe for geometry g (a multiple of units_per_page).
uint32_t precondition_stripe_units(const Geometry& g);

}  // namespace ssdtlm
