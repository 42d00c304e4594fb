#include "controller/precondition.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "common/crew.h"
#include "common/fast_div.h"
#include "controller/fast_forward.h"

namespace ssdtlm {

uint32_t precondition_stripe_units(const Geometry& g) {
  return g.units_per_page * std::max<uint32_t>(1, 16 / g.units_per_page);
}

namespace {

constexpr uint8_t kTrimStream = 0xFF;  // a unit stream entry that trims its LPN (UnitSource::trim_request)

// The precondition's unit stream: the sequential fill, then the write requests of the overwrite
// workload cut into 4 KiB units, up to the total. Each write request (the fill in requests of
// kFillRequestUnits) is given its streams by the stream policy, in workload order, so the policy and the
// write counts evolve as they would in a timed run. A policy that measures time (streams.pcstream_clock=time)
// gets a nominal one: each unit written takes the drive's program time per unit (StreamParams::
// pc_nominal_unit_ps), and a request's idle gap (IoRequest::idle_ns) passes before it.
class UnitSource {
 public:
  static constexpr uint32_t kFillRequestUnits = 32;  // 128 KiB sequential writes
  UnitSource(uint64_t logical, bool fill, uint64_t over, Workload* w, Streams& streams)
      : logical_(logical),
        fill_end_(fill ? logical : 0),
        total_(w && w->precondition_trims() ? UINT64_MAX : fill_end_ + over),
        w_(w),
        streams_(streams),
        trims_(w && w->precondition_trims()),
        timed_(streams.measures_time()),
        unit_ps_(streams.params().pc_nominal_unit_ps) {}
  uint64_t total() const { return total_; }
  uint64_t done() const { return done_; }
  uint64_t nominal_ns() const { return nominal_ps_ / 1000; }
  // Writes up to max units (and their streams) to out; returns how many (0: the stream has ended).
  size_t next(uint32_t* out, uint8_t* stream, size_t max) {
    size_t n = 0;
    while (n < max && done_ < total_) {
      if (trim_left_) {
        out[n] = uint32_t(trim_first_++ % logical_);
        stream[n++] = kTrimStream;
        --trim_left_;
        continue;
      }
      if (cur_ > last_) {
        if (!start_request()) break;
        continue;
      }
      out[n] = uint32_t(cur_ % logical_);  // trace addresses beyond the device fold back, as in the timed run
      stream[n++] = streams_of_[size_t(cur_++ - first_)];
      ++done_;
    }
    return n;
  }

 private:
  // The next request's units [cur_, last_] and their streams; false when the workload has run out.
  bool start_request() {
    uint64_t first, last;
    WriteTag tag;
    if (done_ < fill_end_) {
      first = done_;
      last = std::min<uint64_t>(fill_end_, first + kFillRequestUnits) - 1;
    } else {
      IoRequest req;
      for (;;) {
        if (!w_ || !w_->next(req)) {
          total_ = done_;  // the workload ran out
          return false;
        }
        nominal_ps_ += req.idle_ns * 1000;
        if (req.op == IoOp::Write) break;
        if (req.op == IoOp::Trim && trims_ && trim_request(req)) return true;
      }
      first = req.offset / kUnitBytes;
      last = (req.offset + req.bytes - 1) / kUnitBytes;
      tag = WriteTag{req.stream, req.pc, req.proc, req.proc_slot, req.run, req.dtype, req.dspec};
    }
    first_ = cur_ = first;
    last_ = last;
    const uint64_t units = last - first + 1;
    if (timed_) streams_.set_time(nominal_ns());
    nominal_ps_ += units * unit_ps_;
    streams_of_.resize(std::max<size_t>(streams_of_.size(), size_t(units)));
    if (first % logical_ + units <= logical_) {
      streams_.assign(uint32_t(first % logical_), uint32_t(units), tag, streams_of_.data());
    } else {  // folds over the end of the device: unit by unit
      for (uint64_t u = 0; u < units; ++u) streams_.assign(uint32_t((first + u) % logical_), 1, tag, &streams_of_[u]);
    }
    return true;
  }

