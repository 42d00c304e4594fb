// MSR Cambridge block traces (SNIA IOTTA): CSV lines
//   Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime
// Timestamp in Windows FILETIME ticks of 100 ns, Type "Read"/"Write" (any case), Offset and Size
// in bytes. Hostname, DiskNumber and ResponseTime are ignored. See trace_reader.h.
#pragma once
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

class MsrTrace : public TraceWorkload {
 public:
  MsrTrace(const std::string& path, const TraceOptions& opts);

 protected:
  Line parse(std::string_view line, IoRequest& r, uint64_t& time) override;

 private:
  bool seen_content_ = false;
};

}  // namespace ssdtlm
