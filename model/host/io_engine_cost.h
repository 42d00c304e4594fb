// The host's CPU time per I/O of an I/O engine (host.engine; docs/results/drives/README.md, "The host side").
// Source: Jens Axboe's per-core comparison of the Linux I/O interfaces, 4 KiB random reads at queue depth 128
// on one core ("Efficient IO with io_uring", kernel.dk, 2019; the table quoted in
// github.com/WyattJia/WyattJia/issues/61): libaio (interrupts) 608K IOPS, io_uring polled 1,620K, SPDK polled
// 1,739K. A core that does nothing but the I/O path spends 1 / IOPS on each I/O: 1,645, 617 and 575 ns. The
// table gives the sum only; it is spent half to submit and half to reap (in the model both are spent by the
// queue's thread one I/O at a time, so a latency and a queue's rate cap depend on the sum alone). A fio job file's
// ioengine picks one of these rows (frontend/fio/fio_host_engine.h).
#pragma once

#include <optional>
#include <string>

namespace ssdtlm {

struct EngineCostNs {
  double submit_ns = 0, complete_ns = 0;
};

// The cost of a named engine, or nothing for "none" (host.submit_ns and host.complete_ns as set).
inline std::optional<EngineCostNs> io_engine_cost(const std::string& engine) {
  double per_io_ns = 0;
  if (engine == "libaio") per_io_ns = 1e9 / 608e3;
  else if (engine == "io_uring_poll") per_io_ns = 1e9 / 1620e3;
  else if (engine == "spdk") per_io_ns = 1e9 / 1739e3;
  else return std::nullopt;
  return EngineCostNs{per_io_ns / 2, per_io_ns / 2};
}

}  // namespace ssdtlm