  // A trim (Workload::precondition_trims): the stream policy learns the deaths now, in workload order, and
  // the units it covers whole go out as kTrimStream units, which the die writers unmap. Trims are not
  // writes: they do not count towards done_. False when it covers no whole unit.
  bool trim_request(const IoRequest& req) {
    const uint64_t first = (req.offset + kUnitBytes - 1) / kUnitBytes, end = (req.offset + req.bytes) / kUnitBytes;
    if (end <= first) return false;
    const uint64_t units = end - first;
    if (timed_) streams_.set_time(nominal_ns());
    if (first % logical_ + units <= logical_) {
      streams_.trim(uint32_t(first % logical_), uint32_t(units));
    } else {
      for (uint64_t u = 0; u < units; ++u) streams_.trim(uint32_t((first + u) % logical_), 1);
    }
    trim_first_ = first;
    trim_left_ = units;
    return true;
  }

  uint64_t logical_, fill_end_, total_;
  Workload* w_;
  Streams& streams_;
  bool trims_;
  bool timed_;                 // the stream policy measures time: it is given the nominal time
  uint64_t unit_ps_;           //   a unit's write
  uint64_t nominal_ps_ = 0;    //   the time now
  uint64_t trim_first_ = 0, trim_left_ = 0;  // the current trim's units not yet handed out
  uint64_t done_ = 0;
  uint64_t first_ = 0, cur_ = 1, last_ = 0;  // units left of the current request
  std::vector<uint8_t> streams_of_;          // the current request's unit streams
};

// Static placement: stripe -> die, round-robin.
struct Striping {
  FastDiv stripe, dies;
  uint32_t die(uint32_t lpn) const { return dies.mod(stripe.div(lpn)); }
};

struct PlacedUnit {
  uint32_t lpn, version, die, stream;
  uint32_t seq;  // position in the unit stream (low 32 bits), to order versions of one LPN
};

// One group of dies [first, last), worked on by one worker at a time. Collects each (die, stream)'s units
// and writes them a few pages at a time: the die's metadata stays in cache across those pages, and the
// map entries and old blocks of the units are prefetched together first (random overwrites are bound by
// memory latency). Dies are independent, so how writes to different dies interleave changes nothing.
// With several streams a die's units wait in one list per stream, so a unit may reach flash after a newer
// version of its LPN that went out in another stream: `written` (per LPN, the stream position of the
// version on flash; an LPN lives on one die, so one worker owns its entry) drops such a superseded unit,
// as the write buffer would have absorbed it.
class DieWriter {
 public:
  DieWriter(FastForward& ff, uint32_t first, uint32_t last, std::vector<uint32_t>* written)
      : ff_(ff),
        state_(ff.engines().state),
        written_(written),
        upp_(state_.geometry().units_per_page),
        per_flush_(upp_ * std::max<uint32_t>(1, kUnitsPerFlush / upp_)),
        streams_(ff.engines().streams.user_streams()),
        first_(first),
        last_(last),
        pending_(size_t(last - first) * streams_ * per_flush_),
        count_(size_t(last - first) * streams_, 0) {}

  // Units of this writer's dies, in workload order.
  void take(const std::vector<PlacedUnit>& units) {
    for (const PlacedUnit& u : units) {
      if (u.stream == kTrimStream) {  // older versions still pending are dropped at their flush (written_)
        (*written_)[u.lpn] = u.seq;
        state_.unmap(u.lpn);
        continue;
      }
      const size_t k = size_t(u.die - first_) * streams_ + u.stream;
      pending_[k * per_flush_ + count_[k]] = Unit{u.lpn, u.version, u.seq};
      if (++count_[k] == per_flush_) flush(u.die, u.stream);
    }
  }
  void finish() {
    for (uint32_t d = first_; d < last_; ++d)
      for (uint32_t s = 0; s < streams_; ++s) flush(d, s);
  }

