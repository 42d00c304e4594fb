#include "workload/workload_factory.h"

#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include "config/config.h"
#include "common/units.h"
#include "workload/apps/app_workload.h"
#include "flash/geometry.h"
#include "workload/synthetic/jesd219.h"
#include "workload/synthetic/synthetic_workload.h"
#include "workload/verify/verify_workload.h"
#include "workload/trace/trace_fit.h"
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

namespace {

std::unique_ptr<Workload> make_trace(const WorkloadParams& w, uint64_t logical_bytes) {
  const std::string path = w.trace_path;
  const TraceOptions o = w.trace;
  const std::string format = w.trace_format;
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
                                                w.trace_fit);
    if (fitted->extent().requests == 0)
      throw ConfigError("key 'workload.trace_path': " + path + ": no request in the trace" +
                        (o.devno >= 0 ? " for device " + std::to_string(o.devno) + " (workload.trace_devno)" : ""));
    return fitted;
  } catch (const TraceFitError& e) {
    throw ConfigError(std::string("key 'workload.trace_fit': ") + e.what());
  }
}

// trace_format=capture: an ssdtlm-capture file replayed through the file system (workload/filesystem/capture_replay.h);
// the precondition writes the files that existed before the capture.
std::unique_ptr<Workload> make_capture(const WorkloadParams& w, uint64_t logical_bytes, bool for_precondition) {
  try {
    return std::make_unique<CaptureWorkload>(w.trace_path, logical_bytes, w.capture, for_precondition);
  } catch (const TraceError& e) {
    throw ConfigError(std::string("key 'workload.trace_path': ") + e.what());
  } catch (const FileLayerFull& e) {
    throw ConfigError("key 'workload.trace_path': " + w.trace_path + ": the files that existed before the capture do " +
                      "not fit in the namespace (" + e.what() + ")");
  }
}

// The writes of a trace, cycled endlessly (preconditioning with the trace's own write pattern). The trace is
// read once; its writes are kept as (offset, bytes, stream id, program context).
class RepeatWrites : public Workload {
 public:
  RepeatWrites(const WorkloadParams& p, uint64_t logical_bytes) {
    auto w = make_trace(p, logical_bytes);
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

// workload.filesystem=ext4: the job's area is a file (workload/filesystem/ext4_workload.h).
std::unique_ptr<Workload> on_ext4(std::unique_ptr<Workload> w, const WorkloadParams& p, const SyntheticSpec& s,
                                  uint64_t logical_bytes, bool for_precondition) {
  try {
    auto layout = std::make_shared<const Ext4Layout>(logical_bytes);
    return std::make_unique<Ext4Workload>(std::move(w), layout, p.fs, s.range_offset, s.range_bytes, for_precondition);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("keys 'workload.filesystem', 'workload.address_range': ") + e.what());
  }
}

}  // namespace

std::unique_ptr<Workload> make_precondition_workload(const std::vector<WorkloadParams>& jobs, bool jobs_listed,
                                                     uint64_t logical_bytes) {
  if (!jobs_listed) return make_workload(jobs.at(0), logical_bytes, true);
  std::vector<std::unique_ptr<Workload>> parts;
  for (const WorkloadParams& w : jobs) parts.push_back(make_workload(w, logical_bytes, true));
  return std::make_unique<Interleave>(std::move(parts));
}

namespace {
// "key 'workload.bssplit': " for SyntheticSpec's "SyntheticSpec.bssplit: ..." (the configuration key the field
// comes from), else "workload: ".
std::string spec_key(const std::string& what) {
  static const char* const kFields[][2] = {
      {"pattern", "workload.pattern"},         {"read_fraction", "workload.read_fraction"},
      {"trim_fraction", "workload.trim_fraction"}, {"block_bytes", "workload.block_bytes"},
      {"bssplit", "workload.bssplit"},         {"distribution", "workload.distribution"},
      {"range_bytes", "workload.address_range"}, {"range_offset", "workload.address_offset"},
      {"block_align", "workload.block_align"}, {"small_align", "workload.block_align"},
      {"zone_range", "workload.zone_range"},   {"zone_size", "workload.zone_size"},
      {"zone_skip", "workload.zone_skip"}};
  const std::string prefix = "SyntheticSpec.";
  if (what.compare(0, prefix.size(), prefix) == 0) {
    const std::string field = what.substr(prefix.size(), what.find(':') - prefix.size());
    for (auto& f : kFields)
      if (field == f[0]) return "key '" + std::string(f[1]) + "': ";
  }
  return "workload: ";
}
}  // namespace

