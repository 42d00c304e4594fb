#include "workload/trace/fio_iolog_trace.h"

#include "workload/trace/trace_parse.h"

namespace ssdtlm {

using namespace traceparse;

FioIologTrace::FioIologTrace(const std::string& path, const TraceOptions& opts)
    : TraceWorkload(path, opts) {}

TraceWorkload::Line FioIologTrace::parse(std::string_view line, IoRequest& r, uint64_t& time) {
  const std::string_view t = trim(line);
  if (version_ == 0) {  // first line: the version header, as fio's init_iolog_read checks it
    if (t == "fio version 2 iolog") {
      version_ = 2;
    } else if (t == "fio version 3 iolog") {
      version_ = 3;
      set_tick_ns(options().fio_v3_tick_ns);
    } else {
      throw LineError{"expected 'fio version 2 iolog' or 'fio version 3 iolog' as the first line", true};
    }
    return Line::Ignore;
  }
  if (t.empty()) return Line::Ignore;
  split_ws(t, fields_);
  const char* expected =
      version_ == 3 ? "expected '<timestamp> <filename> <add|open|close>' or '<timestamp> <filename> "
                      "<read|write|trim|sync|datasync> <offset> <length>'"
                    : "expected '<filename> <add|open|close>' or '<filename> "
                      "<read|write|trim|sync|datasync|wait> <offset> <length>'";
  size_t i = 0;
  time = 0;
  if (version_ == 3) {
    if (!parse_u64(fields_[0], time)) throw LineError{expected};
    i = 1;
  }
  const size_t n = fields_.size() - i;  // fields after the timestamp
  if (n < 2) throw LineError{expected};
  const std::string_view act = fields_[i + 1];
  if (n == 2) {
    if (act == "add" || act == "open" || act == "close") return Line::Ignore;
    if (act == "sync" || act == "datasync") return Line::Ignore;
    throw LineError{expected};
  }
  if (n != 4) throw LineError{expected};
  uint64_t offset = 0, length = 0;
  if (!parse_u64(fields_[i + 2], offset) || !parse_u64(fields_[i + 3], length)) throw LineError{expected};
  if (act == "sync" || act == "datasync" || (act == "wait" && version_ == 2)) return Line::Ignore;
  IoOp op;
  if (act == "read") op = IoOp::Read;
  else if (act == "write") op = IoOp::Write;
  else if (act == "trim") op = IoOp::Trim;
  else throw LineError{expected};
  if (length == 0 || length > 0xFFFFFFFFull) throw LineError{std::string(expected) + " with 0 < length < 4 GiB"};
  r.op = op;
  r.offset = offset;
  r.bytes = uint32_t(length);
  return Line::Request;
}

}  // namespace ssdtlm
