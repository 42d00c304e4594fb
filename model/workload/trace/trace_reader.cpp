#include "workload/trace/trace_reader.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "common/input_file.h"
#include "common/text.h"
#include "workload/trace/blkparse_trace.h"
#include "workload/trace/csv_trace.h"
#include "workload/trace/disksim_trace.h"
#include "workload/trace/fio_iolog_trace.h"
#include "workload/trace/msr_trace.h"

namespace ssdtlm {
namespace {

std::string quote_line(std::string_view text) {
  constexpr size_t kMax = 200;
  if (text.size() <= kMax) return escape_text(std::string(text));
  return escape_text(std::string(text.substr(0, kMax))) + "...";
}

}  // namespace

TraceError::TraceError(const std::string& file, uint64_t line, const std::string& expected,
                       std::string_view text)
    : std::runtime_error(file + ":" + std::to_string(line) + ": " + expected + ", got '" +
                         quote_line(text) + "'"),
      file_(file),
      line_(line) {}

TraceError::TraceError(const std::string& file, const std::string& what)
    : std::runtime_error(file + ": " + what), file_(file) {}

TraceWorkload::TraceWorkload(const std::string& path, const TraceOptions& opts)
    : path_(path), opts_(opts) {
  require_regular_file(path, "workload.trace_path");  // a FIFO or /dev/zero would be read without end
  in_.open(path, std::ios::in | std::ios::binary);
  if (!in_) throw TraceError(path, std::string("cannot open trace file (") + std::strerror(errno) + ")");
}

bool TraceWorkload::next(IoRequest& r) {
  while (std::getline(in_, line_)) {
    ++lines_;
    std::string_view text(line_);
    if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
    if (lines_ == 1 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 BOM

    IoRequest req;
    uint64_t t = 0;
    Line kind;
    try {
      kind = parse(text, req, t);
    } catch (const LineError& e) {
      if (opts_.lenient && !e.fatal) {
        ++skipped_;
        continue;
      }
      throw TraceError(path_, lines_, e.expected, text);
    }
    if (kind != Line::Request) continue;

    // Relative time: (t - t0) ticks, clamped at 0, in ns, times time_scale.
    if (!have_t0_) {
      have_t0_ = true;
      t0_ = t;
    }
    const unsigned __int128 rel = t > t0_ ? (unsigned __int128)(t - t0_) * tick_ns_ : 0;
    const unsigned __int128 kMax = ~uint64_t(0);
    if (opts_.time_scale == 1.0) {
      req.time_ns = rel > kMax ? ~uint64_t(0) : uint64_t(rel);
    } else {
      const long double scaled = std::floor((long double)rel * opts_.time_scale + 0.5L);
      req.time_ns = scaled >= 18446744073709551615.0L ? ~uint64_t(0) : uint64_t(scaled);
    }
    if (opts_.max_time_ns && req.time_ns > opts_.max_time_ns) {
      char limit[40], scale[32], got[32];
      std::snprintf(limit, sizeof limit, "%llu.%09llu s", (unsigned long long)(opts_.max_time_ns / 1000000000),
                    (unsigned long long)(opts_.max_time_ns % 1000000000));
      std::snprintf(scale, sizeof scale, "%g", opts_.time_scale);
      std::snprintf(got, sizeof got, "%.6g s", double((long double)rel * opts_.time_scale / 1e9L));
      throw TraceError(path_, lines_,
                       std::string("expected a time at most ") + limit +
                           " after the trace's first request (SystemC's limit, 2^64 ps) once scaled by "
                           "workload.trace_time_scale=" + scale + "; this one is " + got,
                       text);
    }
    r = req;
    ++requests_;
    return true;
  }
  if (in_.bad()) throw TraceError(path_, "read error after line " + std::to_string(lines_));
  return false;
}

const std::vector<std::string>& trace_formats() {
  static const std::vector<std::string> formats = {"disksim", "disksim_ns", "mqsim", "msr",
                                                   "blkparse", "fio_iolog", "csv"};
  return formats;
}

std::unique_ptr<TraceWorkload> open_trace(const std::string& path, const std::string& format,
                                          const TraceOptions& opts) {
  if (!(std::isfinite(opts.time_scale) && opts.time_scale >= 0.0))
    throw std::invalid_argument("TraceOptions.time_scale: expected a finite value >= 0, got " +
                                std::to_string(opts.time_scale));
  if (opts.fio_v3_tick_ns == 0)
    throw std::invalid_argument("TraceOptions.fio_v3_tick_ns: must be > 0");
  if (opts.devno >= 0 && format != "disksim" && format != "disksim_ns" && format != "mqsim" && format != "msr")
    throw std::invalid_argument("TraceOptions.devno: format '" + format +
                                "' carries no device number (only disksim, disksim_ns, mqsim and msr do)");
  if (format == "disksim") return std::make_unique<DisksimTrace>(path, opts, DisksimTrace::Time::Milliseconds);
  if (format == "disksim_ns" || format == "mqsim")
    return std::make_unique<DisksimTrace>(path, opts, DisksimTrace::Time::Nanoseconds);
  if (format == "msr") return std::make_unique<MsrTrace>(path, opts);
  if (format == "blkparse") return std::make_unique<BlkparseTrace>(path, opts);
  if (format == "fio_iolog") return std::make_unique<FioIologTrace>(path, opts);
  if (format == "csv") return std::make_unique<CsvTrace>(path, opts);
  std::string list;
  for (const auto& f : trace_formats()) list += (list.empty() ? "" : ", ") + f;
  throw std::invalid_argument("unknown trace format '" + format + "' (expected one of " + list + ")");
}

}  // namespace ssdtlm
