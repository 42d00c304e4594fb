// blkparse default text output, e.g.
//   8,0    3        1     0.000000000   697  Q  WS 223490 + 8 [kjournald]
// (maj,min cpu sequence seconds.nanoseconds pid action rwbs sector + sectors [process]).
// Only lines whose action equals TraceOptions::blkparse_event make requests. rwbs containing
// D (discard) -> Trim, else W -> Write, else R -> Read; data-less requests (pure flushes, 'N',
// 0 sectors) are ignored. Lines of other actions are ignored, so is everything from the
// summary block on ("CPU0 (8,0):", "Total (8,0):", ...). Blank lines are ignored; any other line
// that does not start like an event ("maj,min cpu seq time pid action") is malformed.
#pragma once
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

class BlkparseTrace : public TraceWorkload {
 public:
  BlkparseTrace(const std::string& path, const TraceOptions& opts);

 protected:
  Line parse(std::string_view line, IoRequest& r, uint64_t& time) override;

 private:
  bool in_summary_ = false;
};

}  // namespace ssdtlm
