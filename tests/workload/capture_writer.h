// Test helper: writes a capture file (workload/trace/capture_format.h) from records, as ssdtlm-capture does.
#pragma once
#include <zlib.h>

#include <cstring>
#include <string>
#include <vector>

#include "workload/trace/capture_format.h"

namespace ssdtlm::test {

struct CapRec {
  capture::CaptureRecord r;
  std::string path;  // rename: old + '\0' + new
};

inline CapRec cap(capture::Kind k, uint64_t t_ms, int32_t fd = -1, uint64_t offset = 0, uint64_t bytes = 0,
                  uint64_t pc = 0, uint32_t flags = 0, std::string path = "", uint32_t pid = 100, uint32_t aux = 0) {
  CapRec x;
  x.r.kind = uint8_t(k);
  x.r.pid = pid;
  x.r.tid = pid;
  x.r.fd = fd;
  x.r.time_ns = 1000000000ull + t_ms * 1000000ull;
  x.r.offset = offset;
  x.r.bytes = bytes;
  x.r.pc = pc;
  x.r.flags = flags;
  x.r.aux = aux;
  x.r.path_bytes = uint16_t(path.size());
  x.path = std::move(path);
  return x;
}

inline void write_capture(const std::string& file, const std::vector<CapRec>& recs,
                          uint32_t version = capture::kCaptureVersion, size_t cut_bytes = 0) {
  std::string raw(capture::kMagic, 8);
  raw.append(reinterpret_cast<const char*>(&version), 4);
  const uint32_t hb = capture::kFileHeaderBytes;
  raw.append(reinterpret_cast<const char*>(&hb), 4);
  for (const CapRec& x : recs) {
    raw.append(reinterpret_cast<const char*>(&x.r), sizeof x.r);
    raw += x.path;
  }
  if (cut_bytes) raw.resize(raw.size() - cut_bytes);
  gzFile gz = gzopen(file.c_str(), "wb");
  gzwrite(gz, raw.data(), unsigned(raw.size()));
  gzclose(gz);
}

}  // namespace ssdtlm::test
