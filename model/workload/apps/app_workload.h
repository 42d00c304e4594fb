// workload.pattern=app: the application models (lsm, sqlite, gcc, mixed1 = lsm + gcc, mixed2 = sqlite + gcc)
// on one file layer over the whole namespace, as a Workload. docs/reference/apps.md.
//
// Aging: the layout is built first and deterministically from the seed: age_fraction of the logical capacity
// in long-lived files (sizes uniform in 1 .. 2 x age_file_bytes - 1 unit, no PC, no hint), then the app's own
// initial files (the database, the source tree). The precondition workload (layout_only) writes exactly that
// layout, sequentially, and ends; the timed workload builds the same layout without writing it and runs the
// app(s). mixed: the two apps interleave step by step, each step going to the app furthest behind its share of
// the written bytes (mixed_ratio for lsm or sqlite, the rest for gcc); the job ends when gcc has done its
// builds. io_count counts every request (trims included), io_bytes the bytes read and written.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "workload/apps/app_model.h"

namespace ssdtlm {

struct WorkloadParams;

class AppWorkload : public Workload {
 public:
  // Throws FileLayerFull (with the app and sizes in its message) when the layout does not fit.
  AppWorkload(const AppParams& p, uint64_t logical_bytes, bool layout_only, uint64_t io_count = 0, uint64_t io_bytes = 0);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override;

  AppIo& io() { return *io_; }
  const AppParams& params() const { return p_; }
  AppModel& model(size_t i) { return *models_[i]; }
  size_t models() const { return models_.size(); }
  uint64_t aged_units() const { return aged_units_; }
  uint64_t layout_units() const { return io_->layout_units(); }
  uint64_t written_by_model(size_t i) const { return written_[i]; }
  // The aging churn's writes (fill and churn; 0 without churn) and the free extents it left.
  uint64_t aging_written_units() const { return aging_written_; }
  size_t aging_free_extents() const { return aging_free_extents_; }
  uint64_t warmup_written_units() const { return warmup_written_; }
  bool precondition_trims() const override { return true; }
  void report(nlohmann::json& into) const override;  // "app" (app_report.cpp)

 private:
  enum class Phase { Layout, Warmup, Measure };
  void age(uint64_t total);
  bool refill();
  bool warmup_done() const;
  void start_measuring();
  AppParams p_;
  bool layout_only_;
  uint64_t io_count_, io_bytes_;
  std::unique_ptr<AppIo> io_;
  std::vector<std::unique_ptr<AppModel>> models_;
  std::vector<double> weight_;
  std::vector<uint64_t> written_;
  uint64_t aged_units_ = 0, issued_ = 0, issued_bytes_ = 0;
  size_t layout_next_ = 0;
  bool done_ = false;
  Phase phase_ = Phase::Layout;
  uint64_t warmup_units_ = 0, warmup_written_ = 0, aging_written_ = 0;
  size_t aging_free_extents_ = 0;
};

// workload.pattern=app (workload_factory.cpp): the precondition's layout writer or the timed workload;
// ConfigError for a layout that does not fit or too few precondition.drive_writes to write it (the
// settings that contradict the aging are refused before: config/validation.h).
std::unique_ptr<Workload> make_app_workload(const WorkloadParams& job, uint64_t logical_bytes, bool for_precondition);

}  // namespace ssdtlm
