#include "host/workload_factory.h"

#include <stdexcept>
#include <utility>
#include <vector>

#include "common/config.h"
#include "flash/geometry.h"
#include "host/jesd219.h"
#include "host/synthetic_workload.h"
#include "host/trace_reader.h"

namespace ssdtlm {

namespace {

std::unique_ptr<Workload> make_trace(const Config& c) {
  const std::string path = c.s("workload.trace_path");
  if (path.empty()) throw ConfigError("key 'workload.trace_path': expected a trace file with workload.pattern=trace");
  TraceOptions o;
  o.time_scale = c.d("workload.trace_time_scale");
  o.lenient = c.b("workload.trace_lenient");
  o.blkparse_event = c.s("workload.blkparse_event");
  try {
    return open_trace(path, c.s("workload.trace_format"), o);
  } catch (const TraceError& e) {
    throw ConfigError(std::string("key 'workload.trace_path': ") + e.what());
  }
}

// The writes of a trace, cycled endlessly (preconditioning with the trace's own write pattern). The trace is
// read once; its writes are kept as (offset, bytes) pairs.
class RepeatWrites : public Workload {
 public:
  explicit RepeatWrites(const Config& c) {
    auto w = make_trace(c);
    IoRequest r;
    while (w->next(r))
      if (r.op == IoOp::Write) writes_.emplace_back(r.offset, r.bytes);
  }
  bool next(IoRequest& r) override {
    if (writes_.empty()) return false;
    r = IoRequest();
    r.op = IoOp::Write;
    r.offset = writes_[i_].first;
    r.bytes = writes_[i_].second;
    i_ = i_ + 1 == writes_.size() ? 0 : i_ + 1;
    return true;
  }

 private:
  std::vector<std::pair<uint64_t, uint32_t>> writes_;
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

}  // namespace

std::unique_ptr<Workload> make_precondition_workload(const Config& c, uint64_t logical_bytes) {
  if (c.job_count() == 0) return make_workload(c, logical_bytes, true);
  std::vector<std::unique_ptr<Workload>> parts;
  for (size_t j = 0; j < c.job_count(); ++j) parts.push_back(make_workload(c.job_config(j), logical_bytes, true));
  return std::make_unique<Interleave>(std::move(parts));
}

std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition) {
  if (c.s("workload.pattern") == "trace") {
    if (for_precondition) return std::make_unique<RepeatWrites>(c);
    return make_trace(c);
  }
  SyntheticSpec s;
  const uint64_t range = c.u("workload.address_range") ? c.u("workload.address_range") : logical_bytes;
  if (range > logical_bytes)
    throw ConfigError("key 'workload.address_range': expected at most the logical capacity " +
                      std::to_string(logical_bytes) + " bytes, got " + std::to_string(range));
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
  s.random_map = c.b("workload.random_map");
  s.scatter = c.b("workload.scatter");
  s.trim_fraction = c.d("workload.trim_fraction");
  s.io_count = c.u("workload.io_count");
  s.seed = uint64_t(c.i("sim.seed")) * 2 + c.u("workload.seed_offset") * 1000003;
  if (for_precondition) {
    s.read_fraction = 0.0;
    s.trim_fraction = 0.0;
    s.io_count = 0;
    s.seed += 1;
  }
  if (s.read_fraction + s.trim_fraction > 1.0)
    throw ConfigError("keys 'workload.read_fraction' + 'workload.trim_fraction': expected at most 1");
  try {
    return std::make_unique<SyntheticWorkload>(s);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("workload: ") + e.what());
  }
}

}  // namespace ssdtlm
