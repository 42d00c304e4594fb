#include "workload/trace/csv_trace.h"

#include "workload/trace/trace_parse.h"

namespace ssdtlm {

using namespace traceparse;

CsvTrace::CsvTrace(const std::string& path, const TraceOptions& opts) : TraceWorkload(path, opts) {}

TraceWorkload::Line CsvTrace::parse(std::string_view line, IoRequest& r, uint64_t& time) {
  const std::string_view t = trim(line);
  if (t.empty() || t[0] == '#') return Line::Ignore;
  split_char(t, ',', fields_);
  const bool first = !seen_content_;
  seen_content_ = true;
  if (first) {  // a header names the columns: no field of it starts with a digit
    bool header = true;
    for (const std::string_view f : fields_) header = header && !f.empty() && !(f[0] >= '0' && f[0] <= '9');
    if (header) return Line::Ignore;
  }

  const LineError bad{"expected 'time_ns,op,offset_bytes,bytes[,stream[,pc]]' with op R, W, T or a zone's O (open), "
                      "C (close), F (finish), Z (reset), 0 < bytes < 2^32, stream < 2^16, pc < 2^32"};
  uint64_t offset = 0, bytes = 0, stream = 0, pc = 0;
  if (fields_.size() < 4 || fields_.size() > 6 || !parse_u64(fields_[0], time) || fields_[1].size() != 1 ||
      !parse_u64(fields_[2], offset) || !parse_u64(fields_[3], bytes) || bytes == 0 || bytes > 0xFFFFFFFFull)
    throw bad;
  if (fields_.size() >= 5 && (!parse_u64(fields_[4], stream) || stream > 0xFFFF)) throw bad;
  if (fields_.size() == 6 && (!parse_u64(fields_[5], pc) || pc > 0xFFFFFFFFull)) throw bad;
  r.zone_action = ZoneAction::None;
  switch (fields_[1][0]) {
    case 'R': case 'r': r.op = IoOp::Read; break;
    case 'W': case 'w': r.op = IoOp::Write; break;
    case 'T': case 't': r.op = IoOp::Trim; break;
    // Zone Management Send of the zone starting at offset (zoned namespaces; bytes: the zone's, any > 0).
    case 'O': case 'o': r.op = IoOp::Trim, r.zone_action = ZoneAction::Open; break;
    case 'C': case 'c': r.op = IoOp::Trim, r.zone_action = ZoneAction::Close; break;
    case 'F': case 'f': r.op = IoOp::Trim, r.zone_action = ZoneAction::Finish; break;
    case 'Z': case 'z': r.op = IoOp::Trim, r.zone_action = ZoneAction::Reset; break;
    default: throw bad;
  }
  r.offset = offset;
  r.bytes = uint32_t(bytes);
  r.stream = uint16_t(stream);
  r.pc = uint32_t(pc);
  return Line::Request;
}

}  // namespace ssdtlm
