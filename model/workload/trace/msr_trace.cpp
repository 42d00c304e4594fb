#include "workload/trace/msr_trace.h"

#include "workload/trace/trace_parse.h"

namespace ssdtlm {

using namespace traceparse;

MsrTrace::MsrTrace(const std::string& path, const TraceOptions& opts) : TraceWorkload(path, opts) {
  set_tick_ns(100);  // FILETIME ticks
}

TraceWorkload::Line MsrTrace::parse(std::string_view line, IoRequest& r, uint64_t& time) {
  const std::string_view t = trim(line);
  if (t.empty()) return Line::Ignore;
  split_char(t, ',', fields_);
  const bool first = !seen_content_;
  seen_content_ = true;
  // A header line ("Timestamp,Hostname,...") may precede the records.
  if (first && !fields_.empty() && !fields_[0].empty() && !(fields_[0][0] >= '0' && fields_[0][0] <= '9'))
    return Line::Ignore;
  uint64_t offset = 0, size = 0, disk = 0;
  const bool ok = fields_.size() == 7 && parse_u64(fields_[0], time) && parse_u64(fields_[2], disk) &&
                  parse_u64(fields_[4], offset) && parse_u64(fields_[5], size) && size > 0 && size <= 0xFFFFFFFFull;
  const bool read = ok && iequals(fields_[3], "read");
  if (!ok || !(read || iequals(fields_[3], "write")))
    throw LineError{"expected 'Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime' with "
                    "Type Read or Write and integer Timestamp, DiskNumber, Offset and Size > 0"};
  if (options().devno >= 0 && disk != uint64_t(options().devno)) return Line::Ignore;
  r.op = read ? IoOp::Read : IoOp::Write;
  r.offset = offset;
  r.bytes = uint32_t(size);
  return Line::Request;
}

}  // namespace ssdtlm
