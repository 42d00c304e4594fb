#include "controller/precondition.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "common/fast_div.h"

namespace ssdtlm {

uint32_t precondition_stripe_units(const Geometry& g) {
  return g.units_per_page * std::max<uint32_t>(1, 16 / g.units_per_page);
}

namespace {

// The precondition's unit stream: the sequential fill, then the write requests of the overwrite
// workload cut into 4 KiB units, up to the total.
class UnitSource {
 public:
  UnitSource(uint64_t logical, bool fill, uint64_t over, Workload* w)
      : logical_(logical), fill_end_(fill ? logical : 0), total_(fill_end_ + over), w_(w) {}
  uint64_t total() const { return total_; }
  uint64_t done() const { return done_; }
  // Writes up to max units to out; returns how many (0: the stream has ended).
  size_t next(uint32_t* out, size_t max) {
    size_t n = 0;
    for (; n < max && done_ < fill_end_; ++n) out[n] = uint32_t(done_++);
    while (n < max && done_ < total_) {
      if (cur_ > last_) {
        IoRequest req;
        if (!w_ || !w_->next(req)) {
          total_ = done_;  // the workload ran out
          break;
        }
        if (req.op != IoOp::Write) continue;
        cur_ = req.offset / kUnitBytes;
        last_ = (req.offset + req.bytes - 1) / kUnitBytes;
        continue;
      }
      out[n++] = uint32_t(cur_++ % logical_);  // trace addresses beyond the device fold back, as in the timed run
      ++done_;
    }
    return n;
  }

 private:
  uint64_t logical_, fill_end_, total_;
  Workload* w_;
  uint64_t done_ = 0;
  uint64_t cur_ = 1, last_ = 0;  // units left of the current request
};

// Static placement: stripe -> die, round-robin.
struct Striping {
  FastDiv stripe, dies;
  uint32_t die(uint32_t lpn) const { return dies.mod(stripe.div(lpn)); }
};

// One worker's share: the dies [first, last). Collects each die's units into a page and writes full pages.
// Units pass through a short queue so that the map entry and the old block's metadata of each are
// prefetched before the unit is written: random overwrites are bound by memory latency.
class DieWriter {
 public:
  DieWriter(PageFtl& ftl, Striping s, uint32_t first, uint32_t last)
      : ftl_(ftl), upp_(ftl.geometry().units_per_page), s_(s), first_(first), last_(last), open_(last - first) {}

  void take(const uint32_t* lpn, const uint32_t* version, size_t n) {
    for (size_t i = 0; i < n; ++i) {
      const uint32_t die = s_.die(lpn[i]);
      if (die < first_ || die >= last_) continue;
      ftl_.prefetch_map(lpn[i]);
      ring_[head_++ & (kAhead - 1)] = Unit{lpn[i], version ? version[i] : 0, die};
      if (head_ - tail_ > kAhead / 2) ftl_.prefetch_old(ring_[(tail_ + kAhead / 4) & (kAhead - 1)].lpn);
      if (head_ - tail_ == kAhead) place(ring_[tail_++ & (kAhead - 1)]);
    }
  }
  void finish() {
    while (tail_ != head_) place(ring_[tail_++ & (kAhead - 1)]);
    for (uint32_t d = first_; d < last_; ++d) {
      Open& o = open_[d - first_];
      if (!o.n) continue;
      for (uint32_t s = o.n; s < upp_; ++s) o.lpn[s] = kInvalid;  // padded page
      ftl_.ff_write_page(d, o.lpn, o.version);
      o.n = 0;
    }
  }

 private:
  struct Unit {
    uint32_t lpn, version, die;
  };
  struct Open {
    uint32_t lpn[kMaxUnitsPerPage], version[kMaxUnitsPerPage];
    uint32_t n = 0;
  };
  void place(const Unit& u) {
    Open& o = open_[u.die - first_];
    o.lpn[o.n] = u.lpn;
    o.version[o.n] = u.version;
    if (++o.n == upp_) {
      ftl_.ff_write_page(u.die, o.lpn, o.version);
      o.n = 0;
    }
  }
  static constexpr uint32_t kAhead = 32;
  PageFtl& ftl_;
  const uint32_t upp_;
  const Striping s_;
  const uint32_t first_, last_;
  std::vector<Open> open_;
  Unit ring_[kAhead];
  uint64_t head_ = 0, tail_ = 0;
};

// Workers 1..n-1 on their own threads; the caller is worker 0. Each batch is handed to all workers at
// once and the caller waits for all of them before it refills the batch.
class Crew {
 public:
  Crew(std::vector<DieWriter>& writers) : w_(writers), errors_(writers.size()) {
    for (size_t i = 1; i < w_.size(); ++i) threads_.emplace_back([this, i] { loop(i); });
  }
  ~Crew() {
    {
      std::lock_guard<std::mutex> l(m_);
      stop_ = true;
    }
    go_.notify_all();
    for (auto& t : threads_) t.join();
  }
  // Runs `job(writer)` on every worker and rethrows the first worker's exception.
  void run(const std::function<void(DieWriter&)>& job) {
    {
      std::lock_guard<std::mutex> l(m_);
      job_ = &job;
      busy_ = w_.size() - 1;
      ++round_;
    }
    go_.notify_all();
    try {
      job(w_[0]);
    } catch (...) {
      errors_[0] = std::current_exception();
    }
    std::unique_lock<std::mutex> l(m_);
    done_.wait(l, [&] { return busy_ == 0; });
    for (auto& e : errors_)
      if (e) std::rethrow_exception(e);
  }

