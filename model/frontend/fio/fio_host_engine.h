// fio's ioengine (and hipri) -> the host's CPU cost per I/O (host.engine, model/host/io_engine_cost.h).
//
// The costs are those of one published measurement, Jens Axboe's per-core comparison of the Linux I/O interfaces
// (4 KiB random reads, QD128, one core; model/host/io_engine_cost.h), which has three rows: libaio with
// interrupts, io_uring polled, SPDK polled. Each fio engine takes the row of the same completion path:
//   libaio                                  -> libaio          (the measured row)
//   io_uring, io_uring_cmd with hipri       -> io_uring_poll   (the measured row: polled completions)
//   io_uring, io_uring_cmd without hipri    -> libaio          (interrupt-driven completions: the table's only
//                                                               interrupt row; an upper bound for io_uring, which
//                                                               saves libaio's copies of iocbs and events)
//   sync, psync, vsync, pvsync, pvsync2     -> libaio          (one system call per I/O, completion by interrupt:
//                                                               the closest row; no cited measurement of its own)
//   pvsync2 with hipri                      -> io_uring_poll   (RWF_HIPRI: polled completions, the closest row)
//   spdk, spdk_bdev                         -> spdk            (the measured row; spdk_bdev adds SPDK's bdev layer)
//   any other block engine (posixaio, mmap, sg, xnvme, libblkio, windowsaio, ...) -> no cited cost: host.engine is
//                                                               left as configured, and a note says so.
// fio's default engine (no ioengine line) is psync, and costs as psync does.
#pragma once

#include <string>

namespace ssdtlm {
namespace fio {

struct HostEngineChoice {
  std::string engine;  // a host.engine value, or "" when no cited cost applies
  std::string basis;   // why, for the run's note: "ioengine=io_uring without hipri: interrupt-driven (...)"
};

HostEngineChoice host_engine_for(const std::string& ioengine, bool hipri);

}  // namespace fio
}  // namespace ssdtlm
