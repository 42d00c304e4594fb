#include "workload/trace/blkparse_trace.h"

#include "workload/trace/trace_parse.h"

namespace ssdtlm {

using namespace traceparse;

namespace {

// "maj,min"
bool is_device(std::string_view s) {
  const size_t comma = s.find(',');
  uint64_t v = 0;
  return comma != std::string_view::npos && parse_u64(s.substr(0, comma), v) &&
         parse_u64(s.substr(comma + 1), v);
}

// First line of blkparse's end-of-run summary: "CPU<n> (<dev>):" or "Total (<dev>):".
bool is_summary_start(const std::vector<std::string_view>& f) {
  if (f.size() < 2 || f[1].empty() || f[1][0] != '(') return false;
  if (f[0] == "Total") return true;
  uint64_t cpu = 0;
  return f[0].size() > 3 && f[0].substr(0, 3) == "CPU" && parse_u64(f[0].substr(3), cpu);
}

}  // namespace

BlkparseTrace::BlkparseTrace(const std::string& path, const TraceOptions& opts)
    : TraceWorkload(path, opts) {}

TraceWorkload::Line BlkparseTrace::parse(std::string_view line, IoRequest& r, uint64_t& time) {
  if (in_summary_) return Line::Ignore;
  split_ws(line, fields_);
  if (fields_.empty()) return Line::Ignore;
  if (is_summary_start(fields_)) {
    in_summary_ = true;
    return Line::Ignore;
  }
  static const char* kEvent =
      "expected a blkparse event 'maj,min cpu seq seconds.nanoseconds pid action rwbs sector + "
      "sectors [process]'";
  uint64_t cpu = 0, seq = 0, pid = 0;
  if (fields_.size() < 6 || !is_device(fields_[0]) || !parse_u64(fields_[1], cpu) ||
      !parse_u64(fields_[2], seq) || !parse_fixed(fields_[3], 9, time) || !parse_u64(fields_[4], pid))
    throw LineError{kEvent};
  const char event = char(options().blkparse_event);  // the action's letter
  if (fields_[5] != std::string_view(&event, 1)) return Line::Ignore;
  if (fields_.size() < 7) throw LineError{kEvent};

  const std::string_view rwbs = fields_[6];
  // blkparse's RWBS letters: F (flush/FUA), W, R, D (discard), N (none), S (sync), M (meta), A (ahead), E
  // (secure erase).
  if (rwbs.empty() || rwbs.find_first_not_of("FWRDNSMAE") != std::string_view::npos)
    throw LineError{"expected a blkparse event whose RWBS field holds only F, W, R, D, N, S, M, A or E"};
  const bool discard = rwbs.find('D') != std::string_view::npos;
  const bool write = rwbs.find('W') != std::string_view::npos;
  const bool read = rwbs.find('R') != std::string_view::npos;
  const bool has_range = fields_.size() >= 10 && fields_[8] == "+";
  if (!has_range && fields_.size() >= 8 && fields_[7].size() > 0 && fields_[7][0] >= '0' &&
      fields_[7][0] <= '9')
    throw LineError{kEvent};  // a sector without "+ sectors"
  if (!(discard || write || read) || !has_range) return Line::Ignore;  // flush, no data

  uint64_t sector = 0, sectors = 0;
  if (!parse_u64(fields_[7], sector) || !parse_u64(fields_[9], sectors) || sectors > 0xFFFFFFFFull / 512 ||
      sector > (~uint64_t(0) >> 9))
    throw LineError{kEvent};
  if (sectors == 0) return Line::Ignore;
  r.op = discard ? IoOp::Trim : write ? IoOp::Write : IoOp::Read;
  r.offset = sector * 512;
  r.bytes = uint32_t(sectors * 512);
  return Line::Request;
}

}  // namespace ssdtlm
