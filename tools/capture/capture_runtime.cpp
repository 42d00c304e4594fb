// The capture library's runtime; see capture_runtime.h and README.md.
#include "capture_runtime.h"

#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace ssdtlm {
namespace capture {
namespace {

constexpr int kMaxFd = 65536;
constexpr size_t kBufferBytes = 1 << 20;
constexpr int kMaxFrames = 64;
constexpr size_t kPcCacheSlots = 1 << 14;

// Plain data, zero-initialised before any code runs (no dynamic initialisation that could run after the
// constructor below); the mutexes are initialised by capture_init.
struct State {
  bool on;
  int out;             // the process's raw record file (-1 none)
  char dir[512];       // SSDTLM_CAPTURE_DIR
  char root[4096];     // SSDTLM_CAPTURE_ROOT, with a trailing '/'
  size_t root_len;
  pid_t pid;
  pthread_mutex_t lock;
  size_t used;
  char buf[kBufferBytes];
  uintptr_t self_base;  // this library's load address (its frames are skipped)
  pthread_mutex_t pc_lock;
  uintptr_t pc_addr[kPcCacheSlots];
  uint64_t pc_norm[kPcCacheSlots];
};
State g;
uint8_t g_tracked[kMaxFd];   // 1: recorded, 2: recorded and writable
uint64_t g_accounted[kMaxFd];  // writable: the file size this process's opens and recorded writes explain
FILE* g_stream[kMaxFd];        // the stdio stream on a recorded descriptor, flushed at exit before its size is seen
std::atomic<int> g_max_tracked{-1};

struct Dirent64 {  // getdents64's record (linux/dirent.h)
  uint64_t ino;
  int64_t off;
  uint16_t len;
  uint8_t type;
  char name[1];
};
thread_local int t_depth = 0;
thread_local pid_t t_tid = 0;

void raw_write_all(int fd, const char* p, size_t n) {
  while (n > 0) {
    const long w = syscall(SYS_write, fd, p, n);
    if (w <= 0) return;  // nothing sensible to do inside the program; the launcher checks the process ended cleanly
    p += w;
    n -= size_t(w);
  }
}

void open_output() {
  char path[640];
  std::snprintf(path, sizeof path, "%s/p%d.raw", g.dir, int(g.pid));
  const int fd = int(syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644));
  if (fd < 0) {
    g.on = false;
    return;
  }
  // A high descriptor, so programs that close or reuse low ones do not hit it (close() of it is refused).
  const int high = int(syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 1000));
  if (high >= 0) {
    syscall(SYS_close, fd);
    g.out = high;
  } else {
    g.out = fd;
  }
}

void flush_locked() {
  if (g.out >= 0 && g.used) raw_write_all(g.out, g.buf, g.used);
  g.used = 0;
}

void start_record() {
  char exe[1024];
  const long n = syscall(SYS_readlink, "/proc/self/exe", exe, sizeof exe - 1);
  exe[n > 0 ? n : 0] = '\0';
  CaptureRecord r;
  r.kind = uint8_t(Kind::ProcessStart);
  r.time_ns = now_ns();
  r.aux = uint32_t(getppid());
  r.path_bytes = uint16_t(std::strlen(exe));
  emit(r, exe);
}

void before_fork() { pthread_mutex_lock(&g.lock); }
void after_fork_parent() { pthread_mutex_unlock(&g.lock); }
void after_fork_child() {
  // The child copied the parent's unwritten records and output descriptor: drop both, start its own file.
  g.used = 0;
  if (g.out >= 0) syscall(SYS_close, g.out);
  g.out = -1;
  g.pid = pid_t(syscall(SYS_getpid));
  t_tid = 0;
  pthread_mutex_unlock(&g.lock);
  if (!g.on) return;
  open_output();
  if (g.on) start_record();
}

