#include "controller/precondition.h"

#include <chrono>
#include <stdexcept>

namespace ssdtlm {

namespace {

// Collects units into pages and writes each full page to the next die.
class PageWriter {
 public:
  PageWriter(PageFtl& ftl, IntegrityChecker* checker) : ftl_(ftl), g_(ftl.geometry()), checker_(checker) {}
  // Units pass through a short queue so the map entry and the old block's metadata of each are
  // prefetched before the unit is written: random overwrites are bound by memory latency.
  void add(uint32_t lpn) {
    ftl_.prefetch_map(lpn);
    ring_[head_++ & (kAhead - 1)] = lpn;
    if (head_ - tail_ > kAhead / 2) ftl_.prefetch_old(ring_[(tail_ + kAhead / 4) & (kAhead - 1)]);
    if (head_ - tail_ == kAhead) place(ring_[tail_++ & (kAhead - 1)]);
  }
  void finish() {
    while (tail_ != head_) place(ring_[tail_++ & (kAhead - 1)]);
    if (!n_) return;
    for (uint32_t s = n_; s < g_.units_per_page; ++s) lpns_[s] = kInvalid;  // padded page
    write();
  }

 private:
  PageFtl& ftl_;
  const Geometry& g_;
  IntegrityChecker* checker_;
  void write() {
    ftl_.ff_write_page(die_, lpns_, versions_);
    die_ = die_ + 1 == g_.dies ? 0 : die_ + 1;
    n_ = 0;
  }
  void place(uint32_t lpn) {
    lpns_[n_] = lpn;
    versions_[n_] = checker_ ? checker_->next_version(lpn) : 0;
    if (++n_ == g_.units_per_page) write();
  }
  static constexpr uint32_t kAhead = 32;
  uint32_t ring_[kAhead];
  uint64_t head_ = 0, tail_ = 0;
  uint32_t lpns_[kMaxUnitsPerPage], versions_[kMaxUnitsPerPage];
  uint32_t n_ = 0, die_ = 0;
};

}  // namespace

PreconditionResult precondition(PageFtl& ftl, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress) {
  auto t0 = std::chrono::steady_clock::now();
  const Geometry& g = ftl.geometry();
  const uint64_t logical = g.logical_units;
  const uint64_t over = uint64_t(drive_writes * double(logical));
  const uint64_t total = (fill ? logical : 0) + over;
  PageWriter w(ftl, checker);
  PreconditionResult r;
  auto tick = [&] {
    if ((r.units_written & ((1u << 22) - 1)) == 0) progress(r.units_written, total);
  };
  if (fill)
    for (uint64_t lpn = 0; lpn < logical; ++lpn, ++r.units_written) {
      tick();
      w.add(uint32_t(lpn));
    }
  IoRequest req;
  while (overwrite && r.units_written < total) {
    if (!overwrite->next(req)) break;
    if (req.op != IoOp::Write) continue;
    uint64_t first = req.offset / kUnitBytes, last = (req.offset + req.bytes - 1) / kUnitBytes;
    for (uint64_t lpn = first; lpn <= last && r.units_written < total; ++lpn, ++r.units_written) {
      tick();
      w.add(uint32_t(lpn % logical));  // trace addresses beyond the device fold back, as in the timed run
    }
  }
  w.finish();
  progress(r.units_written, total);
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ssdtlm