 private:
  void loop(size_t i) {
    uint64_t seen = 0;
    for (;;) {
      const std::function<void(DieWriter&)>* job;
      {
        std::unique_lock<std::mutex> l(m_);
        go_.wait(l, [&] { return stop_ || round_ != seen; });
        if (stop_) return;
        seen = round_;
        job = job_;
      }
      try {
        (*job)(w_[i]);
      } catch (...) {
        errors_[i] = std::current_exception();
      }
      std::lock_guard<std::mutex> l(m_);
      if (--busy_ == 0) done_.notify_one();
    }
  }
  std::vector<DieWriter>& w_;
  std::vector<std::exception_ptr> errors_;
  std::vector<std::thread> threads_;
  std::mutex m_;
  std::condition_variable go_, done_;
  const std::function<void(DieWriter&)>* job_ = nullptr;
  size_t busy_ = 0;
  uint64_t round_ = 0;
  bool stop_ = false;
};

// Workers for the dies: at most `wanted` (0 = hardware threads) and one per die. One worker when the die
// ranges would share valid-bitmap words, or when some unit does not live on its stripe's die (the drive
// was written otherwise before): a worker would then invalidate units on another worker's dies.
unsigned worker_count(const PageFtl& ftl, const Striping& s, unsigned wanted) {
  const Geometry& g = ftl.geometry();
  unsigned n = wanted ? wanted : std::max(1u, std::thread::hardware_concurrency());
  n = std::min<unsigned>(n, g.dies);
  const uint64_t units_per_die = uint64_t(g.blocks_per_die) * g.units_per_block;
  for (unsigned t = 1; t < n; ++t)
    if (uint64_t(t) * g.dies / n * units_per_die % 64) return 1;
  for (uint32_t lpn = 0; n > 1 && lpn < g.logical_units; ++lpn) {
    const uint32_t ppa = ftl.lookup(lpn);
    if (ppa != kInvalid && g.die_of(ppa) != s.die(lpn)) return 1;
  }
  return n;
}

}  // namespace

PreconditionResult precondition(PageFtl& ftl, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress,
                                unsigned threads) {
  auto t0 = std::chrono::steady_clock::now();
  const Geometry& g = ftl.geometry();
  UnitSource source(g.logical_units, fill, uint64_t(drive_writes * double(g.logical_units)), overwrite);
  const Striping striping{FastDiv(precondition_stripe_units(g)), FastDiv(g.dies)};

  PreconditionResult r;
  r.threads = worker_count(ftl, striping, threads);
  std::vector<DieWriter> writers;
  writers.reserve(r.threads);
  for (unsigned t = 0; t < r.threads; ++t)
    writers.emplace_back(ftl, striping, t * g.dies / r.threads, (t + 1) * g.dies / r.threads);
  Crew crew(writers);

  constexpr size_t kBatch = size_t(1) << 16;
  std::vector<uint32_t> lpn(kBatch), version(checker ? kBatch : 0);
  uint64_t reported = 0;
  for (size_t n; (n = source.next(lpn.data(), kBatch)) != 0;) {
    if (checker)
      for (size_t i = 0; i < n; ++i) version[i] = checker->next_version(lpn[i]);
    const uint32_t* v = checker ? version.data() : nullptr;
    crew.run([&](DieWriter& w) { w.take(lpn.data(), v, n); });
    if (source.done() - reported >= (uint64_t(1) << 22)) {
      reported = source.done();
      progress(reported, source.total());
    }
  }
  crew.run([](DieWriter& w) { w.finish(); });
  ftl.ff_merge_counters();
  r.units_written = source.done();
  progress(r.units_written, source.total());
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ssdtlm
