// The LD_PRELOAD library of ssdtlm-capture: the C library's file calls, interposed. Each hook calls the real
// function, then, for a descriptor of a regular file under the capture root, records what it did (README.md).
#include <dlfcn.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstring>

#include "capture_runtime.h"

using namespace ssdtlm::capture;

namespace {

template <class Fn>
Fn real(const char* name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}
#define REAL(name) static auto real_##name = real<decltype(&::name)>(#name)

// Records a read or write that moved `ret` bytes at `off` (-1: at the position before the call, which the kernel
// gives as the position now minus ret).
void data_record(Kind k, int fd, int64_t off, ssize_t ret, uint64_t t0) {
  if (ret <= 0 || !active() || !tracked(fd)) return;
  HookScope scope;
  CaptureRecord r;
  r.kind = uint8_t(k);
  r.fd = fd;
  r.time_ns = t0;
  r.duration_ns = now_ns() - t0;
  if (off < 0) off = int64_t(syscall(SYS_lseek, fd, 0, SEEK_CUR)) - ret;
  if (off < 0) return;  // not seekable after all
  r.offset = uint64_t(off);
  r.bytes = uint64_t(ret);
  if (k == Kind::Write) {
    const WriteOrigin o = program_context();
    r.pc = o.signature;
    r.aux = o.call_site;
    wrote_to(fd, r.offset + r.bytes);
  }
  emit(r);
}

void simple_record(Kind k, int fd, uint64_t t0, uint64_t offset = 0, uint64_t bytes = 0, uint32_t flags = 0,
                   uint32_t aux = 0) {
  if (!active() || !tracked(fd)) return;
  HookScope scope;
  CaptureRecord r;
  r.kind = uint8_t(k);
  r.fd = fd;
  r.time_ns = t0;
  r.duration_ns = now_ns() - t0;
  r.offset = offset;
  r.bytes = bytes;
  r.flags = flags;
  r.aux = aux;
  emit(r);
}

// After a successful open of fd: tracked when it is a regular file under the root that still has a name (an
// inherited descriptor may be of a deleted file, whose /proc path no longer names it).
void opened(int fd, int flags, uint64_t t0) {
  if (fd < 0) return;
  set_tracked(fd, false);
  if (!active()) return;
  HookScope scope;
  char path[4096];
  struct stat st;
  if (!fd_path(fd, path, sizeof path) || !under_root(path)) return;
  if (syscall(SYS_fstat, fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink == 0) return;
  set_tracked(fd, true, (flags & O_ACCMODE) != O_RDONLY, uint64_t(st.st_size));
  CaptureRecord r;
  r.kind = uint8_t(Kind::Open);
  r.fd = fd;
  r.time_ns = t0;
  r.duration_ns = now_ns() - t0;
  r.flags = uint32_t(flags);
  r.offset = uint64_t(st.st_size);
  r.path_bytes = uint16_t(std::strlen(path));
  emit(r, path);
}

// unlink / rename of paths under the root (resolved against dirfd).
void path_record(Kind k, int dirfd, const char* p, int dirfd2, const char* p2, uint64_t t0) {
  if (!active()) return;
  HookScope scope;
  char a[4096], b[4096], both[8192];
  if (!absolute_path(dirfd, p, a, sizeof a) || !under_root(a)) return;
  size_t n = std::strlen(a);
  std::memcpy(both, a, n);
  if (k == Kind::Rename) {
    if (!absolute_path(dirfd2, p2, b, sizeof b)) return;
    both[n++] = '\0';
    std::memcpy(both + n, b, std::strlen(b));
    n += std::strlen(b);
  }
  CaptureRecord r;
  r.kind = uint8_t(k);
  r.time_ns = t0;
  r.duration_ns = now_ns() - t0;
  r.path_bytes = uint16_t(n);
  emit(r, both);
}

}  // namespace

void ssdtlm::capture::record_open(int fd, int flags, uint64_t t0) { opened(fd, flags, t0); }

extern "C" {

// open's and openat's mode argument, present only when the flags create a file (O_CREAT, O_TMPFILE).
#define TAKE_OPEN_MODE(flags, mode)                                      \
  mode_t mode = 0;                                                       \
  if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE) {           \
    va_list ap;                                                          \
    va_start(ap, flags);                                                 \
    mode = mode_t(va_arg(ap, int));                                      \
    va_end(ap);                                                          \
  }

#define OPEN_HOOK(name)                                                  \
  int name(const char* path, int flags, ...) {                           \
    REAL(name);                                                          \
    TAKE_OPEN_MODE(flags, mode)                                          \
    const uint64_t t0 = now_ns();                                        \
    const int fd = real_##name(path, flags, mode);                       \
    opened(fd, flags, t0);                                               \
    return fd;                                                           \
  }
OPEN_HOOK(open)
OPEN_HOOK(open64)

#define OPENAT_HOOK(name)                                                \
  int name(int dirfd, const char* path, int flags, ...) {                \
    REAL(name);                                                          \
    TAKE_OPEN_MODE(flags, mode)                                          \
    const uint64_t t0 = now_ns();                                        \
    const int fd = real_##name(dirfd, path, flags, mode);                \
    opened(fd, flags, t0);                                               \
    return fd;                                                           \
  }
OPENAT_HOOK(openat)
OPENAT_HOOK(openat64)

int creat(const char* path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }
int creat64(const char* path, mode_t mode) { return open(path, O_CREAT | O_WRONLY | O_TRUNC, mode); }

int close(int fd) {
  REAL(close);
  if (fd >= 0 && fd == output_fd()) return 0;  // the capture's own file stays open
  const uint64_t t0 = now_ns();
  if (tracked(fd)) {
    size_seen(fd);
    simple_record(Kind::Close, fd, t0);
    set_tracked(fd, false);
  }
  return real_close(fd);
}

ssize_t read(int fd, void* b, size_t n) {
  REAL(read);
  const uint64_t t0 = now_ns();
  const ssize_t r = real_read(fd, b, n);
  data_record(Kind::Read, fd, -1, r, t0);
  return r;
}

ssize_t write(int fd, const void* b, size_t n) {
  REAL(write);
  const uint64_t t0 = now_ns();
  const ssize_t r = real_write(fd, b, n);
  data_record(Kind::Write, fd, -1, r, t0);
  return r;
}

#define PDATA_HOOK(name, kind, ptr)                          \
  ssize_t name(int fd, ptr b, size_t n, off_t off) {         \
    REAL(name);                                              \
    const uint64_t t0 = now_ns();                            \
    const ssize_t r = real_##name(fd, b, n, off);            \
    data_record(kind, fd, int64_t(off), r, t0);              \
    return r;                                                \
  }
PDATA_HOOK(pread, Kind::Read, void*)
PDATA_HOOK(pread64, Kind::Read, void*)
PDATA_HOOK(pwrite, Kind::Write, const void*)
PDATA_HOOK(pwrite64, Kind::Write, const void*)

ssize_t readv(int fd, const struct iovec* iov, int n) {
  REAL(readv);
  const uint64_t t0 = now_ns();
  const ssize_t r = real_readv(fd, iov, n);
  data_record(Kind::Read, fd, -1, r, t0);
  return r;
}

ssize_t writev(int fd, const struct iovec* iov, int n) {
  REAL(writev);
  const uint64_t t0 = now_ns();
  const ssize_t r = real_writev(fd, iov, n);
  data_record(Kind::Write, fd, -1, r, t0);
  return r;
}

#define PV_HOOK(name, kind)                                              \
  ssize_t name(int fd, const struct iovec* iov, int n, off_t off) {      \
    REAL(name);                                                          \
    const uint64_t t0 = now_ns();                                        \
    const ssize_t r = real_##name(fd, iov, n, off);                      \
    data_record(kind, fd, int64_t(off), r, t0);                          \
    return r;                                                            \
  }
PV_HOOK(preadv, Kind::Read)
PV_HOOK(preadv64, Kind::Read)
PV_HOOK(pwritev, Kind::Write)
PV_HOOK(pwritev64, Kind::Write)

#define PV2_HOOK(name, kind)                                                       \
  ssize_t name(int fd, const struct iovec* iov, int n, off_t off, int flags) {     \
    REAL(name);                                                                    \
    const uint64_t t0 = now_ns();                                                  \
    const ssize_t r = real_##name(fd, iov, n, off, flags);                         \
    data_record(kind, fd, int64_t(off), r, t0);                                    \
    return r;                                                                      \
  }
PV2_HOOK(preadv2, Kind::Read)
PV2_HOOK(preadv64v2, Kind::Read)
PV2_HOOK(pwritev2, Kind::Write)
PV2_HOOK(pwritev64v2, Kind::Write)

int fsync(int fd) {
  REAL(fsync);
  const uint64_t t0 = now_ns();
  const int r = real_fsync(fd);
  if (r == 0) simple_record(Kind::Fsync, fd, t0);
  return r;
}

int fdatasync(int fd) {
  REAL(fdatasync);
  const uint64_t t0 = now_ns();
  const int r = real_fdatasync(fd);
  if (r == 0) simple_record(Kind::Fdatasync, fd, t0);
  return r;
}

int sync_file_range(int fd, off64_t off, off64_t n, unsigned int flags) {
  REAL(sync_file_range);
  const uint64_t t0 = now_ns();
  const int r = real_sync_file_range(fd, off, n, flags);
  if (r == 0) simple_record(Kind::SyncRange, fd, t0, uint64_t(off), uint64_t(n), flags);
  return r;
}

#define FALLOC_HOOK(name)                                                              \
  int name(int fd, int mode, off_t off, off_t n) {                                     \
    REAL(name);                                                                        \
    const uint64_t t0 = now_ns();                                                      \
    const int r = real_##name(fd, mode, off, n);                                       \
    if (r == 0) simple_record(Kind::Fallocate, fd, t0, uint64_t(off), uint64_t(n), uint32_t(mode)); \
    return r;                                                                          \
  }
FALLOC_HOOK(fallocate)
FALLOC_HOOK(fallocate64)

#define PFALLOC_HOOK(name)                                                              \
  int name(int fd, off_t off, off_t n) {                                                \
    REAL(name);                                                                         \
    const uint64_t t0 = now_ns();                                                       \
    const int r = real_##name(fd, off, n);                                              \
    if (r == 0) simple_record(Kind::Fallocate, fd, t0, uint64_t(off), uint64_t(n), 0);  \
    return r;                                                                           \
  }
PFALLOC_HOOK(posix_fallocate)
PFALLOC_HOOK(posix_fallocate64)

#define FTRUNC_HOOK(name)                                              \
  int name(int fd, off_t len) noexcept {                               \
    REAL(name);                                                        \
    const uint64_t t0 = now_ns();                                      \
    const int r = real_##name(fd, len);                                \
    if (r == 0) simple_record(Kind::Truncate, fd, t0, uint64_t(len));  \
    return r;                                                          \
  }
FTRUNC_HOOK(ftruncate)
FTRUNC_HOOK(ftruncate64)

int unlink(const char* p) noexcept {
  REAL(unlink);
  const uint64_t t0 = now_ns();
  const int r = real_unlink(p);
  if (r == 0) path_record(Kind::Unlink, AT_FDCWD, p, AT_FDCWD, nullptr, t0);
  return r;
}

int unlinkat(int dirfd, const char* p, int flags) noexcept {
  REAL(unlinkat);
  const uint64_t t0 = now_ns();
  const int r = real_unlinkat(dirfd, p, flags);
  if (r == 0 && !(flags & AT_REMOVEDIR)) path_record(Kind::Unlink, dirfd, p, AT_FDCWD, nullptr, t0);
  return r;
}

int remove(const char* p) noexcept {
  REAL(remove);
  const uint64_t t0 = now_ns();
  struct stat st;
  const bool file = syscall(SYS_newfstatat, AT_FDCWD, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISDIR(st.st_mode);
  const int r = real_remove(p);
  if (r == 0 && file) path_record(Kind::Unlink, AT_FDCWD, p, AT_FDCWD, nullptr, t0);
  return r;
}

int rename(const char* a, const char* b) noexcept {
  REAL(rename);
  const uint64_t t0 = now_ns();
  const int r = real_rename(a, b);
  if (r == 0) path_record(Kind::Rename, AT_FDCWD, a, AT_FDCWD, b, t0);
  return r;
}

int renameat(int da, const char* a, int db, const char* b) noexcept {
  REAL(renameat);
  const uint64_t t0 = now_ns();
  const int r = real_renameat(da, a, db, b);
  if (r == 0) path_record(Kind::Rename, da, a, db, b, t0);
  return r;
}

int renameat2(int da, const char* a, int db, const char* b, unsigned int flags) noexcept {
  REAL(renameat2);
  const uint64_t t0 = now_ns();
  const int r = real_renameat2(da, a, db, b, flags);
  if (r == 0) path_record(Kind::Rename, da, a, db, b, t0);
  return r;
}

}  // extern "C"
