// The capture format of ssdtlm-capture (tools/capture/, docs/results/real_apps.md "Capture format"), shared by the capture
// tool and the reader (capture_reader.h). Header-only, no dependency: the LD_PRELOAD library includes it.
//
// A capture file is one zlib (gzip) stream, so it is compressed and can be read front to back with constant memory.
// Decompressed, it is a 16-byte file header followed by records in time order (the launcher merges the processes'
// records by timestamp, ties in process and record order), every integer little-endian:
//
//   file header  char magic[8] = "SSDTCAP\0"; uint32 version = kCaptureVersion; uint32 header_bytes = 16
//   record       CaptureRecord (64 bytes, below) then `path_bytes` bytes of path text: for open, unlink the path;
//                for rename the old path, a NUL, the new path; for a process start the executable
//
// Paths are absolute (the capture resolves relative paths and directory descriptors). Only files under the capture
// root (ssdtlm-capture --root, default the working directory) are recorded; descriptors of other files, pipes and
// sockets produce no record. Offsets are absolute file offsets of the data moved (the capture asks the kernel for
// the position of read/write without one), `bytes` what the call returned (requested bytes for a failed call are
// not recorded: failed calls make no record). `pc` is the program context of a data write: the return addresses on
// the call stack at the call, each taken as (its module's path, its offset in the module), hashed into 64 bits
// (0 = none). Version 2 adds a data write's call site in `aux`: the first of those return addresses alone (where the
// program called the write), hashed the same way and folded to 32 bits (0 = unknown: version 1 has none). A reader
// reads versions 1 and 2 and refuses a version it does not know.
#pragma once
#include <cstdint>

namespace ssdtlm {
namespace capture {

constexpr char kMagic[8] = {'S', 'S', 'D', 'T', 'C', 'A', 'P', '\0'};
constexpr uint32_t kCaptureVersion = 2;
constexpr uint32_t kOldestCaptureVersion = 1;  // version 1: no call sites (Write's aux is 0)
constexpr uint32_t kFileHeaderBytes = 16;

enum class Kind : uint8_t {
  ProcessStart = 1,  // a process began (path: its executable; aux: its parent's pid)
  ProcessExit = 2,
  Open = 3,          // fd opened on path; flags: the open flags; offset: the file's size at the open
  Close = 4,
  Read = 5,          // bytes at offset
  Write = 6,         // bytes at offset; pc: the program context; aux: the call site (version 2)
  Fsync = 7,
  Fdatasync = 8,
  SyncRange = 9,     // sync_file_range(offset, bytes, flags)
  Fallocate = 10,    // flags: the mode; offset, bytes
  Truncate = 11,     // ftruncate to `offset`
  Unlink = 12,       // path
  Rename = 13,       // old path NUL new path
  Hint = 14,         // fcntl(F_SET_RW_HINT): aux = the write-life hint (RWH_WRITE_LIFE_*: 0 not set .. 5 extreme)
  Dup = 15,          // fd duplicated as aux
  Unseen = 16,       // I/O the capture cannot follow, kept so the reader refuses or counts it: aux = UnseenWhat
  Size = 17,         // (version 2) a writable descriptor's file seen at `offset` bytes when the process closed it,
                     // replaced it (dup2), fclosed it or exited, and larger than this process's recorded writes
                     // explain; pc, aux: the program context and call site there. The replay writes the growth no
                     // recorded write explains (stdio's internal writes, a redirected stdout) as one write.
};

enum class UnseenWhat : uint32_t {
  SharedWritableMmap = 1,  // mmap(PROT_WRITE, MAP_SHARED) of a recorded file: its stores are invisible
  IoUring = 2,             // io_uring_setup: submissions bypass the C library
  Aio = 3,                 // io_submit (Linux AIO)
  StdioWrite = 4,          // fopen'ed for writing: stdio's buffered writes go through glibc's internal write
                           // (version 1; version 2 records the file's size instead: Kind::Size)
};

// Open flags the reader interprets (Linux x86-64 / generic values).
constexpr uint32_t kOpenWrite = 03, kOpenCreat = 0100, kOpenTrunc = 01000, kOpenAppend = 02000;
constexpr uint32_t kOpenDsync = 010000, kOpenSync = 04010000, kOpenDirect = 040000;

#pragma pack(push, 1)
struct CaptureRecord {
  uint8_t kind = 0;         // Kind
  uint8_t reserved = 0;
  uint16_t path_bytes = 0;  // path text after the record
  uint32_t pid = 0;
  uint32_t tid = 0;
  int32_t fd = -1;
  uint64_t time_ns = 0;     // CLOCK_MONOTONIC at the call
  uint64_t offset = 0;
  uint64_t bytes = 0;
  uint64_t duration_ns = 0;  // time the call took
  uint64_t pc = 0;
  uint32_t flags = 0;
  uint32_t aux = 0;
};
#pragma pack(pop)
static_assert(sizeof(CaptureRecord) == 64, "the capture record is 64 bytes on disk");

}  // namespace capture
}  // namespace ssdtlm
