// The capture library's runtime (capture_runtime.cpp): the process's record buffer and output file, the descriptor
// table of recorded files, path resolution under the capture root, and the program-context signature.
// Everything here may run inside any hooked call of the program: no exceptions, no C++ allocation on the hot path.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>

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

// Recorded descriptors (regular files under the root). A writable one also keeps the file size this process has
// accounted for (its size at the open, then the end of each recorded write through it).
bool tracked(int fd);
void set_tracked(int fd, bool on, bool writable = false, uint64_t size = 0);
void wrote_to(int fd, uint64_t end);    // a recorded write through fd reached `end`
void copy_tracking(int from, int to);   // dup: `to` is `from`'s file
// Records the file's size (Kind::Size) when a writable tracked fd's file grew past what this process accounted for:
// called before the descriptor is closed or replaced, at fclose after the flush, and at exit.
void size_seen(int fd);
// The stdio stream on a recorded descriptor (fopen, fdopen), so exit can flush it first (nullptr: none).
void set_stream(int fd, FILE* fp);
// At process start: descriptors inherited across exec that are regular files under the root, recorded as opens.
void adopt_inherited();
// The absolute path of an open descriptor (readlink of /proc/self/fd/N); false if it has none.
bool fd_path(int fd, char* out, size_t n);
// The absolute path of `path` relative to dirfd (AT_FDCWD = the working directory); no symlink resolution.
bool absolute_path(int dirfd, const char* path, char* out, size_t n);
bool under_root(const char* abs_path);

// The capture's own output descriptor (the program may not close it).
int output_fd();
// Records a descriptor the program now holds as an open (capture_preload.cpp): tracked when it is a regular file under
// the root that still has a name. For opens the preload does not see: fopen's (internal to the C library) and
// descriptors inherited across exec.
void record_open(int fd, int flags, uint64_t t0);
// Writes out the buffer (before an exec, at _exit and at exit).
void flush();
// Records this process's exit and flushes (destructor, _exit). flush_stdio: stdio's buffers are flushed first and
// every writable descriptor's size checked (at exit, where the C library flushes them after the destructors).
void process_exit(bool flush_stdio);

}  // namespace capture
}  // namespace ssdtlm
