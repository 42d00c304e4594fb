#include "workload/trace/disksim_trace.h"

#include "workload/trace/trace_parse.h"

namespace ssdtlm {

using namespace traceparse;

DisksimTrace::DisksimTrace(const std::string& path, const TraceOptions& opts, Time unit)
    : TraceWorkload(path, opts), unit_(unit) {}

TraceWorkload::Line DisksimTrace::parse(std::string_view line, IoRequest& r, uint64_t& time) {
  const std::string_view t = trim(line);
  if (t.empty() || t[0] == '#') return Line::Ignore;
  const bool ms = unit_ == Time::Milliseconds;
  const char* expected = ms ? "expected '<time_ms> <devno> <blkno> <bcount> <flags>' (decimal time, "
                              "integer fields, bcount > 0)"
                            : "expected '<time_ns> <devno> <lsa> <sectors> <type>' (integer fields, "
                              "sectors > 0, type 1 = read, 0 = write)";
  split_ws(t, fields_);
  uint64_t dev = 0, blkno = 0, bcount = 0, flags = 0;
  // ms: time * 10^6 gives ns (tick 1 ns); ns: integer part only.
  if (fields_.size() != 5 || !parse_fixed(fields_[0], ms ? 6 : 0, time) || !parse_u64(fields_[1], dev) ||
      !parse_u64(fields_[2], blkno) || !parse_u64(fields_[3], bcount) || !parse_u64(fields_[4], flags) ||
      bcount == 0 || bcount > 0xFFFFFFFFull / 512 || blkno > (~uint64_t(0) >> 9))
    throw LineError{expected};
  if (!ms && flags > 1) throw LineError{expected};  // MQSim's type: 0 or 1 (DiskSim's flags are bits, bit 0 = read)
  if (options().devno >= 0 && dev != uint64_t(options().devno)) return Line::Ignore;
  r.op = (flags & 1) ? IoOp::Read : IoOp::Write;  // DiskSim: bit 0 = read; MQSim: 1 = read
  r.offset = blkno * 512;
  r.bytes = uint32_t(bcount * 512);
  return Line::Request;
}

}  // namespace ssdtlm
