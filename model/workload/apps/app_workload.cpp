#include "workload/apps/app_workload.h"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "config/config.h"
#include "workload/workload_factory.h"
#include "flash/geometry.h"

namespace ssdtlm {

namespace {

std::string mib(uint64_t units) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f", double(units) * kUnitBytes / 1048576.0);
  return buf;
}

std::vector<std::string> parts_of(const std::string& app) {
  if (app == "mixed1") return {"lsm", "gcc"};
  if (app == "mixed2") return {"sqlite", "gcc"};
  if (app == "lsm" || app == "sqlite" || app == "gcc" || app == "tpcc" || app == "cache") return {app};
  throw std::invalid_argument("unknown app '" + app + "' (expected lsm, sqlite, tpcc, gcc, cache, mixed1 or mixed2)");
}

}  // namespace

AppWorkload::AppWorkload(const AppParams& p, uint64_t logical_bytes, bool layout_only, uint64_t io_count, uint64_t io_bytes)
    : p_(p), layout_only_(layout_only), io_count_(io_count), io_bytes_(io_bytes) {
  const uint64_t total = logical_bytes / kUnitBytes;
  io_ = std::make_unique<AppIo>(total, uint32_t(std::max<uint64_t>(1, p.max_io_bytes / kUnitBytes)));
  io_->trim = p.trim;
  if (p.placement == AppPlacement::Fdp) io_->place_fdp(p.fdp_rgs, p.fdp_ruhs);
  if (p.placement == AppPlacement::Zns) io_->place_in_zones(p.zones, p.zone_gc_free_zones, p.zone_finish_percent, p.zone_close);
  io_->fs.set_fit(p.allocation, p.seed ^ 0x5EED);
  age(total);
  const std::vector<std::string> parts = parts_of(p.app);
  uint64_t need = 0;
  try {
    for (size_t i = 0; i < parts.size(); ++i) {
      const uint64_t seed = p.seed * 0x9E3779B97F4A7C15ull + i;
      if (parts[i] == "lsm") models_.push_back(make_lsm_app(*io_, p, seed));
      if (parts[i] == "sqlite") models_.push_back(make_sqlite_app(*io_, p, seed));
      if (parts[i] == "tpcc") models_.push_back(make_tpcc_app(*io_, p, seed));
      if (parts[i] == "gcc") models_.push_back(make_gcc_app(*io_, p, seed));
      if (parts[i] == "cache") models_.push_back(make_cache_app(*io_, p, seed));
      need += models_.back()->footprint_units();
    }
  } catch (const FileLayerFull& e) {
    throw FileLayerFull(p.app + " needs more than the " + mib(total - aged_units_) + " MiB free after aging (" +
                            e.what() + ")",
                        e.wanted_units, e.free_units);
  }
  if (need > total - aged_units_)
    throw FileLayerFull(p.app + " needs " + mib(need) + " MiB but only " + mib(total - aged_units_) +
                            " MiB are free after aging",
                        need, total - aged_units_);
  weight_ = parts.size() == 2 ? std::vector<double>{p.mixed_ratio, 1.0 - p.mixed_ratio} : std::vector<double>{1.0};
  written_.assign(models_.size(), 0);
  warmup_units_ = uint64_t(p.warmup_drive_writes * double(total));
  if (warmup_units_)
    for (auto& m : models_) m->start_warmup();
  // A zoned namespace starts empty (no precondition): the timed run writes the aging, the layout and the
  // warm-up itself, through the zones, and measures from the warm-up's end.
  if (!layout_only_ && io_->zones) return;
  if (!layout_only_) {  // the timed run starts where the precondition left the drive: aged, laid out, warmed up
    io_->out.clear();
    phase_ = Phase::Warmup;
    while (!warmup_done()) {
      if (!refill()) break;
      io_->out.clear();
    }
    io_->out.clear();
    done_ = false;
    start_measuring();
  }
}

void AppWorkload::age(uint64_t total) {
  Rng rng(p_.seed ^ 0xA6EDull);
  // Aging: long-lived files, written before the app starts (no program context).
  const uint64_t aged_target = uint64_t(p_.age_fraction * double(total));
  const uint64_t mean = std::max<uint64_t>(1, p_.age_file_bytes / kUnitBytes);
  if (p_.age_churn <= 0) {  // a fill, file after file: the precondition writes them with the app's layout
    while (aged_units_ < aged_target) {
      const uint64_t u = std::min(aged_target - aged_units_, 1 + rng.below(2 * mean - 1));
      io_->layout_file(u, WriteOrigin{});
      aged_units_ += u;
    }
    return;
  }
  // Churn (as file-system aging tools do, e.g. Impressions, Geriatrix): the same fill, then, while the churn has
  // written less than age_churn x the aged volume, a file of random size is created while the aged files hold
  // less than the target, else one chosen at random is deleted (trimmed with workload.app.trim). New files land
  // where the file system's allocation puts them, so the free space fragments and the files' ages mix. At the
  // end files are deleted until the target holds again. The requests go out first (io_->out), before the app's
  // layout.
  std::vector<FileId> aged;
  auto size_of_next = [&] { return 1 + rng.below(2 * mean - 1); };
  while (aged_units_ < aged_target) {
    const uint64_t u = std::min(aged_target - aged_units_, size_of_next());
    aged.push_back(io_->create_written(u, WriteOrigin{}));
    aged_units_ += u;
  }
  auto drop_one = [&] {
    const size_t j = size_t(rng.below(aged.size()));
    aged_units_ -= io_->fs.size(aged[j]);
    io_->remove(aged[j], WriteOrigin{});
    aged[j] = aged.back();
    aged.pop_back();
  };
  const uint64_t filled = io_->written_units;
  const uint64_t churn_target = uint64_t(p_.age_churn * double(aged_target));
  while (io_->written_units - filled < churn_target && !aged.empty()) {
    if (aged_units_ >= aged_target) {
      drop_one();
    } else {
      const uint64_t u = size_of_next();
      aged.push_back(io_->create_written(u, WriteOrigin{}));
      aged_units_ += u;
    }
  }
  while (aged_units_ > aged_target && !aged.empty()) drop_one();
  aging_written_ = io_->written_units;
  aging_free_extents_ = io_->fs.allocator().free_extents();
}