SyntheticSpec synthetic_spec(const WorkloadParams& w, uint64_t logical_bytes) {
  SyntheticSpec s;
  const uint64_t offset = w.address_offset;
  const uint64_t range = w.address_range ? w.address_range : logical_bytes - offset;
  if (w.jesd219) {
    s = jesd219::make_spec(range, w.read_fraction);
  } else {
    s.pattern = w.pattern;
    s.read_fraction = w.read_fraction;
    s.distribution = w.distribution;
    s.bssplit = w.bssplit;
    s.block_bytes = w.block_bytes;
    s.block_align = w.block_align;
    s.range_bytes = range;
  }
  s.range_offset = offset;
  s.io_bytes = w.io_bytes;
  s.zone_range = w.zone_range;
  s.zone_size = w.zone_size;
  s.zone_skip = w.zone_skip;
  s.random_run = w.random_run;
  s.random_run_repeat = w.random_run_repeat;
  s.sequential_skip = w.sequential_skip;
  s.percentage_random = w.percentage_random;
  s.random_map = w.random_map;
  s.scatter = w.scatter;
  s.trim_fraction = w.trim_fraction;
  s.zone_streams = w.zone_hint;
  s.io_count = w.io_count;
  s.seed = w.seed;
  return s;
}

namespace {
std::unique_ptr<Workload> make_unplaced(const WorkloadParams& p, uint64_t logical_bytes, bool for_precondition);
}  // namespace

std::unique_ptr<Workload> make_workload(const WorkloadParams& p, uint64_t logical_bytes, bool for_precondition) {
  std::unique_ptr<Workload> w = make_unplaced(p, logical_bytes, for_precondition);
  if (p.zbd.on) {
    ZbdParams z = p.zbd;
    z.initial_reset = z.initial_reset && !for_precondition;  // the engine's set-up: the timed run's
    z.range_offset = p.address_offset;
    z.range_bytes = p.address_range ? p.address_range : logical_bytes - p.address_offset;
    w = std::make_unique<ZbdWorkload>(std::move(w), z, zbd_shared(z.zones));
  }
  if (p.placement.kind != DataPlacement::None)
    w = std::make_unique<PlacementWorkload>(std::move(w), p.placement, p.seed + (for_precondition ? 1 : 0));
  if (!for_precondition && p.buffered) {  // the page cache syncs itself (fsync, end_fsync)
    const uint64_t range = p.address_range ? p.address_range : logical_bytes - p.address_offset;
    return std::make_unique<BufferedWorkload>(std::move(w), p.page_cache, p.address_offset, range, logical_bytes);
  }
  if (!for_precondition && p.sync.any()) w = std::make_unique<SyncWorkload>(std::move(w), p.sync);  // flushes, FUA
  return w;
}

namespace {
std::unique_ptr<Workload> make_unplaced(const WorkloadParams& p, uint64_t logical_bytes, bool for_precondition) {
  std::unique_ptr<Workload> w;
  if (p.pattern == "app") {
    w = make_app_workload(p, logical_bytes, for_precondition);
    if (!for_precondition) w->set_pacing(p.pacing);
    return w;
  }
  if (p.pattern == "trace" && p.trace_format == "capture") {
    w = make_capture(p, logical_bytes, for_precondition);
    if (!for_precondition) w->set_pacing(p.pacing);
    return w;
  }
  if (p.pattern == "trace") {
    if (for_precondition) return std::make_unique<RepeatWrites>(p, logical_bytes);
    w = make_trace(p, logical_bytes);
    w->set_pacing(p.pacing);
    return w;
  }
  SyntheticSpec s = synthetic_spec(p, logical_bytes);
  if (for_precondition) {
    s.read_fraction = 0.0;
    s.trim_fraction = 0.0;
    s.io_count = 0;
    s.io_bytes = 0;
    s.seed += 1;
  }
  std::unique_ptr<SyntheticWorkload> synthetic;
  try {
    synthetic = std::make_unique<SyntheticWorkload>(s);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(spec_key(e.what()) + e.what());
  }
  if (!for_precondition && (p.verify || p.verify_only)) {
    VerifyParams v;
    v.backlog = p.verify_backlog;
    v.dry_run = p.verify_only;
    v.read_back = p.verify;
    v.offset = s.range_offset;
    v.range = s.range_bytes;
    v.unit = synthetic->sizes().min_bytes();
    v.max_bytes = synthetic->sizes().max_bytes();
    w = std::make_unique<VerifyWorkload>(std::move(synthetic), v);
  } else {
    w = std::move(synthetic);
  }
  if (!for_precondition) w->set_pacing(p.pacing);
  if (p.ext4) w = on_ext4(std::move(w), p, s, logical_bytes, for_precondition);
  return w;
}

}  // namespace

}  // namespace ssdtlm
