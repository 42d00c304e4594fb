// Trace replay: common base of the line-oriented trace readers and the format factory.
//
// Every reader streams its file line by line (constant memory, any file size) and yields one
// IoRequest per data line. time_ns is relative to the first request of the trace (earlier
// timestamps that appear later are clamped to 0; times are not reordered), multiplied by
// TraceOptions::time_scale; a time beyond TraceOptions::max_time_ns is an error naming the line (open loop:
// SystemC's 2^64 ps). A malformed line throws TraceError
//   "<file>:<line>: <what was expected>, got '<line text>'"
// or, with lenient = true, is skipped and counted in skipped_lines(). Lines that carry no
// request by design (comments, headers, file actions, other blkparse events) are neither.
//
// Formats (open_trace names):
//   disksim     "time_ms devno blkno bcount flags": time in ms (decimal), blkno and bcount in
//               512 B sectors, flags bit 0 set = read, clear = write. With TraceOptions::devno >= 0
//               only that device's lines make requests (the others are ignored); else devno is ignored.
//   disksim_ns  the same fields with the time in ns: MQSim's ASCII traces, whose 5th field is
//               the request type, 1 = read and 0 = write (consistent with bit 0). Alias "mqsim".
//   msr         MSR Cambridge CSV "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
//               Timestamp in Windows FILETIME 100 ns ticks, Type Read/Write (any case), Offset
//               and Size in bytes. An optional header line is skipped. DiskNumber selects like devno.
//   blkparse    blkparse's default text output "maj,min cpu seq time pid action rwbs sector +
//               nsectors [process]"; only lines whose action is TraceOptions::blkparse_event
//               ("Q" queued, "D" issued) make requests; rwbs with D = trim (discard), else
//               W = write, R = read. Other actions, requests without data (flushes, 0 sectors)
//               and the per-CPU/total summary block at the end are ignored, not errors.
//   fio_iolog   fio iolog v2 ("fio version 2 iolog", then "filename action [offset length]") or
//               v3 ("fio version 3 iolog", each line prefixed by a timestamp). read/write/trim
//               make requests; add/open/close/sync/datasync (and v2 wait) are ignored; file
//               names are ignored (one namespace). v2 carries no times: every time_ns is 0. v3
//               timestamps are in units of fio_v3_tick_ns: current fio writes them with
//               utime_since_now(), i.e. microseconds (the default); set 1000000 for
//               millisecond logs. A missing/unknown version line is fatal even when lenient.
//   csv         our own format, see csv_trace.h: "time_ns,op,offset_bytes,bytes[,stream[,pc]]".
#pragma once
#include <cstdint>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "host/io_request.h"

namespace ssdtlm {

// The blkparse action whose lines make requests (workload.blkparse_event): Q (queued) or D (issued to the driver).
// Each value is its action's letter.
enum class BlkparseEvent : char { Queued = 'Q', Issued = 'D' };

struct TraceOptions {
  double time_scale = 1.0;             // multiplies every relative time (0.5 = twice as fast)
  bool lenient = false;                // skip and count malformed lines instead of throwing
  BlkparseEvent blkparse_event = BlkparseEvent::Queued;  // blkparse action that makes a request
  uint64_t fio_v3_tick_ns = 1000;      // unit of fio iolog v3 timestamps (us; 1000000 for ms)
  int64_t devno = -1;                  // disksim / msr: only this device's requests (-1 = every device)
  // Open-loop replay: a request whose scaled relative time exceeds this (ns) is a TraceError naming its line
  // (0 = no limit). SystemC counts time in 64-bit picoseconds, so the host sets kMaxOpenLoopTimeNs.
  uint64_t max_time_ns = 0;
};

// The latest arrival an open-loop replay can schedule: 2^64 ps - 1, in whole ns (about 213.5 days).
constexpr uint64_t kMaxOpenLoopTimeNs = ~uint64_t(0) / 1000;

class TraceError : public std::runtime_error {
 public:
  // "<file>:<line>: <expected>, got '<text>'" (text cut at 200 characters).
  TraceError(const std::string& file, uint64_t line, const std::string& expected,
             std::string_view text);
  // Any other failure about a file (e.g. cannot open it): "<file>: <what>".
  TraceError(const std::string& file, const std::string& what);

  const std::string& file() const { return file_; }
  uint64_t line() const { return line_; }  // 0 when not about a line

 private:
  std::string file_;
  uint64_t line_ = 0;
};

class TraceWorkload : public Workload {
 public:
  // Opens the file; throws TraceError when it cannot be read.
  TraceWorkload(const std::string& path, const TraceOptions& opts);

  bool next(IoRequest& r) final;

  uint64_t lines_read() const { return lines_; }         // lines consumed so far
  uint64_t skipped_lines() const { return skipped_; }    // malformed lines skipped (lenient)
  uint64_t requests() const { return requests_; }        // requests returned so far
  const std::string& path() const { return path_; }
  const TraceOptions& options() const { return opts_; }

 protected:
  enum class Line { Request, Ignore };
  // Thrown by parse() for a malformed line; `expected` says what the line should look like.
  // fatal = true makes it a TraceError even in lenient mode (e.g. a bad file header).
  struct LineError {
    std::string expected;
    bool fatal = false;
  };
  // Parses one line (terminator and a trailing '\r' removed). On Line::Request fills
  // r.op/offset/bytes (and stream/pc if the format has them) and sets `time` in the format's
  // ticks (see set_tick_ns). Throws LineError for a malformed line.
  virtual Line parse(std::string_view line, IoRequest& r, uint64_t& time) = 0;

  void set_tick_ns(uint64_t tick_ns) { tick_ns_ = tick_ns; }
  uint64_t line_number() const { return lines_; }  // of the line being parsed

  std::vector<std::string_view> fields_;  // scratch for the parsers

 private:
  std::string path_;
  TraceOptions opts_;
  std::ifstream in_;
  std::string line_;
  uint64_t tick_ns_ = 1;
  uint64_t lines_ = 0, skipped_ = 0, requests_ = 0;
  bool have_t0_ = false;
  uint64_t t0_ = 0;
};

// Opens a trace of the given format (see above). Throws std::invalid_argument for an unknown
// format or bad options, TraceError when the file cannot be opened.
std::unique_ptr<TraceWorkload> open_trace(const std::string& path, const std::string& format,
                                          const TraceOptions& opts = TraceOptions());

// The format names open_trace accepts.
const std::vector<std::string>& trace_formats();

}  // namespace ssdtlm
