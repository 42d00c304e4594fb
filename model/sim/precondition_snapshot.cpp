#include "sim/precondition_snapshot.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <optional>

#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

namespace {

namespace fs = std::filesystem;

// The preconditioning's own report, kept with the drive state.
void result_section(SnapshotArchive& a, PreconditionResult& r) {
  a.section("precondition result");
  a.io_all(r.units_written, r.nand_programs, r.wall_s, r.threads, r.fill, r.drive_writes);
}

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

uint64_t file_size(const std::string& path) {
  std::error_code ec;
  const auto n = fs::file_size(path, ec);
  return ec ? 0 : uint64_t(n);
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
  if (pp.snapshot_mode == "save") return false;
  if (!fs::exists(out.file)) {
    if (pp.snapshot_mode == "load")
      throw SnapshotError("precondition.snapshot=load: no snapshot of this configuration in '" + pp.snapshot_dir +
                          "' (looked for " + out.file + "; a run with precondition.snapshot=auto or save makes it)");
    out.note = "no snapshot yet";
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::optional<SnapshotArchive> a;
  try {  // the header: nothing of the drive is touched yet
    a.emplace(SnapshotArchive::load(out.file, pp.snapshot_key));
  } catch (const SnapshotError& e) {
    if (pp.snapshot_mode == "load") throw;
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
  out.bytes = file_size(out.file);
  return true;
}

void save_snapshot(Platform& p, const PreconditionParams& pp, const PreconditionResult& pre, SnapshotOutcome& out) {
  out.file = snapshot_path(pp);
  const auto t0 = std::chrono::steady_clock::now();
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
  out.bytes = file_size(out.file);
}

}  // namespace ssdtlm
