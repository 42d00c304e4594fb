// The capture library's runtime (capture_runtime.cpp): the process's record buffer and output file, the descriptor
// table of recorded files, path resolution under the capture root, and the program-context signature.
// Everything here may run inside any hooked call of the program: no exceptions, no C++ allocation on the hot path.
#pragma once
#include <cstddef>
#include <cstdint>

#include "workload/trace/capture_format.h"

namespace ssdtlm {
namespace capture {

// True while the capture is on in this process (the launcher's environment was found) and the calling thread is not
// already inside a hook (the capture's own calls record nothing).
bool active();

// Scope of a hook: marks the thread as inside the capture so nested calls are not recorded.
struct HookScope {
  HookScope();
  ~HookScope();
  HookScope(const HookScope&) = delete;
  HookScope& operator=(const HookScope&) = delete;
};

uint64_t now_ns();
// Fills pid, tid and appends the record (and its path text, path_bytes of it) to the process's buffer.
void emit(CaptureRecord& r, const char* path = nullptr);

// Where a data write came from. signature: the program context, the return addresses above the capture library's
// own frames, each as (hash of its module's path) + (offset in the module), mixed into one 64-bit value (never 0).
// call_site: the first of those return addresses alone (the instruction after the call into the write), folded to
// 32 bits (never 0): the write call site, as strace -k's frame above the C library's wrapper shows it.
struct WriteOrigin {
  uint64_t signature = 0;
  uint32_t call_site = 0;
};
WriteOrigin program_context();

// Recorded descriptors (regular files under the root).
bool tracked(int fd);
void set_tracked(int fd, bool on);
// The absolute path of an open descriptor (readlink of /proc/self/fd/N); false if it has none.
bool fd_path(int fd, char* out, size_t n);
// The absolute path of `path` relative to dirfd (AT_FDCWD = the working directory); no symlink resolution.
bool absolute_path(int dirfd, const char* path, char* out, size_t n);
bool under_root(const char* abs_path);
// Size at an fopen for writing (stdio's writes are invisible: fclose records the growth as one write).
void set_stdio_size(int fd, uint64_t size, bool on);
bool stdio_size(int fd, uint64_t& size);

// The capture's own output descriptor (the program may not close it).
int output_fd();
// fopen's open is internal to the C library: its hook records it through this (capture_preload.cpp).
void opened_by_stdio(int fd, int flags, uint64_t t0);
// Writes out the buffer (before an exec, at _exit and at exit).
void flush();
// Records this process's exit and flushes (destructor, _exit).
void process_exit();

}  // namespace capture
}  // namespace ssdtlm
