#include "controller/precondition.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "common/crew.h"
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

struct PlacedUnit {
  uint32_t lpn, version, die;
};

// One group of dies [first, last), worked on by one worker at a time. Collects each die's units and
// writes them a few pages at a time: the die's metadata stays in cache across those pages, and the map
// entries and old blocks of the units are prefetched together first (random overwrites are bound by
// memory latency). Dies are independent, so how writes to different dies interleave changes nothing.
class DieWriter {
 public:
  DieWriter(PageFtl& ftl, uint32_t first, uint32_t last)
      : ftl_(ftl),
        upp_(ftl.geometry().units_per_page),
        per_flush_(upp_ * std::max<uint32_t>(1, kUnitsPerFlush / upp_)),
        first_(first),
        last_(last),
        pending_(size_t(last - first) * per_flush_),
        count_(last - first, 0) {}

  // Units of this writer's dies, in workload order.
  void take(const std::vector<PlacedUnit>& units) {
    for (const PlacedUnit& u : units) {
      const uint32_t k = u.die - first_;
      pending_[size_t(k) * per_flush_ + count_[k]] = Unit{u.lpn, u.version};
      if (++count_[k] == per_flush_) flush(u.die);
    }
  }
  void finish() {
    for (uint32_t d = first_; d < last_; ++d) flush(d);
  }

 private:
  struct Unit {
    uint32_t lpn, version;
  };
  static constexpr uint32_t kUnitsPerFlush = 32;
  // Writes the die's pending units as pages, the last one padded if partial.
  void flush(uint32_t die) {
    const uint32_t k = die - first_, n = count_[k];
    const Unit* u = &pending_[size_t(k) * per_flush_];
    for (uint32_t i = 0; i < n; ++i) ftl_.prefetch_map(u[i].lpn);
    for (uint32_t i = 0; i < n; ++i) ftl_.prefetch_old(u[i].lpn);
    uint32_t lpns[kMaxUnitsPerPage], versions[kMaxUnitsPerPage];
    for (uint32_t i = 0; i < n; i += upp_) {
      for (uint32_t s = 0; s < upp_; ++s) {
        const bool real = i + s < n;
        lpns[s] = real ? u[i + s].lpn : kInvalid;  // kInvalid: padding
        versions[s] = real ? u[i + s].version : 0;
      }
      ftl_.ff_write_page(die, lpns, versions);
    }
    count_[k] = 0;
  }
  PageFtl& ftl_;
  const uint32_t upp_, per_flush_;
  const uint32_t first_, last_;
  std::vector<Unit> pending_;     // per owned die: per_flush_ slots
  std::vector<uint32_t> count_;   // per owned die: pending units
};

// Die groups: contiguous die ranges that workers claim one at a time. Several per worker, so that work
// spreads evenly; one group (and one worker) when group boundaries would share valid-bitmap words, or
// when some unit does not live on its stripe's die (the drive was written otherwise before): a worker
// would then invalidate units on dies another worker is writing.
uint32_t group_count(const PageFtl& ftl, const Striping& s, unsigned workers) {
  const Geometry& g = ftl.geometry();
  if (workers <= 1) return 1;
  const uint32_t n = std::min<uint32_t>(g.dies, 8 * workers);
  const uint64_t units_per_die = uint64_t(g.blocks_per_die) * g.units_per_block;
  for (uint32_t k = 1; k < n; ++k)
    if (uint64_t(k) * g.dies / n * units_per_die % 64) return 1;
  for (uint32_t lpn = 0; lpn < g.logical_units; ++lpn) {
    const uint32_t ppa = ftl.lookup(lpn);
    if (ppa != kInvalid && g.die_of(ppa) != s.die(lpn)) return 1;
  }
  return n;
}

// One batch of the unit stream, binned by die group.
struct Batch {
  std::vector<std::vector<PlacedUnit>> group;
};

}  // namespace

PreconditionResult precondition(PageFtl& ftl, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress,
                                unsigned threads) {
  auto t0 = std::chrono::steady_clock::now();
  const Geometry& g = ftl.geometry();
  UnitSource source(g.logical_units, fill, uint64_t(drive_writes * double(g.logical_units)), overwrite);
  const Striping striping{FastDiv(precondition_stripe_units(g)), FastDiv(g.dies)};
  unsigned workers = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  // With translation pages on flash the map cache is shared by every die: one worker.
  const uint32_t groups = ftl.translation() ? 1 : group_count(ftl, striping, std::min<unsigned>(workers, g.dies));
  if (groups == 1) workers = 1;
  PreconditionResult r;
  r.threads = workers;

  std::vector<DieWriter> writers;
  std::vector<uint32_t> group_of_die(g.dies);
  writers.reserve(groups);
  for (uint32_t k = 0; k < groups; ++k) {
    const uint32_t first = uint32_t(uint64_t(k) * g.dies / groups), last = uint32_t(uint64_t(k + 1) * g.dies / groups);
    writers.emplace_back(ftl, first, last);
    for (uint32_t d = first; d < last; ++d) group_of_die[d] = k;
  }

  // Generates and bins the next batch; false at the end of the stream.
  constexpr size_t kBatch = size_t(1) << 16;
  std::vector<uint32_t> lpn(kBatch);
  auto refill = [&](Batch& b) {
    b.group.resize(groups);
    for (auto& v : b.group) v.clear();
    const size_t n = source.next(lpn.data(), kBatch);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t die = striping.die(lpn[i]);
      b.group[group_of_die[die]].push_back(PlacedUnit{lpn[i], checker ? checker->next_version(lpn[i]) : 0, die});
    }
    return n != 0;
  };

  // Every group's job, on workers claiming groups one at a time; the caller runs `first` before joining.
  Crew crew(workers - 1);
  auto for_groups = [&](const std::function<void(uint32_t)>& job, const std::function<void()>& first) {
    std::atomic<uint32_t> next{0};
    crew.run([&] {
      for (uint32_t k; (k = next.fetch_add(1)) < groups;) job(k);
    }, first);
  };

  // While the workers write batch k, the caller generates batch k+1, then joins them. Each group's
  // batches are written in order (a batch is finished before the next starts), so every die sees its
  // units in workload order whatever the number of workers.
  Batch batch[2];
  uint64_t reported = 0;
  bool more = refill(batch[0]);
  for (int cur = 0; more; cur ^= 1) {
    const Batch& b = batch[cur];
    for_groups([&](uint32_t k) { writers[k].take(b.group[k]); }, [&] { more = refill(batch[cur ^ 1]); });
    if (source.done() - reported >= (uint64_t(1) << 22)) {
      reported = source.done();
      progress(reported, source.total());
    }
  }
  for_groups([&](uint32_t k) { writers[k].finish(); }, nullptr);

  ftl.ff_merge_counters();
  r.units_written = source.done();
  progress(r.units_written, source.total());
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ssdtlm
