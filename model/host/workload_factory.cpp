#include "host/workload_factory.h"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "config/config.h"
#include "common/units.h"
#include "host/apps/app_workload.h"
#include "flash/geometry.h"
#include "host/jesd219.h"
#include "host/synthetic_workload.h"
#include "host/trace_fit.h"
#include "host/trace_reader.h"

namespace ssdtlm {

namespace {

std::unique_ptr<Workload> make_trace(const Config& c, uint64_t logical_bytes) {
  const std::string path = c.s("workload.trace_path");
  if (path.empty()) throw ConfigError("key 'workload.trace_path': expected a trace file with workload.pattern=trace");
  TraceOptions o;
  o.time_scale = c.d("workload.trace_time_scale");
  o.lenient = c.b("workload.trace_lenient");
  o.blkparse_event = c.s("workload.blkparse_event");
  o.devno = c.i("workload.trace_devno");
  if (c.s("workload.trace_timing") == "open") o.max_time_ns = kMaxOpenLoopTimeNs;
  const std::string format = c.s("workload.trace_format");
  try {
    open_trace(path, format, o);  // option and format errors first, naming their keys
  } catch (const TraceError& e) {
    throw ConfigError(std::string("key 'workload.trace_path': ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("key '") + (o.devno >= 0 ? "workload.trace_devno" : "workload.trace_format") +
                      "': " + e.what());
  }
  try {
    auto fitted = std::make_unique<FittedTrace>([=] { return open_trace(path, format, o); }, logical_bytes,
                                                trace_fit_mode(c.s("workload.trace_fit")));
    if (fitted->extent().requests == 0)
      throw ConfigError("key 'workload.trace_path': " + path + ": no request in the trace" +
                        (o.devno >= 0 ? " for device " + std::to_string(o.devno) + " (workload.trace_devno)" : ""));
    return fitted;
  } catch (const TraceFitError& e) {
    throw ConfigError(std::string("key 'workload.trace_fit': ") + e.what());
  }
}

// The writes of a trace, cycled endlessly (preconditioning with the trace's own write pattern). The trace is
// read once; its writes are kept as (offset, bytes, stream id, program context).
class RepeatWrites : public Workload {
 public:
  RepeatWrites(const Config& c, uint64_t logical_bytes) {
    auto w = make_trace(c, logical_bytes);
    IoRequest r;
    while (w->next(r))
      if (r.op == IoOp::Write) writes_.push_back({r.offset, r.bytes, r.stream, r.pc});
  }
  bool next(IoRequest& r) override {
    if (writes_.empty()) return false;
    r = IoRequest();
    r.op = IoOp::Write;
    r.offset = writes_[i_].offset;
    r.bytes = writes_[i_].bytes;
    r.stream = writes_[i_].stream;
    r.pc = writes_[i_].pc;
    i_ = i_ + 1 == writes_.size() ? 0 : i_ + 1;
    return true;
  }

 private:
  struct Write {
    uint64_t offset;
    uint32_t bytes;
    uint16_t stream;
    uint32_t pc;
  };
  std::vector<Write> writes_;
  size_t i_ = 0;
};

JobPacing pacing(const Config& c) {
  auto ns = [](double v) { return uint64_t(std::llround(v)); };
  JobPacing p;
  p.start_delay_ns = ns(c.d("workload.start_delay_ms") * 1e6);
  p.stonewall = c.b("workload.stonewall");
  p.ramp_ns = ns(c.d("workload.ramp_ms") * 1e6);
  p.runtime_ns = ns(c.d("workload.runtime_ms") * 1e6);
  p.think_ns = ns(c.d("workload.thinktime_us") * 1e3);
  p.think_blocks = uint32_t(c.i("workload.thinktime_blocks"));
  p.rate_iops = c.d("workload.rate_iops");
  p.rate_bytes_per_s = c.d("workload.rate_mbps") * 1e6;
  return p;
}

// Requests from several workloads in turn; a workload that runs dry drops out.
class Interleave : public Workload {
 public:
  explicit Interleave(std::vector<std::unique_ptr<Workload>> parts) : parts_(std::move(parts)) {}
  bool next(IoRequest& r) override {
    while (!parts_.empty()) {
      i_ %= parts_.size();
      if (parts_[i_]->next(r)) {
        ++i_;
        return true;
      }
      parts_.erase(parts_.begin() + long(i_));
    }
    return false;
  }

 private:
  std::vector<std::unique_ptr<Workload>> parts_;
  size_t i_ = 0;
};

}  // namespace

std::unique_ptr<Workload> make_precondition_workload(const Config& c, uint64_t logical_bytes) {
  if (c.job_count() == 0) return make_workload(c, logical_bytes, true);
  std::vector<std::unique_ptr<Workload>> parts;
  for (size_t j = 0; j < c.job_count(); ++j) {
    if (c.job_config(j).s("workload.pattern") == "app")
      throw ConfigError("key 'jobs[" + std::to_string(j) + "].pattern': app runs its model(s) over the whole namespace "
                        "and cannot share it with other jobs; use workload.pattern=app without jobs (mixed1 and mixed2 "
                        "run two apps together)");
    parts.push_back(make_workload(c.job_config(j), logical_bytes, true));
  }
  return std::make_unique<Interleave>(std::move(parts));
}

std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition) {
  std::unique_ptr<Workload> w;
  const bool zone_hint = c.s("workload.stream_hint") == "zone";
  if (zone_hint && c.s("streams.assign") != "manual")
    throw ConfigError("key 'workload.stream_hint': zone tags writes with stream ids, which only streams.assign=manual "
                      "uses (got streams.assign=" + c.s("streams.assign") + ")");
  if (c.s("workload.pattern") == "app") {
    if (zone_hint)
      throw ConfigError("key 'workload.stream_hint': zone needs a synthetic zoned: distribution (workload.pattern=app "
                        "writes carry the app's own stream hints)");
    w = make_app_workload(c, logical_bytes, for_precondition);
    if (!for_precondition) w->set_pacing(pacing(c));
    return w;
  }
  if (c.s("workload.pattern") == "trace") {
    if (zone_hint)
      throw ConfigError("key 'workload.stream_hint': zone needs a synthetic zoned: distribution (a trace carries its "
                        "own stream ids, csv format)");
    if (for_precondition) return std::make_unique<RepeatWrites>(c, logical_bytes);
    w = make_trace(c, logical_bytes);
    w->set_pacing(pacing(c));
    return w;
  }
  SyntheticSpec s;
  const uint64_t offset = c.u("workload.address_offset");
  if (offset >= logical_bytes)
    throw ConfigError("key 'workload.address_offset': expected less than the logical capacity " +
                      format_size(double(logical_bytes)) + " (" + std::to_string(logical_bytes) + " bytes), got " +
                      std::to_string(offset));
  const uint64_t range = c.u("workload.address_range") ? c.u("workload.address_range") : logical_bytes - offset;
  if (range > logical_bytes - offset)
    throw ConfigError(std::string(offset ? "keys 'workload.address_offset' + 'workload.address_range'"
                                         : "key 'workload.address_range'") +
                      ": expected at most the logical capacity " + format_size(double(logical_bytes)) + " (" +
                      std::to_string(logical_bytes) + " bytes), got " + std::to_string(offset + range));
  if (c.s("workload.preset") == "jesd219") {
    s = jesd219::make_spec(range, c.d("workload.read_fraction"));
  } else {
    s.pattern = c.s("workload.pattern");
    s.read_fraction = c.d("workload.read_fraction");
    s.distribution = c.s("workload.distribution");
    s.bssplit = c.s("workload.bssplit");
    s.block_bytes = uint32_t(c.i("workload.block_bytes"));
    s.block_align = uint32_t(c.i("workload.block_align"));
    s.range_bytes = range;
  }
  s.range_offset = offset;
  s.io_bytes = c.u("workload.io_bytes");
  s.zone_range = c.u("workload.zone_range");
  s.zone_size = c.u("workload.zone_size");
  s.zone_skip = c.u("workload.zone_skip");
  s.random_map = c.b("workload.random_map");
  s.scatter = c.b("workload.scatter");
  s.trim_fraction = c.d("workload.trim_fraction");
  s.zone_streams = zone_hint;
  if (zone_hint && (s.pattern != "random" || s.distribution.rfind("zoned:", 0) != 0))
    throw ConfigError("key 'workload.stream_hint': zone needs workload.pattern=random with a zoned: distribution, got " +
                      s.pattern + (s.pattern == "random" ? " " + s.distribution : ""));
  s.io_count = c.u("workload.io_count");
  s.seed = uint64_t(c.i("sim.seed")) * 2 + c.u("workload.seed_offset") * 1000003;
  if (for_precondition) {
    s.read_fraction = 0.0;
    s.trim_fraction = 0.0;
    s.io_count = 0;
    s.io_bytes = 0;
    s.seed += 1;
  } else if (s.io_count == 0 && s.io_bytes == 0 && c.d("workload.runtime_ms") <= 0) {
    throw ConfigError("keys 'workload.io_count', 'workload.io_bytes', 'workload.runtime_ms': all 0, the job would never "
                      "end; set at least one");
  }
  if (s.read_fraction + s.trim_fraction > 1.0)
    throw ConfigError("keys 'workload.read_fraction' + 'workload.trim_fraction': expected at most 1");
  try {
    w = std::make_unique<SyntheticWorkload>(s);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("workload: ") + e.what());
  }
  if (!for_precondition) w->set_pacing(pacing(c));
  return w;
}

}  // namespace ssdtlm