__attribute__((constructor)) void capture_init() {
  const char* dir = std::getenv("SSDTLM_CAPTURE_DIR");
  const char* root = std::getenv("SSDTLM_CAPTURE_ROOT");
  if (!dir || !root || std::strlen(dir) >= sizeof g.dir || std::strlen(root) + 2 >= sizeof g.root) return;
  pthread_mutex_init(&g.lock, nullptr);
  pthread_mutex_init(&g.pc_lock, nullptr);
  g.out = -1;
  std::strcpy(g.dir, dir);
  std::strcpy(g.root, root);
  g.root_len = std::strlen(g.root);
  if (g.root_len == 0 || g.root[g.root_len - 1] != '/') g.root[g.root_len++] = '/';
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&capture_init), &self)) g.self_base = uintptr_t(self.dli_fbase);
  void* warm[2];
  backtrace(warm, 2);  // loads the unwinder (libgcc_s) now, not inside the program's first write
  g.pid = pid_t(syscall(SYS_getpid));
  g.on = true;
  open_output();
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
  if (g.on) start_record();
  if (g.on) adopt_inherited();
}

__attribute__((destructor)) void capture_fini() { process_exit(true); }

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

uint64_t fnv(const char* s) {
  uint64_t h = 1469598103934665603ull;
  for (; s && *s; ++s) h = (h ^ uint8_t(*s)) * 1099511628211ull;
  return h;
}

// (module path hash) + (offset in the module) of a return address, cached; 0 for this library's own frames.
uint64_t normalise(uintptr_t a) {
  size_t slot = size_t((a * 0x9E3779B97F4A7C15ull) >> 50) & (kPcCacheSlots - 1);
  for (size_t probe = 0; probe < 8; ++probe, slot = (slot + 1) & (kPcCacheSlots - 1))
    if (g.pc_addr[slot] == a) return g.pc_norm[slot];
  Dl_info info;
  uint64_t norm = a;  // no module (JIT code): the raw address
  if (dladdr(reinterpret_cast<void*>(a), &info) && info.dli_fbase) {
    norm = uintptr_t(info.dli_fbase) == g.self_base ? 0 : fnv(info.dli_fname) + (a - uintptr_t(info.dli_fbase));
  }
  slot = size_t((a * 0x9E3779B97F4A7C15ull) >> 50) & (kPcCacheSlots - 1);
  g.pc_addr[slot] = a;
  g.pc_norm[slot] = norm;
  return norm;
}

}  // namespace

bool active() { return g.on && t_depth == 0; }
HookScope::HookScope() { ++t_depth; }
HookScope::~HookScope() { --t_depth; }

uint64_t now_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000ull + uint64_t(ts.tv_nsec);
}

void emit(CaptureRecord& r, const char* path) {
  if (!g.on) return;
  if (t_tid == 0) t_tid = pid_t(syscall(SYS_gettid));
  r.tid = uint32_t(t_tid);
  pthread_mutex_lock(&g.lock);
  r.pid = uint32_t(g.pid);
  if (g.used + sizeof r + r.path_bytes > kBufferBytes) flush_locked();
  std::memcpy(g.buf + g.used, &r, sizeof r);
  g.used += sizeof r;
  if (r.path_bytes) std::memcpy(g.buf + g.used, path, r.path_bytes);
  g.used += r.path_bytes;
  pthread_mutex_unlock(&g.lock);
}

WriteOrigin program_context() {
  void* frames[kMaxFrames];
  const int n = backtrace(frames, kMaxFrames);
  uint64_t h = 0x5CA9ull, site = 0;
  int used = 0;
  pthread_mutex_lock(&g.pc_lock);
  for (int i = 0; i < n; ++i) {
    // A return address points after the call: one byte back is inside the calling instruction.
    const uint64_t norm = normalise(uintptr_t(frames[i]) - 1);
    if (norm == 0) continue;  // the capture library's own frames
    if (used == 0) site = norm;
    h = mix(h, norm);
    ++used;
  }
  pthread_mutex_unlock(&g.pc_lock);
  WriteOrigin o;
  o.signature = used == 0 || h == 0 ? 1 : h;
  const uint32_t folded = uint32_t(site ^ (site >> 32));
  o.call_site = used == 0 || folded == 0 ? 1 : folded;
  return o;
}

bool tracked(int fd) { return fd >= 0 && fd < kMaxFd && g_tracked[fd]; }
void set_tracked(int fd, bool on, bool writable, uint64_t size) {
  if (fd < 0 || fd >= kMaxFd) return;
  g_tracked[fd] = uint8_t(on ? (writable ? 2 : 1) : 0);
  g_accounted[fd] = size;
  g_stream[fd] = nullptr;
  if (on && fd > g_max_tracked.load()) g_max_tracked.store(fd);
}

