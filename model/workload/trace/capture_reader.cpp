#include "workload/trace/capture_reader.h"

#include <zlib.h>

#include <cstring>

#include "common/input_file.h"
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

using namespace capture;

CaptureReader::CaptureReader(const std::string& path) : path_(path) {
  require_regular_file(path, "workload.trace_path");
  gz_ = gzopen(path.c_str(), "rb");
  if (!gz_) throw TraceError(path, "cannot open the capture");
  gzbuffer(static_cast<gzFile>(gz_), 1 << 17);
  char header[kFileHeaderBytes];
  const int got = gzread(static_cast<gzFile>(gz_), header, sizeof header);
  if (got != int(sizeof header) || std::memcmp(header, kMagic, sizeof kMagic) != 0)
    throw TraceError(path, "not an ssdtlm capture (expected the magic SSDTCAP after decompression; "
                           "captures are written by ssdtlm-capture)");
  uint32_t header_bytes = 0;
  std::memcpy(&version_, header + 8, 4);
  std::memcpy(&header_bytes, header + 12, 4);
  if (version_ < kOldestCaptureVersion || version_ > kCaptureVersion || header_bytes != kFileHeaderBytes)
    throw TraceError(path, "capture format version " + std::to_string(version_) + " (header " +
                               std::to_string(header_bytes) + " bytes); this reader knows versions " +
                               std::to_string(kOldestCaptureVersion) + " to " + std::to_string(kCaptureVersion));
}

CaptureReader::~CaptureReader() {
  if (gz_) gzclose(static_cast<gzFile>(gz_));
}

bool CaptureReader::read_exact(void* to, size_t n, bool eof_ok) {
  const int got = gzread(static_cast<gzFile>(gz_), to, unsigned(n));
  if (got == int(n)) return true;
  int err = 0;
  const char* msg = gzerror(static_cast<gzFile>(gz_), &err);
  if (got < 0 || (err != Z_OK && err != Z_BUF_ERROR))
    throw TraceError(path_, "after record " + std::to_string(records_) + ": " + (msg ? msg : "read error"));
  if (got == 0 && eof_ok) return false;
  throw TraceError(path_, "record " + std::to_string(records_ + 1) + " cut short (" + std::to_string(got) + " of " +
                              std::to_string(n) + " bytes): a truncated capture");
}

bool CaptureReader::next(CaptureEvent& e) {
  if (!read_exact(&e.rec, sizeof e.rec, true)) return false;
  ++records_;
  if (e.rec.kind < uint8_t(Kind::ProcessStart) || e.rec.kind > uint8_t(Kind::Size))
    throw TraceError(path_, "record " + std::to_string(records_) + ": unknown kind " + std::to_string(e.rec.kind));
  e.path.clear();
  e.path2.clear();
  if (e.rec.path_bytes) {
    std::string text(e.rec.path_bytes, '\0');
    read_exact(text.data(), text.size(), false);
    const size_t nul = text.find('\0');
    e.path = text.substr(0, nul);
    if (nul != std::string::npos) e.path2 = text.substr(nul + 1);
  }
  if (e.kind() == Kind::Rename && e.path2.empty())
    throw TraceError(path_, "record " + std::to_string(records_) + ": a rename without its new path");
  return true;
}

bool CaptureReader::is_capture(const std::string& path) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (!gz) return false;
  char magic[sizeof kMagic];
  const bool ok = gzread(gz, magic, sizeof magic) == int(sizeof magic) && std::memcmp(magic, kMagic, sizeof magic) == 0;
  gzclose(gz);
  return ok;
}

}  // namespace ssdtlm
