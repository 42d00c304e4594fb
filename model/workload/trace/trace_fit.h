// Traces that do not fit the device: a trace is read once to learn its extent (requests, lowest offset,
// highest end, the first request beyond the device, the last arrival), then replayed with every request
// refitted by one rule (workload.trace_fit):
//
//   error  stop before the run, naming the first request beyond the device and the size the trace needs
//   wrap   offset mod capacity; a request that still crosses the end moves back to the last 512 B-aligned
//          position where it fits (what the host did before; changes the trace's locality)
//   scale  when the trace needs more than the device: offset * capacity / needed, rounded down to 4 KiB
//          when the offset was 4 KiB-aligned (else to 512 B), so relative positions are kept
//   shift  subtract the trace's lowest offset (rounded down to 4 KiB, keeping alignment); an error if the
//          shifted trace still does not fit
//   auto   wrap when at most 1% of the requests would fold, else error (the default)
//
// Only requests that change are counted as refitted. Plain C++: no SystemC.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include "workload/trace/trace_reader.h"

namespace ssdtlm {

// workload.trace_fit (its names: config/choices.h).
enum class TraceFitMode : uint8_t { Auto, Error, Wrap, Scale, Shift };

// A trace that cannot be refitted as asked; the message names the request, the sizes and the choices.
struct TraceFitError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct TraceExtent {
  uint64_t requests = 0;
  uint64_t min_offset = 0, max_end = 0;  // over all requests (0, 0 when none)
  uint64_t beyond = 0;                   // requests that end past the device
  uint64_t first_beyond_line = 0, first_beyond_offset = 0;
  uint32_t first_beyond_bytes = 0;
  uint64_t last_arrival_ns = 0;
  uint64_t skipped_lines = 0;            // malformed lines skipped (lenient)
  // Accepted with a counted warning (summary host.trace.warnings): requests timed before a request earlier
  // in the file (open loop issues them at once, out of trace order; closed loop ignores times), and sizes
  // that are not a multiple of 512 B (served, as sub-unit writes are). First line of each, 0 when none.
  uint64_t backward_times = 0, first_backward_line = 0;
  uint64_t unaligned_sizes = 0, first_unaligned_line = 0;
};

class FittedTrace : public Workload {
 public:
  // `open` opens the trace from its start (called twice: to measure it, then to replay it).
  FittedTrace(std::function<std::unique_ptr<TraceWorkload>()> open, uint64_t device_bytes, TraceFitMode mode);

  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return {issued_, extent_.requests, "trace requests"}; }
  uint64_t last_arrival_ns() const override { return extent_.last_arrival_ns; }
  void report(nlohmann::json& into) const override;  // "trace": how its requests were fitted to the device

  const TraceExtent& extent() const { return extent_; }
  TraceFitMode requested() const { return requested_; }
  TraceFitMode applied() const { return applied_; }  // Auto resolved to Wrap; Scale and Shift as asked
  uint64_t refitted() const { return refitted_; }     // requests whose offset changed so far
  double scale() const { return scale_; }             // Scale: the factor (1 = unchanged)
  uint64_t shift() const { return shift_; }           // Shift: bytes subtracted
  const std::string& path() const { return path_; }
  uint64_t device_bytes() const { return device_; }
  // One line for the terminal: how many requests were refitted and how.
  std::string describe() const;

 private:
  std::unique_ptr<TraceWorkload> reader_;
  std::string path_;
  uint64_t device_;
  TraceFitMode requested_, applied_;
  TraceExtent extent_;
  double scale_ = 1.0;
  uint64_t shift_ = 0;
  uint64_t issued_ = 0, refitted_ = 0;
};

}  // namespace ssdtlm