void wrote_to(int fd, uint64_t end) {
  if (fd >= 0 && fd < kMaxFd && end > g_accounted[fd]) g_accounted[fd] = end;
}

void set_stream(int fd, FILE* fp) {
  if (fd >= 0 && fd < kMaxFd) g_stream[fd] = fp;
}

// Writes out a stream's buffer as the C library would after the destructors, without waiting for a lock another
// thread holds (the C library's own exit flush does not lock either: a thread blocked in a read holds its stream).
static void flush_stream(int fd) {
  FILE* fp = fd == 1 ? stdout : fd == 2 ? stderr : g_stream[fd];
  if (!fp || ftrylockfile(fp) != 0) return;
  fflush_unlocked(fp);
  funlockfile(fp);
}

void copy_tracking(int from, int to) {
  if (from < 0 || from >= kMaxFd) return;
  set_tracked(to, g_tracked[from] != 0, g_tracked[from] == 2, g_accounted[from]);
}

void size_seen(int fd) {
  if (fd < 0 || fd >= kMaxFd || g_tracked[fd] != 2 || !active()) return;
  HookScope scope;
  struct stat st;
  if (syscall(SYS_fstat, fd, &st) != 0 || uint64_t(st.st_size) <= g_accounted[fd]) return;
  g_accounted[fd] = uint64_t(st.st_size);
  CaptureRecord r;
  r.kind = uint8_t(Kind::Size);
  r.fd = fd;
  r.time_ns = now_ns();
  r.offset = uint64_t(st.st_size);
  const WriteOrigin o = program_context();
  r.pc = o.signature;
  r.aux = o.call_site;
  emit(r);
}

void adopt_inherited() {  // record_open takes the hook scope itself
  const int dir = int(syscall(SYS_openat, AT_FDCWD, "/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (dir < 0) return;
  int fds[256];
  int n = 0;
  char ents[4096];
  for (long got; (got = syscall(SYS_getdents64, dir, ents, sizeof ents)) > 0;)
    for (long at = 0; at < got;) {
      const auto* e = reinterpret_cast<const Dirent64*>(ents + at);
      const int fd = std::atoi(e->name);
      if (e->name[0] >= '0' && e->name[0] <= '9' && fd != dir && fd != g.out && n < 256) fds[n++] = fd;
      at += e->len;
    }
  syscall(SYS_close, dir);
  for (int i = 0; i < n; ++i) {
    const long flags = syscall(SYS_fcntl, fds[i], F_GETFL);
    if (flags >= 0) record_open(fds[i], int(flags), now_ns());
  }
}

bool fd_path(int fd, char* out, size_t n) {
  char link[64];
  std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  const long len = syscall(SYS_readlink, link, out, n - 1);
  if (len <= 0 || out[0] != '/') return false;
  out[len] = '\0';
  return true;
}

bool absolute_path(int dirfd, const char* path, char* out, size_t n) {
  if (!path) return false;
  if (path[0] == '/') {
    if (std::strlen(path) >= n) return false;
    std::strcpy(out, path);
    return true;
  }
  char base[4096];
  if (dirfd == AT_FDCWD) {
    if (!getcwd(base, sizeof base)) return false;
  } else if (!fd_path(dirfd, base, sizeof base)) {
    return false;
  }
  return size_t(std::snprintf(out, n, "%s/%s", base, path)) < n;
}

bool under_root(const char* p) {
  return g.root_len && (std::strncmp(p, g.root, g.root_len) == 0 ||
                        (std::strlen(p) + 1 == g.root_len && std::strncmp(p, g.root, g.root_len - 1) == 0));
}

void flush() {
  pthread_mutex_lock(&g.lock);
  flush_locked();
  pthread_mutex_unlock(&g.lock);
}

void process_exit(bool flush_stdio) {
  static std::atomic<bool> done{false};
  if (!g.on || done.exchange(true)) return;
  for (int fd = 0; fd <= g_max_tracked.load(); ++fd) {
    if (flush_stdio && g_tracked[fd] == 2) flush_stream(fd);
    size_seen(fd);
  }
  CaptureRecord r;
  r.kind = uint8_t(Kind::ProcessExit);
  r.time_ns = now_ns();
  emit(r);
  flush();
}

int output_fd() { return g.on ? g.out : -1; }

}  // namespace capture
}  // namespace ssdtlm
