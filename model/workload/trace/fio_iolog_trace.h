// fio iolog replay files, versions 2 and 3 (fio HOWTO "Trace file format"):
//   fio version 2 iolog                  fio version 3 iolog
//   /dev/sda add                         0 /dev/sda add
//   /dev/sda open                        12 /dev/sda open
//   /dev/sda write 0 4096                880 /dev/sda write 0 4096
//   /dev/sda close                       9000 /dev/sda close
// read/write/trim lines make requests; add/open/close/sync/datasync lines (and v2 "wait")
// make none. v3 timestamps are in TraceOptions::fio_v3_tick_ns units (default: microseconds,
// which is what fio's log_io_u writes). See trace_reader.h.
#pragma once
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

class FioIologTrace : public TraceWorkload {
 public:
  FioIologTrace(const std::string& path, const TraceOptions& opts);

  int version() const { return version_; }  // 0 until the header line is read

 protected:
  Line parse(std::string_view line, IoRequest& r, uint64_t& time) override;

 private:
  int version_ = 0;
};

}  // namespace ssdtlm
