// sim.converge*: the settings of time to answer (host/convergence.h), apart from the monitor so that config/params.h
// does not pull the monitor in.
#pragma once
#include <cstdint>

namespace ssdtlm {

struct ConvergeParams {
  enum class Mode : uint8_t { Off, Report, Stop } mode = Mode::Off;  // sim.converge
  double rel_half_width = 0.01;   // sim.converge_rel_ci
  double confidence = 0.95;       // sim.converge_confidence
  uint32_t batch_ios = 1000;      // sim.converge_batch_ios
  uint32_t min_batches = 20;      // sim.converge_min_batches
  // sim.converge_batch_erase_share: a base batch also lasts until the drive has erased this share of its blocks
  // (0: base batches of batch_ios completions only), so that a batch spans a fixed share of a GC cycle.
  double batch_erase_share = 0;
  // sim.converge_min_gc_cycles: stop no earlier than when the drive has erased this many times its blocks since the
  // first measured completion (0: no such floor), so that the MSER-5 cut can see a transient as long as a GC cycle.
  double min_gc_cycles = 0;
  // sim.converge_metrics: which metrics must be within rel_half_width to stop (every one is reported)
  bool on_iops = true, on_latency_mean = true, on_latency_p99 = false, on_waf = true;
};

}  // namespace ssdtlm