 private:
  struct Unit {
    uint32_t lpn, version, seq;
  };
  static constexpr uint32_t kUnitsPerFlush = 32;
  // Writes the (die, stream)'s pending units as pages, the last one padded if partial.
  void flush(uint32_t die, uint32_t stream) {
    const size_t k = size_t(die - first_) * streams_ + stream;
    uint32_t n = count_[k];
    Unit* u = &pending_[k * per_flush_];
    if (written_) {  // drop the units a newer version has overtaken; the rest are flash's newest
      uint32_t m = 0;
      for (uint32_t i = 0; i < n; ++i) {
        uint32_t& w = (*written_)[u[i].lpn];
        if (int32_t(u[i].seq - w) < 0) continue;
        w = u[i].seq;
        u[m++] = u[i];
      }
      n = m;
    }
    for (uint32_t i = 0; i < n; ++i) state_.prefetch_map(u[i].lpn);
    for (uint32_t i = 0; i < n; ++i) state_.prefetch_old(u[i].lpn);
    uint32_t lpns[kMaxUnitsPerPage], versions[kMaxUnitsPerPage];
    FfHostExec host(ff_);  // the host page job at once (fast_forward.h)
    for (uint32_t i = 0; i < n; i += upp_) {
      for (uint32_t s = 0; s < upp_; ++s) {
        const bool real = i + s < n;
        lpns[s] = real ? u[i + s].lpn : kInvalid;  // kInvalid: padding
        versions[s] = real ? u[i + s].version : 0;
      }
      host.write_page(die, stream, lpns, versions);
    }
    count_[k] = 0;
  }
  FastForward& ff_;
  DriveState& state_;
  std::vector<uint32_t>* written_;  // null with one stream (its units reach flash in order)
  const uint32_t upp_, per_flush_, streams_;
  const uint32_t first_, last_;
  std::vector<Unit> pending_;     // per owned (die, stream): per_flush_ slots
  std::vector<uint32_t> count_;   // per owned (die, stream): pending units
};

// Die groups: contiguous die ranges that workers claim one at a time. Several per worker, so that work
// spreads evenly; one group (and one worker) when group boundaries would share valid-bitmap words, or
// when some unit does not live on its stripe's die (the drive was written otherwise before): a worker
// would then invalidate units on dies another worker is writing.
uint32_t group_count(const DriveState& state, const Striping& s, unsigned workers) {
  const Geometry& g = state.geometry();
  if (workers <= 1) return 1;
  const uint32_t n = std::min<uint32_t>(g.dies, 8 * workers);
  const uint64_t units_per_die = uint64_t(g.blocks_per_die) * g.units_per_block;
  for (uint32_t k = 1; k < n; ++k)
    if (uint64_t(k) * g.dies / n * units_per_die % 64) return 1;
  for (uint32_t lpn = 0; lpn < g.logical_units; ++lpn) {
    const uint32_t ppa = state.lookup(lpn);
    if (ppa != kInvalid && g.die_of(ppa) != s.die(lpn)) return 1;
  }
  return n;
}

// One batch of the unit stream, binned by die group.
struct Batch {
  std::vector<std::vector<PlacedUnit>> group;
};

// Cuts the unit stream into batches binned by die group, on the caller's thread: it notes the trims and draws the
// integrity checker's versions, in stream order.
class BatchMaker {
 public:
  static constexpr size_t kBatch = size_t(1) << 16;
  BatchMaker(DriveState& state, IntegrityChecker* checker, UnitSource& source, const Striping& striping,
             const std::vector<uint32_t>& group_of_die, uint32_t groups)
      : state_(state), checker_(checker), source_(source), striping_(striping), group_of_die_(group_of_die),
        groups_(groups), lpn_(kBatch), stream_(kBatch) {}

  // Generates and bins the next batch; false at the end of the stream.
  bool refill(Batch& b) {
    b.group.resize(groups_);
    for (auto& v : b.group) v.clear();
    const size_t n = source_.next(lpn_.data(), stream_.data(), kBatch);
    for (size_t i = 0; i < n; ++i) {
      const uint32_t die = striping_.die(lpn_[i]);
      uint32_t version = 0;
      if (stream_[i] == kTrimStream) state_.note_trimmed(lpn_[i]);  // only this thread writes the trim notes
      if (checker_) {
        if (stream_[i] == kTrimStream) checker_->trimmed(lpn_[i]);
        else version = checker_->next_version(lpn_[i]);
      }
      b.group[group_of_die_[die]].push_back(PlacedUnit{lpn_[i], version, die, stream_[i], ++seq_});
    }
    return n != 0;
  }

