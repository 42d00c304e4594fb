// DiskSim ASCII traces ("time_ms devno blkno bcount flags") and MQSim's variant with the time
// in ns ("time_ns devno lsa sectors type", type 1 = read, 0 = write). See trace_reader.h.
#pragma once
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

class DisksimTrace : public TraceWorkload {
 public:
  enum class Time { Milliseconds, Nanoseconds };
  DisksimTrace(const std::string& path, const TraceOptions& opts, Time unit);

 protected:
  Line parse(std::string_view line, IoRequest& r, uint64_t& time) override;

 private:
  Time unit_;
};

}  // namespace ssdtlm
