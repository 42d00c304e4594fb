#include "sim/precondition_snapshot.h"

#include <fcntl.h>
#include <sys/resource.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <iostream>
#include <optional>
#include <thread>

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

nlohmann::json SnapshotOutcome::report() const {
  return {{"action", action}, {"file", file}, {"note", note}, {"wall_time_s", seconds}, {"cpu_s", cpu_seconds},
          {"bytes", bytes}};
}

namespace {

namespace fs = std::filesystem;

// The preconditioning's own report, kept with the drive state.
void result_section(SnapshotArchive& a, PreconditionResult& r) {
  a.section("precondition result");
  a.io_all(r.units_written, r.nand_programs, r.wall_s, r.threads, r.fill, r.drive_writes);
}

double cpu_now() {
  rusage u;
  ::getrusage(RUSAGE_SELF, &u);
  return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + 1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

uint64_t file_size(const std::string& path) {
  std::error_code ec;
  const auto n = fs::file_size(path, ec);
  return ec ? 0 : uint64_t(n);
}

// "host pid" of this process, the content of a lock file.
std::string lock_owner() {
  char host[256] = "";
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + " " + std::to_string(::getpid());
}

// Is the lock's maker gone (a process of this host that no longer runs)?
bool maker_gone(const std::string& lock) {
  std::ifstream f(lock);
  std::string host, me = lock_owner();
  long pid = 0;
  if (!(f >> host >> pid)) return false;  // being written
  return host == me.substr(0, me.find(' ')) && pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH;
}

// Auto mode, no file yet: takes the lock (<file>.lock) and returns false (this run preconditions and saves), or
// waits while another run holds it and returns whether its snapshot appeared. A lock whose maker died is broken.
bool wait_for_maker(SnapshotOutcome& out) {
  const std::string lock = out.file + ".lock";
  std::error_code ec;
  fs::create_directories(fs::path(out.file).parent_path(), ec);
  const auto t0 = std::chrono::steady_clock::now();
  bool waited = false;
  for (;;) {
    if (fs::exists(out.file + ".unsupported")) {  // a run of this configuration found it cannot be saved
      std::ifstream f(out.file + ".unsupported");
      std::getline(f, out.note);
      return false;
    }
    if (fs::exists(out.file)) {
      out.note = "waited " + std::to_string(int(since(t0))) + " s for the run that made it";
      return true;
    }
    const int fd = ::open(lock.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
    if (fd >= 0) {
      const std::string me = lock_owner() + "\n";
      (void)!::write(fd, me.data(), me.size());
      ::close(fd);
      if (fs::exists(out.file)) {  // made between the look and the lock
        fs::remove(lock, ec);
        return true;
      }
      out.lock = lock;
      out.note = waited ? "the run making it stopped; made here" : "no snapshot yet";
      return false;
    }
    if (maker_gone(lock)) {
      fs::remove(lock, ec);
      continue;
    }
    if (!waited) std::cerr << "[ssdtlm] waiting for another run to save the snapshot " << out.file << "\n";
    waited = true;
    if (since(t0) > 3600) {  // a maker on another host that never finished: precondition here
      out.note = "waited an hour for " + lock + "; preconditioned here";
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

}  // namespace

void Platform::snapshot(SnapshotArchive&) { throw SnapshotUnsupported("this platform cannot save its drive state"); }

std::string snapshot_path(const PreconditionParams& pp) {
  char name[32];
  std::snprintf(name, sizeof name, "%016llx.ssnap", (unsigned long long)snapshot_text_hash(pp.snapshot_key));
  return (fs::path(pp.snapshot_dir) / name).string();
}

bool load_snapshot(Platform& p, const PreconditionParams& pp, PreconditionResult& pre, SnapshotOutcome& out) {
  out.file = snapshot_path(pp);
  if (pp.snapshot_mode == SnapshotMode::Save) return false;
  if (!fs::exists(out.file)) {
    if (pp.snapshot_mode == SnapshotMode::Load)
      throw SnapshotError("precondition.snapshot=load: no snapshot of this configuration in '" + pp.snapshot_dir +
                          "' (looked for " + out.file + "; a run with precondition.snapshot=auto or save makes it)");
    // auto: the first run of a configuration preconditions and saves; the others wait for its file.
    if (!wait_for_maker(out)) return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_now();
  std::optional<SnapshotArchive> a;
  try {  // the header: nothing of the drive is touched yet
    a.emplace(SnapshotArchive::load(out.file, pp.snapshot_key));
  } catch (const SnapshotError& e) {
    if (pp.snapshot_mode == SnapshotMode::Load) throw;
    out.note = std::string("ignored and rebuilt: ") + e.what();
    std::cerr << "[ssdtlm] " << e.what() << "; preconditioning instead and replacing it\n";
    return false;
  }
  PreconditionResult saved;
  p.snapshot(*a);
  result_section(*a, saved);
  a->finish();
  pre = saved;
  pre.wall_s = since(t0);
  out.action = "loaded";
  out.seconds = pre.wall_s;
  out.cpu_seconds = cpu_now() - cpu0;
  out.bytes = file_size(out.file);
  return true;
}

void save_snapshot(Platform& p, const PreconditionParams& pp, const PreconditionResult& pre, SnapshotOutcome& out) {
  struct Unlock {  // the lock taken by load_snapshot goes when the file is in place (or could not be made)
    std::string path;
    ~Unlock() {
      std::error_code ec;
      if (!path.empty()) fs::remove(path, ec);
    }
  } unlock{out.lock};
  out.file = snapshot_path(pp);
  const auto t0 = std::chrono::steady_clock::now();
  const double cpu0 = cpu_now();
  std::error_code ec;
  fs::create_directories(pp.snapshot_dir, ec);
  const std::string tmp = out.file + ".tmp" + std::to_string(::getpid());
  try {
    SnapshotArchive a = SnapshotArchive::save(tmp, pp.snapshot_key);
    p.snapshot(a);
    PreconditionResult r = pre;
    result_section(a, r);
    a.finish();
  } catch (const SnapshotUnsupported& e) {
    fs::remove(tmp, ec);
    out.action = "not saved";
    out.note = e.what();
    std::ofstream(out.file + ".unsupported") << e.what() << "\n";  // later runs do not wait or try again
    std::cerr << "[ssdtlm] precondition snapshot not saved: " << e.what() << "\n";
    return;
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  fs::rename(tmp, out.file, ec);  // atomic: a concurrent reader sees the whole file or none
  if (ec) {
    fs::remove(tmp, ec);
    throw SnapshotError("snapshot '" + out.file + "': cannot rename the saved file into place: " + ec.message());
  }
  out.action = "saved";
  out.seconds = since(t0);
  out.cpu_seconds = cpu_now() - cpu0;
  out.bytes = file_size(out.file);
}

}  // namespace ssdtlm
