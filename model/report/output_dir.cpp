#include "report/output_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <csignal>
#include <cstdio>
#include <cstring>

#include "config/config.h"

namespace ssdtlm {

namespace fs = std::filesystem;

namespace {

const char* const kStagingPrefix = ".ssdtlm-staging-";
const char* const kPrevPrefix = "prev-";  // in the staging folder: an earlier file kept until the move is over

// The kernel's getdents64 record (the C library has no declaration of it).
struct linux_dirent64_view {
  uint64_t d_ino;
  int64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[1];
};

// What the signal handler removes: fixed storage, written only while the signals are blocked.
constexpr int kMaxPaths = 40;
char g_paths[kMaxPaths][PATH_MAX];
volatile sig_atomic_t g_count = 0;
char g_staging[PATH_MAX];
const int kSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_old[3];
bool g_installed[3] = {false, false, false};

// Unlinks every file in the staging folder (its names are not all known up front: fio's logs), with system
// calls only (async-signal-safe): open, getdents64, unlinkat.
void remove_staged_files() {
  const int fd = ::open(g_staging, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char buf[4096];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) break;
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct linux_dirent64_view*>(buf + at);
      const char* name = buf + at + offsetof(linux_dirent64_view, d_name);
      if (!(name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0)))) ::unlinkat(fd, name, 0);
      at += d->d_reclen;
    }
  }
  ::close(fd);
}

extern "C" void remove_staging_and_reraise(int sig) {
  for (int i = 0; i < g_count; ++i) ::unlink(g_paths[i]);
  if (g_staging[0]) {
    remove_staged_files();
    ::rmdir(g_staging);
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);  // delivered when the handler returns: the signal's default action (termination)
}

// Blocks SIGINT, SIGTERM and SIGHUP for its lifetime; one that arrives meanwhile is delivered after.
class SignalHold {
 public:
  SignalHold() {
    sigset_t s;
    sigemptyset(&s);
    for (int sig : kSignals) sigaddset(&s, sig);
    pthread_sigmask(SIG_BLOCK, &s, &old_);
  }
  ~SignalHold() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

void add_signal_path(const std::string& path) {
  SignalHold hold;
  if (g_count >= kMaxPaths || path.size() >= PATH_MAX) return;
  std::memcpy(g_paths[g_count], path.c_str(), path.size() + 1);
  g_count = g_count + 1;
}

void install_handlers(const fs::path& staging) {
  SignalHold hold;
  const std::string s = staging.string();
  if (s.size() < PATH_MAX) std::memcpy(g_staging, s.c_str(), s.size() + 1);
  g_count = 0;
  for (int i = 0; i < 3; ++i) {
    struct sigaction now {};
    if (sigaction(kSignals[i], nullptr, &now) != 0 || now.sa_handler == SIG_IGN) continue;  // nohup: stays ignored
    struct sigaction sa {};
    sa.sa_handler = remove_staging_and_reraise;
    sigemptyset(&sa.sa_mask);
    g_installed[i] = sigaction(kSignals[i], &sa, &g_old[i]) == 0;
  }
}

void uninstall_handlers() {
  SignalHold hold;
  for (int i = 0; i < 3; ++i)
    if (g_installed[i]) {
      sigaction(kSignals[i], &g_old[i], nullptr);
      g_installed[i] = false;
    }
  g_count = 0;
  g_staging[0] = 0;
}

// Staging folders of processes that are gone (SIGKILL, a crash): removed.
void remove_stale_staging(const fs::path& dir) {
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind(kStagingPrefix, 0) != 0) continue;
    const std::string pid_text = name.substr(std::strlen(kStagingPrefix));
    if (pid_text.empty() || pid_text.size() > 9 || pid_text.find_first_not_of("0123456789") != std::string::npos)
      continue;
    const pid_t pid = pid_t(std::stol(pid_text));
    if (pid == ::getpid() || pid <= 0) continue;
    if (::kill(pid, 0) == -1 && errno == ESRCH) {
      std::error_code rec;
      fs::remove_all(it->path(), rec);
    }
  }
}

bool exists_here(const fs::path& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0;
}

bool is_file_or_link(const fs::path& p) {
  struct stat st;
  return ::lstat(p.c_str(), &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode));
}

std::string errno_text() { return std::strerror(errno); }

// Makes `folder` and the folders above it that are missing, each recorded in `made`; false (errno set) when one
// cannot be made or a file stands in its place.
bool make_folders(const fs::path& folder, std::vector<fs::path>& made) {
  if (folder.empty()) return true;
  struct stat st;
  if (::stat(folder.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    errno = ENOTDIR;
    return false;
  }
  if (!make_folders(folder.parent_path(), made)) return false;
  if (::mkdir(folder.c_str(), 0777) != 0 && errno != EEXIST) return false;
  made.push_back(folder);
  return true;
}

}  // namespace

OutputDir::OutputDir(const std::string& dir) : dir_(dir) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw ConfigError("option --out " + dir + ": cannot create the output directory (" +
                      (ec ? ec.message() : "a file of that name exists") + ")");
  remove_stale_staging(dir_);
  fs::path abs = fs::absolute(dir_, ec);
  staging_ = (ec ? dir_ : abs) / (kStagingPrefix + std::to_string(::getpid()));
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec)
    throw ConfigError("option --out " + dir + ": cannot write in the output directory (" +
                      (ec ? ec.message() : "cannot create " + staging_.string()) + ")");
  install_handlers(staging_);
  for (const auto& name : output_file_names()) {
    add_signal_path((staging_ / name).string());
    add_signal_path((staging_ / (kPrevPrefix + name)).string());
  }
}