 private:
  DriveState& state_;
  IntegrityChecker* checker_;
  UnitSource& source_;
  const Striping striping_;
  const std::vector<uint32_t>& group_of_die_;
  const uint32_t groups_;
  std::vector<uint32_t> lpn_;
  std::vector<uint8_t> stream_;
  uint32_t seq_ = 0;
};

// A writer per die group (contiguous die ranges); group_of_die: each die's group.
std::vector<DieWriter> die_writers(FastForward& ff, uint32_t groups, std::vector<uint32_t>& written,
                                   std::vector<uint32_t>& group_of_die) {
  const Geometry& g = ff.engines().state.geometry();
  std::vector<DieWriter> writers;
  writers.reserve(groups);
  for (uint32_t k = 0; k < groups; ++k) {
    const uint32_t first = uint32_t(uint64_t(k) * g.dies / groups), last = uint32_t(uint64_t(k + 1) * g.dies / groups);
    writers.emplace_back(ff, first, last, written.empty() ? nullptr : &written);
    for (uint32_t d = first; d < last; ++d) group_of_die[d] = k;
  }
  return writers;
}

// Every batch written by the die groups' writers, on `workers` threads claiming groups one at a time. While the
// workers write batch k, the caller generates batch k+1, then joins them. Each group's batches are written in
// order (a batch is finished before the next starts), so every die sees its units in workload order whatever the
// number of workers. When GC classifies by write count (streams.gc_stream=hotcold), the next batch is generated
// only after this one is written: GC then reads counts that include at most this batch's later writes (a
// lookahead of under kBatch units), whatever the number of workers.
void write_batches(const Streams& streams, BatchMaker& batches, std::vector<DieWriter>& writers, unsigned workers,
                   const UnitSource& source, const std::function<void(uint64_t, uint64_t)>& progress) {
  const uint32_t groups = uint32_t(writers.size());
  // Every group's job, on workers claiming groups one at a time; the caller runs `first` before joining.
  Crew crew(workers - 1);
  auto for_groups = [&](const std::function<void(uint32_t)>& job, const std::function<void()>& first) {
    std::atomic<uint32_t> next{0};
    crew.run([&] {
      for (uint32_t k; (k = next.fetch_add(1)) < groups;) job(k);
    }, first);
  };

  const bool overlap = streams.params().gc != GcStreams::HotCold;
  Batch batch[2];
  uint64_t reported = 0;
  bool more = batches.refill(batch[0]);
  for (int cur = 0; more; cur ^= 1) {
    const Batch& b = batch[cur];
    if (overlap) {
      for_groups([&](uint32_t k) { writers[k].take(b.group[k]); }, [&] { more = batches.refill(batch[cur ^ 1]); });
    } else {
      for_groups([&](uint32_t k) { writers[k].take(b.group[k]); }, nullptr);
      more = batches.refill(batch[cur ^ 1]);
    }
    if (source.done() - reported >= (uint64_t(1) << 22)) {
      reported = source.done();
      progress(reported, source.total());
    }
  }
  for_groups([&](uint32_t k) { writers[k].finish(); }, nullptr);
}

}  // namespace

PreconditionResult precondition(FastForward& ff, IntegrityChecker* checker, bool fill, double drive_writes,
                                Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress,
                                unsigned threads) {
  auto t0 = std::chrono::steady_clock::now();
  const FtlEngines& e = ff.engines();
  const Geometry& g = e.state.geometry();
  UnitSource source(g.logical_units, fill, uint64_t(drive_writes * double(g.logical_units)), overwrite, e.streams);
  const Striping striping{FastDiv(precondition_stripe_units(g)), FastDiv(g.dies)};
  unsigned workers = threads ? threads : std::max(1u, std::thread::hardware_concurrency());
  // With translation pages on flash the map cache is shared by every die, and superblock GC collects a line
  // on every die (a unit over several dies, gc/unit_pool.h): one worker.
  const uint32_t groups = e.translation || e.state.blocks().pool().spans_dies()
                              ? 1
                              : group_count(e.state, striping, std::min<unsigned>(workers, g.dies));
  if (groups == 1) workers = 1;
  PreconditionResult r;
  r.threads = workers;

  std::vector<uint32_t> group_of_die(g.dies);
  std::vector<uint32_t> written;  // per LPN, with several streams (DieWriter)
  if (e.streams.user_streams() > 1 || (overwrite && overwrite->precondition_trims()))
    written.assign(g.logical_units, 0);
  std::vector<DieWriter> writers = die_writers(ff, groups, written, group_of_die);
  BatchMaker batches(e.state, checker, source, striping, group_of_die, groups);
  write_batches(e.streams, batches, writers, workers, source, progress);

  ff.finish();
  ff.merge_counters();
  e.streams.continue_clock();  // the timed run's time, from 0, continues the nominal clock
  r.units_written = source.done();
  progress(r.units_written, source.total());
  r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace ssdtlm