bool AppWorkload::refill() {
  if (done_) return false;
  if (phase_ == Phase::Layout) {  // precondition: the aging's requests are queued; then the app's initial files
    const auto& l = io_->layout();
    if (layout_next_ < l.size()) {
      const FileId f = l[layout_next_].f;
      io_->write(f, 0, io_->fs.size(f), l[layout_next_].o);
      ++layout_next_;
      return true;
    }
    phase_ = Phase::Warmup;
  }
  if (phase_ == Phase::Warmup && warmup_done()) {
    if (layout_only_) return done_ = true, false;
    start_measuring();
  }
  size_t pick = 0;
  for (size_t i = 1; i < models_.size(); ++i)
    if (double(written_[i]) / weight_[i] < double(written_[pick]) / weight_[pick]) pick = i;
  const uint64_t before = io_->written_units;
  bool more;
  try {
    more = models_[pick]->step();
  } catch (const FileLayerFull& e) {
    throw std::runtime_error("workload.app=" + p_.app + ": " + models_[pick]->name() + " ran out of space (" + e.what() +
                             "; " + mib(aged_units_) + " MiB aged)");
  }
  written_[pick] += io_->written_units - before;
  if (phase_ == Phase::Warmup) warmup_written_ += io_->written_units - before;
  if (!more) done_ = true;  // an app finished (gcc after its builds): the job ends
  return more || !io_->out.empty();
}

bool AppWorkload::warmup_done() const {
  if (warmup_written_ < warmup_units_) return false;
  for (const auto& m : models_)
    if (!m->between_runs() && warmup_units_) return false;
  return true;
}

void AppWorkload::start_measuring() {
  phase_ = Phase::Measure;
  for (auto& m : models_) m->start_measuring();
  io_->reset_stats();
  written_.assign(models_.size(), 0);
  if (io_->zones) issued_ = issued_bytes_ = 0;  // the limits count the measured run (the zoned run wrote its layout)
}

bool AppWorkload::next(IoRequest& r) {
  const bool limited = !io_->zones || phase_ == Phase::Measure;  // a zoned run's layout and warm-up are not counted
  if (limited && io_count_ && issued_ >= io_count_) return false;
  if (limited && io_bytes_ && issued_bytes_ >= io_bytes_) return false;
  while (io_->out.empty())
    if (!refill() && io_->out.empty()) return false;
  r = io_->out.front();
  io_->out.pop_front();
  ++issued_;
  if (r.op != IoOp::Trim) issued_bytes_ += r.bytes;
  return true;
}

WorkProgress AppWorkload::progress() const {
  if (layout_only_) return {layout_next_, io_->layout().size(), "aged and initial files (then the warm-up)"};
  if (io_count_) return {issued_, io_count_, "I/Os"};
  if (io_bytes_) return {issued_bytes_, io_bytes_, "bytes"};
  return models_.back()->progress();
}

std::unique_ptr<Workload> make_app_workload(const WorkloadParams& job, uint64_t logical_bytes, bool for_precondition) {
  const AppParams& p = job.app;
  std::unique_ptr<AppWorkload> w;
  try {
    w = std::make_unique<AppWorkload>(p, logical_bytes, for_precondition,
                                      for_precondition ? 0 : job.io_count,
                                      for_precondition ? 0 : job.io_bytes);
  } catch (const FileLayerFull& e) {
    throw ConfigError("key 'workload.app.age_fraction': " + std::string(e.what()) + " (" +
                      std::to_string(p.age_fraction) + " of " + mib(logical_bytes / kUnitBytes) +
                      " MiB aged); lower the aging or the app's sizes (docs/reference/apps.md)");
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("key 'workload.app.gcc_pcs': ") + e.what());
  }
  if (!for_precondition && p.placement != AppPlacement::Zns) {
    const double need = double(w->layout_units()) / double(logical_bytes / kUnitBytes);
    if (job.precondition_drive_writes < need)
      throw ConfigError("key 'precondition.drive_writes': workload.pattern=app writes its layout (aged and initial files, " +
                        std::to_string(need) + " of the capacity) as the precondition; expected at least that (1 always "
                        "suffices: the precondition ends when the layout is written), got " +
                        std::to_string(job.precondition_drive_writes));
  }
  return w;
}

}  // namespace ssdtlm