OutputDir::~OutputDir() {
  std::error_code ec;
  fs::remove_all(staging_, ec);
  uninstall_handlers();
}

void OutputDir::write(const std::string& name, const std::string& text) {
  const fs::path p = staging_ / name;
  const auto fail = [&](const std::string& what) {
    return OutputError("option --out " + dir_.string() + ": cannot write " + name + " (" + what +
                       "); the previous outputs are left as they were");
  };
  std::FILE* f = std::fopen(p.c_str(), "wb");
  if (!f) throw fail(errno_text());
  const size_t n = text.empty() ? 0 : std::fwrite(text.data(), 1, text.size(), f);
  const int werr = n == text.size() ? 0 : errno;
  if (std::fclose(f) != 0 || werr) throw fail(werr ? std::strerror(werr) : errno_text());
  staged_.push_back(name);
}

std::string OutputDir::staged_name(const std::string& name) {
  std::string flat;  // '%' and '/' escaped: distinct names stay distinct
  for (const char ch : name) flat += ch == '%' ? "%25" : ch == '/' ? "%2F" : std::string(1, ch);
  return flat;
}

void OutputDir::adopt(const std::vector<std::string>& names) {
  for (const auto& name : names) {
    if (!exists_here(staging_ / staged_name(name)))
      throw OutputError("option --out " + dir_.string() + ": " + name + " was not written; the previous outputs are " +
                        "left as they were");
    if (std::find(staged_.begin(), staged_.end(), name) == staged_.end()) staged_.push_back(name);
  }
}

void OutputDir::commit(const std::vector<std::string>& known) { move_in(known, true); }

void OutputDir::commit_beside() { move_in({}, false); }

void OutputDir::move_in(const std::vector<std::string>& known, bool remove_unstaged) {
  enum Kind { Replaced, Added, MovedOut };
  std::vector<std::pair<std::string, Kind>> done;  // steps made, undone in reverse order on failure
  const auto prev = [&](const std::string& name) { return staging_ / (kPrevPrefix + staged_name(name)); };
  std::vector<fs::path> made;  // folders made for names with folders, removed again on failure
  SignalHold hold;  // the files move with SIGINT, SIGTERM and SIGHUP held off
  std::string failure;
  for (const auto& name : staged_) {  // the earlier file stays in place; a link to it is kept
    const fs::path old = dir_ / name;
    if (!is_file_or_link(old)) continue;
    if (::link(old.c_str(), prev(name).c_str()) != 0) {
      std::error_code ec;  // a file system without hard links: a copy
      if (!fs::copy_file(old, prev(name), fs::copy_options::overwrite_existing, ec)) {
        failure = "keep " + old.string() + ": " + (ec ? ec.message() : "copy failed");
        break;
      }
    }
  }
  for (size_t i = 0; failure.empty() && i < staged_.size(); ++i) {
    const std::string& name = staged_[i];
    const fs::path to = dir_ / name;
    const bool had = exists_here(prev(name));
    if (!make_folders(to.parent_path(), made)) {
      failure = "make the folder " + to.parent_path().string() + " of " + name + ": " + errno_text();
      break;
    }
    if (::rename((staging_ / staged_name(name)).c_str(), to.c_str()) != 0) {
      failure = "move " + name + " into place: " + errno_text();
      break;
    }
    done.emplace_back(name, had ? Replaced : Added);
  }
  if (remove_unstaged)
    for (const auto& name : known) {
      if (!failure.empty()) break;
      if (std::find(staged_.begin(), staged_.end(), name) != staged_.end() || !exists_here(dir_ / name)) continue;
      if (::rename((dir_ / name).c_str(), prev(name).c_str()) != 0) {
        failure = "remove the earlier " + name + ": " + errno_text();
        break;
      }
      done.emplace_back(name, MovedOut);
    }
  if (failure.empty()) {
    staged_.clear();
    return;
  }
  for (auto it = done.rbegin(); it != done.rend(); ++it) {  // undo: the earlier set back in place
    const fs::path at = dir_ / it->first;
    if (it->second == Added)
      ::unlink(at.c_str());
    else
      ::rename(prev(it->first).c_str(), at.c_str());
  }
  for (auto it = made.rbegin(); it != made.rend(); ++it) ::rmdir(it->c_str());  // the folders this run made
  staged_.clear();
  throw OutputError("option --out " + dir_.string() + ": cannot replace the outputs (" + failure +
                    "); the previous outputs are left as they were");
}

const std::vector<std::string>& output_file_names() {
  static const std::vector<std::string> names = {"config.json",     "summary.json",   "timeseries.csv",
                                                 "latency_cdf.csv", "lpn_writes.csv", "fio.json",
                                                 "incomplete.json"};
  return names;
}

void remove_on_signal(const std::string& path) {
  std::error_code ec;
  const fs::path abs = fs::absolute(path, ec);
  add_signal_path(ec ? path : abs.string());
}

}  // namespace ssdtlm
