// ssdtlm's own trace format ("csv"), one request per line:
//
//   time_ns,op,offset_bytes,bytes[,stream[,pc]]
//
//   time_ns       arrival time in ns (unsigned integer; made relative to the first request)
//   op            R = read, W = write, T = trim (case-insensitive)
//   offset_bytes  byte offset in the namespace (unsigned integer)
//   bytes         transfer length in bytes, 1 .. 4294967295
//   stream        optional host stream hint, 0 .. 65535 (0 = none)
//   pc            optional program-context id, 0 .. 4294967295 (0 = none)
//
// Blanks around fields are ignored. Blank lines and lines whose first non-blank character is
// '#' are comments. The first non-comment line may be a header (no field of it starts with a
// digit, e.g. "time_ns,op,offset,bytes,stream,pc"); it is skipped. Example:
//
//   # two writes then a read of the first block
//   time_ns,op,offset,bytes
//   0,W,0,4096
//   1500,W,4096,4096,1
//   2000,R,0,4096,0,7
#pragma once
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

class CsvTrace : public TraceWorkload {
 public:
  CsvTrace(const std::string& path, const TraceOptions& opts);

 protected:
  Line parse(std::string_view line, IoRequest& r, uint64_t& time) override;

 private:
  bool seen_content_ = false;
};

}  // namespace ssdtlm
