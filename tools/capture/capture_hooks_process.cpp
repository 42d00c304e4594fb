// The LD_PRELOAD library's other hooks: descriptor duplication and write-life hints (fcntl, dup), what the capture
// cannot follow (shared writable mmap, io_uring and Linux AIO through syscall(), stdio), and the process's end and
// exec (the buffer is written out first). README.md.
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "capture_runtime.h"

using namespace ssdtlm::capture;

namespace {

template <class Fn>
Fn real(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

#ifndef F_SET_RW_HINT
#define F_SET_RW_HINT 1036
#endif
#ifndef F_SET_FILE_RW_HINT
#define F_SET_FILE_RW_HINT 1038
#endif

// A recorded descriptor closed by a call whose close is internal (fclose) or implicit (dup2/dup3 over it): its
// file's size first, then the close.
void closing(int fd) {
  if (!tracked(fd) || !active()) return;
  size_seen(fd);
  HookScope scope;
  CaptureRecord r;
  r.kind = uint8_t(Kind::Close);
  r.fd = fd;
  r.time_ns = now_ns();
  emit(r);
  set_tracked(fd, false);
}

void duplicated(int from, int to) {
  if (to < 0) return;
  set_tracked(to, false);
  if (!tracked(from) || !active()) return;
  HookScope scope;
  copy_tracking(from, to);
  CaptureRecord r;
  r.kind = uint8_t(Kind::Dup);
  r.fd = from;
  r.time_ns = now_ns();
  r.aux = uint32_t(to);
  emit(r);
}

void hinted(int fd, uint64_t hint) {
  if (!tracked(fd) || !active()) return;
  HookScope scope;
  CaptureRecord r;
  r.kind = uint8_t(Kind::Hint);
  r.fd = fd;
  r.time_ns = now_ns();
  r.aux = uint32_t(hint);
  emit(r);
}

void unseen(UnseenWhat what, int fd, uint64_t bytes) {
  if (!active()) return;
  HookScope scope;
  CaptureRecord r;
  r.kind = uint8_t(Kind::Unseen);
  r.fd = fd;
  r.time_ns = now_ns();
  r.bytes = bytes;
  r.aux = uint32_t(what);
  emit(r);
}

long fcntl_call(const char* name, int fd, int cmd, void* arg) {
  using Fn = int (*)(int, int, ...);
  static Fn f = real<Fn>("fcntl");
  static Fn f64 = real<Fn>("fcntl64");
  Fn use = (std::strcmp(name, "fcntl64") == 0 && f64) ? f64 : f;
  const int r = use(fd, cmd, arg);
  if (r >= 0 && (cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC)) duplicated(fd, r);
  if (r == 0 && (cmd == F_SET_RW_HINT || cmd == F_SET_FILE_RW_HINT) && arg) hinted(fd, *static_cast<uint64_t*>(arg));
  return r;
}

// stdio: its writes go through the C library's internal write, which no preload can interpose, as do the writes of
// a program whose stdout the shell redirected into a file. A writable recorded descriptor's file size is therefore
// recorded (Kind::Size) when it grew past this process's recorded writes: at close, dup2 over it, fclose (after the
// flush) and exit; the replay writes the growth no recorded write explains (program context: where it was seen).
}  // namespace

extern "C" {

int fcntl(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return int(fcntl_call("fcntl", fd, cmd, arg));
}

int fcntl64(int fd, int cmd, ...) {
  va_list ap;
  va_start(ap, cmd);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  return int(fcntl_call("fcntl64", fd, cmd, arg));
}

int dup(int fd) noexcept {
  static auto f = real<int (*)(int)>("dup");
  const int r = f(fd);
  duplicated(fd, r);
  return r;
}

int dup2(int fd, int to) noexcept {
  static auto f = real<int (*)(int, int)>("dup2");
  if (to == output_fd()) return -1;
  if (fd != to && fcntl_call("fcntl", fd, F_GETFD, nullptr) >= 0) closing(to);
  const int r = f(fd, to);
  if (r >= 0 && r != fd) duplicated(fd, r);
  return r;
}

int dup3(int fd, int to, int flags) noexcept {
  static auto f = real<int (*)(int, int, int)>("dup3");
  if (to == output_fd()) return -1;
  if (fd != to && fcntl_call("fcntl", fd, F_GETFD, nullptr) >= 0) closing(to);
  const int r = f(fd, to, flags);
  if (r >= 0) duplicated(fd, r);
  return r;
}

void* mmap(void* a, size_t n, int prot, int flags, int fd, off_t off) noexcept {
  static auto f = real<void* (*)(void*, size_t, int, int, int, off_t)>("mmap");
  void* r = f(a, n, prot, flags, fd, off);
  if (r != MAP_FAILED && (prot & PROT_WRITE) && (flags & MAP_SHARED) && tracked(fd))
    unseen(UnseenWhat::SharedWritableMmap, fd, n);
  return r;
}

void* mmap64(void* a, size_t n, int prot, int flags, int fd, off_t off) noexcept {
  return mmap(a, n, prot, flags, fd, off);
}

long syscall(long nr, ...) noexcept {
  static auto f = real<long (*)(long, ...)>("syscall");
  va_list ap;
  va_start(ap, nr);
  long a[6];
  for (long& x : a) x = va_arg(ap, long);
  va_end(ap);
  if (nr == SYS_io_uring_setup) unseen(UnseenWhat::IoUring, -1, 0);
  if (nr == SYS_io_submit) unseen(UnseenWhat::Aio, -1, 0);
  return f(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

FILE* fopen(const char* p, const char* mode) {
  static auto f = real<FILE* (*)(const char*, const char*)>("fopen");
  FILE* fp = f(p, mode);  // its open() is internal: recorded here
  if (fp && active()) {
    const int fd = fileno(fp);
    // fopen's internal open is not interposed: record it as open() would.
    int fl = 0;
    switch (mode[0]) {
      case 'w': fl = O_WRONLY | O_CREAT | O_TRUNC; break;
      case 'a': fl = O_WRONLY | O_CREAT | O_APPEND; break;
      default: fl = O_RDONLY;
    }
    if (std::strchr(mode, '+')) fl = (fl & ~O_WRONLY) | O_RDWR;
    record_open(fd, fl, now_ns());
    if (tracked(fd)) set_stream(fd, fp);
  }
  return fp;
}

FILE* fopen64(const char* p, const char* mode) { return fopen(p, mode); }

FILE* fdopen(int fd, const char* mode) noexcept {
  static auto f = real<FILE* (*)(int, const char*)>("fdopen");
  FILE* fp = f(fd, mode);
  if (fp && tracked(fd)) set_stream(fd, fp);
  return fp;
}

int fclose(FILE* fp) {
  static auto f = real<int (*)(FILE*)>("fclose");
  const int fd = fp ? fileno(fp) : -1;
  if (tracked(fd) && active()) fflush(fp);  // what the close writes out, before the size is seen
  closing(fd);
  set_tracked(fd, false);  // fclose's close is internal
  return f(fp);
}

int execve(const char* p, char* const argv[], char* const envp[]) noexcept {
  static auto f = real<int (*)(const char*, char* const*, char* const*)>("execve");
  flush();
  return f(p, argv, envp);
}

int execv(const char* p, char* const argv[]) noexcept {
  static auto f = real<int (*)(const char*, char* const*)>("execv");
  flush();
  return f(p, argv);
}

int execvp(const char* p, char* const argv[]) noexcept {
  static auto f = real<int (*)(const char*, char* const*)>("execvp");
  flush();
  return f(p, argv);
}

int execvpe(const char* p, char* const argv[], char* const envp[]) noexcept {
  static auto f = real<int (*)(const char*, char* const*, char* const*)>("execvpe");
  flush();
  return f(p, argv, envp);
}

int fexecve(int fd, char* const argv[], char* const envp[]) noexcept {
  static auto f = real<int (*)(int, char* const*, char* const*)>("fexecve");
  flush();
  return f(fd, argv, envp);
}

#define EXECL_BODY(call)                                     \
  char* argv[1024];                                          \
  int n = 0;                                                 \
  argv[n++] = const_cast<char*>(arg);                        \
  va_list ap;                                                \
  va_start(ap, arg);                                         \
  while (n < 1023 && (argv[n] = va_arg(ap, char*)) != nullptr) ++n; \
  argv[n] = nullptr;

int execl(const char* p, const char* arg, ...) noexcept {
  EXECL_BODY()
  va_end(ap);
  return execv(p, argv);
}

int execlp(const char* p, const char* arg, ...) noexcept {
  EXECL_BODY()
  va_end(ap);
  return execvp(p, argv);
}

int execle(const char* p, const char* arg, ...) noexcept {
  EXECL_BODY()
  char* const* envp = va_arg(ap, char* const*);
  va_end(ap);
  return execve(p, argv, envp);
}

void _exit(int status) {
  static auto f = real<void (*)(int)>("_exit");
  process_exit(false);
  f(status);
  __builtin_unreachable();
}

void _Exit(int status) { _exit(status); }

}  // extern "C"
