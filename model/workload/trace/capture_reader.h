// Reader of ssdtlm-capture's files (capture_format.h): streams the records of one capture front to back through
// zlib, constant memory. A file that is not a capture, a version this reader does not know, or a record cut
// short is a TraceError naming the file and the record.
#pragma once
#include <cstdint>
#include <string>

#include "workload/trace/capture_format.h"

namespace ssdtlm {

struct CaptureEvent {
  capture::CaptureRecord rec;
  capture::Kind kind() const { return capture::Kind(rec.kind); }
  std::string path;   // open, unlink, the process's executable; rename: the old path
  std::string path2;  // rename: the new path
};

class CaptureReader {
 public:
  // Opens the file and checks its header; throws TraceError.
  explicit CaptureReader(const std::string& path);
  ~CaptureReader();
  CaptureReader(const CaptureReader&) = delete;
  CaptureReader& operator=(const CaptureReader&) = delete;

  // The next record; false at the end of the capture.
  bool next(CaptureEvent& e);
  uint64_t records() const { return records_; }
  uint32_t version() const { return version_; }
  const std::string& path() const { return path_; }

  // True when the file starts like a capture (gzip whose content starts with the magic).
  static bool is_capture(const std::string& path);

 private:
  bool read_exact(void* to, size_t n, bool eof_ok);
  std::string path_;
  void* gz_ = nullptr;  // gzFile
  uint32_t version_ = 0;
  uint64_t records_ = 0;
};

}  // namespace ssdtlm
