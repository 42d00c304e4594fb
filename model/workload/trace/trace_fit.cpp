#include "workload/trace/trace_fit.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "common/units.h"
#include "config/choices.h"

namespace ssdtlm {

namespace {
std::string size(uint64_t b) { return format_size(double(b)); }
std::string percent(uint64_t a, uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", b ? 100.0 * double(a) / double(b) : 0.0);
  return buf;
}
// The fit's name, as workload.trace_fit spells it.
const char* fit_name(TraceFitMode m) { return choice_name(choices::kWorkloadTraceFit, m); }
}  // namespace

FittedTrace::FittedTrace(std::function<std::unique_ptr<TraceWorkload>()> open, uint64_t device_bytes,
                         TraceFitMode mode)
    : device_(device_bytes), requested_(mode), applied_(mode) {
  {  // measure the trace
    std::unique_ptr<TraceWorkload> scan = open();
    path_ = scan->path();
    IoRequest r;
    bool first = true;
    while (scan->next(r)) {
      const uint64_t end = r.offset + r.bytes;
      if (end < r.offset)  // past 2^64: no fit mode can place it, and the sum would wrap around
        throw TraceFitError(path_ + ":" + std::to_string(scan->lines_read()) + ": a request at offset " +
                            std::to_string(r.offset) + " + " + std::to_string(r.bytes) +
                            " bytes ends beyond 2^64 bytes, the largest byte address a trace can give");
      if (r.bytes > device_)
        throw TraceFitError(path_ + ":" + std::to_string(scan->lines_read()) + ": a request of " + size(r.bytes) +
                            " is larger than the whole device (" + size(device_) + ")");
      if (first || r.offset < extent_.min_offset) extent_.min_offset = r.offset;
      if (end > extent_.max_end) extent_.max_end = end;
      if (end > device_ && extent_.beyond++ == 0) {
        extent_.first_beyond_line = scan->lines_read();
        extent_.first_beyond_offset = r.offset;
        extent_.first_beyond_bytes = r.bytes;
      }
      if (!first && r.time_ns < extent_.last_arrival_ns && extent_.backward_times++ == 0)
        extent_.first_backward_line = scan->lines_read();
      if (r.bytes % 512 && extent_.unaligned_sizes++ == 0) extent_.first_unaligned_line = scan->lines_read();
      extent_.last_arrival_ns = std::max(extent_.last_arrival_ns, r.time_ns);
      ++extent_.requests;
      first = false;
    }
    extent_.skipped_lines = scan->skipped_lines();
  }
  const TraceExtent& e = extent_;
  const std::string first_beyond =
      e.beyond ? path_ + ":" + std::to_string(e.first_beyond_line) + " (offset " + std::to_string(e.first_beyond_offset) +
                     " + " + std::to_string(e.first_beyond_bytes) + " bytes, ending at " +
                     size(e.first_beyond_offset + e.first_beyond_bytes) + ")"
               : "";
  const std::string choices =
      "Choose how to fit it: workload.trace_fit=wrap (fold offsets back into the device, changing their locality), "
      "scale (multiply every offset by device / trace span, keeping relative positions), shift (subtract the "
      "trace's lowest offset, " + size(e.min_offset) + ") or error; or replay one device of a multi-device trace "
      "with workload.trace_devno, or use a larger device";
  if (mode == TraceFitMode::Auto) {
    if (e.beyond * 100 > e.requests)  // more than 1%
      throw TraceFitError(path_ + ": " + std::to_string(e.beyond) + " of " + std::to_string(e.requests) + " requests (" +
                          percent(e.beyond, e.requests) + ") end beyond the device's " + size(device_) +
                          " (the trace needs " + size(e.max_end) + "; the first is at " + first_beyond + "). " + choices);
    applied_ = TraceFitMode::Wrap;
  } else if (mode == TraceFitMode::Error) {
    if (e.beyond)
      throw TraceFitError(path_ + ": the trace needs " + size(e.max_end) + " but the device holds " + size(device_) +
                          "; the first request beyond it is at " + first_beyond + " (" + std::to_string(e.beyond) +
                          " of " + std::to_string(e.requests) + " requests, " + percent(e.beyond, e.requests) + "). " +
                          choices);
  } else if (mode == TraceFitMode::Shift) {
    shift_ = e.min_offset & ~uint64_t(4095);
    if (e.requests && e.max_end - shift_ > device_)
      throw TraceFitError(path_ + ": shifted down by " + size(shift_) + " the trace still needs " +
                          size(e.max_end - shift_) + " but the device holds " + size(device_) +
                          "; use workload.trace_fit=scale or wrap, or a larger device");
  } else if (mode == TraceFitMode::Scale) {
    if (e.max_end > device_) scale_ = double(device_) / double(e.max_end);
  }
  reader_ = open();
}

bool FittedTrace::next(IoRequest& r) {
  if (!reader_->next(r)) return false;
  ++issued_;
  const uint64_t old = r.offset;
  switch (applied_) {
    case TraceFitMode::Wrap:
      if (r.offset + r.bytes > device_) {
        r.offset %= device_;
        if (r.offset + r.bytes > device_) r.offset = (device_ - r.bytes) & ~uint64_t(511);
      }
      break;
    case TraceFitMode::Scale:
      if (scale_ < 1.0) {
        const uint64_t align = r.offset % 4096 == 0 ? 4096 : 512;
        uint64_t o = uint64_t((long double)r.offset * (long double)scale_);
        o -= o % align;
        if (o + r.bytes > device_) o = (device_ - r.bytes) & ~(align - 1);
        r.offset = o;
      }
      break;
    case TraceFitMode::Shift:
      r.offset -= shift_;
      break;
    default:
      break;
  }
  if (r.offset != old) ++refitted_;
  return true;
}

std::string FittedTrace::describe() const {
  const uint64_t n = issued_;
  const std::string of = std::to_string(refitted_) + " of " + std::to_string(n) + " trace requests (" +
                         percent(refitted_, n) + ")";
  char factor[32];
  std::snprintf(factor, sizeof factor, "%.4g", scale_);
  switch (applied_) {
    case TraceFitMode::Wrap:
      if (refitted_ == 0) break;
      return std::string(requested_ == TraceFitMode::Auto ? "auto -> wrap" : "wrap") + ": " + of +
             " folded back into the device (the trace spans " + size(extent_.max_end) + ", the device " + size(device_) +
             ")";
    case TraceFitMode::Scale:
      if (scale_ >= 1.0) break;
      return "scale: " + of + " moved, offsets x " + factor + " (the trace spans " + size(extent_.max_end) +
             ", the device " + size(device_) + ")";
    case TraceFitMode::Shift:
      return "shift: " + of + " moved down by " + size(shift_);
    default:
      break;
  }
  return std::string(fit_name(requested_)) + ": none of " + std::to_string(n) +
         " trace requests refitted (the trace spans " + size(extent_.max_end) + ", the device " + size(device_) + ")";
}

void FittedTrace::report(nlohmann::json& into) const {
  const TraceExtent& e = extent_;
  into["trace"] = {{"path", path()},
                   {"requests", e.requests},
                   {"skipped_lines", e.skipped_lines},
                   {"fit", fit_name(requested())},
                   {"fit_applied", fit_name(applied())},
                   {"refitted_requests", refitted()},
                   {"beyond_device_requests", e.beyond},
                   {"min_offset_bytes", e.min_offset},
                   {"span_bytes", e.max_end},
                   {"device_bytes", device_bytes()},
                   {"scale", scale()},
                   {"shift_bytes", shift()},
                   {"summary", describe()},
                   {"warnings",
                    {{"backward_times", e.backward_times},
                     {"first_backward_line", e.first_backward_line},
                     {"unaligned_sizes", e.unaligned_sizes},
                     {"first_unaligned_line", e.first_unaligned_line}}}};
}

}  // namespace ssdtlm
