#include "workload/apps/lsm_app.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "flash/geometry.h"

namespace ssdtlm {

namespace {
uint64_t units_of(uint64_t bytes) { return std::max<uint64_t>(1, (bytes + kUnitBytes - 1) / kUnitBytes); }
}  // namespace

struct LsmApp::Job {
  int out_level = 1;
  std::vector<Table> inputs;  // read, then deleted
  std::vector<Table> outputs;
  uint64_t in_units = 0, upper_units = 0, lower_units = 0;
  size_t l0_taken = 0;        // L0 job: the oldest tables taken
  int upper_level = 0;
  // progress
  size_t out_i = 0;
  uint64_t out_off = 0;
  size_t in_i = 0;
  uint64_t in_off = 0, read_done = 0, written = 0, out_total = 0;
};

LsmApp::LsmApp(AppIo& io, const AppParams& p, uint64_t seed)
    : io_(io),
      p_(p),
      rng_(seed ^ 0x15A7ull),
      D_(std::max<uint64_t>(1, uint64_t(p.lsm_db_fraction * double(io.fs.total_units())))),
      M_(units_of(p.lsm_memtable_bytes)),
      T_(units_of(p.lsm_table_bytes)),
      wal_w_(units_of(p.lsm_wal_write_bytes)),
      f_(std::max<uint32_t>(2, p.lsm_fanout)),
      trig_(std::max<uint32_t>(1, p.lsm_l0_trigger)),
      stop_(5 * std::max<uint32_t>(1, p.lsm_l0_trigger)),
      proc_(io.new_proc()),
      slot_(io.new_slots(1)) {
  // Levels: L1 = trigger x memtable, x fanout per level, until a target reaches D (the last level holds D).
  target_.assign(2, 0.0);
  target_[1] = double(trig_) * double(M_);
  while (target_.back() < double(D_)) target_.push_back(target_.back() * f_);
  levels_ = int(target_.size()) - 1;
  target_[size_t(levels_)] = double(D_);
  lv_.resize(size_t(levels_) + 1);
  lv_units_.assign(size_t(levels_) + 1, 0);
  cursor_.assign(size_t(levels_) + 1, 0.0);
  last_pick_.assign(size_t(levels_) + 1, 0.0);
  stats_.upper_in.assign(size_t(levels_) + 1, 0);
  stats_.lower_in.assign(size_t(levels_) + 1, 0);
  stats_.out.assign(size_t(levels_) + 1, 0);
  footprint_ = D_ + uint64_t(stop_ + 4) * M_ + uint64_t(f_ + 3) * T_ * 2;
  for (int k = 1; k < levels_; ++k) footprint_ += uint64_t(target_[size_t(k)] * 2.0);  // the client stalls beyond twice a target
  // Initial layout: the last level full, the others at half their target, tables spread over the key space.
  for (int k = levels_; k >= 1; --k) {
    const uint64_t vol = k == levels_ ? D_ : uint64_t(target_[size_t(k)] / 2);
    const uint64_t n = (vol + T_ - 1) / T_;
    uint64_t done = 0;
    for (uint64_t i = 0; i < n; ++i) {
      const uint64_t u = std::min(T_, vol - done);
      Table t;
      t.lo = double(done) / double(vol);
      t.hi = i + 1 == n ? 1.0 : double(done + u) / double(vol);
      t.units = u;
      t.f = io_.layout_file(u, origin(kPcCompaction + uint32_t(k), hint_for_level(k)));
      lv_[size_t(k)][t.lo] = t;
      lv_units_[size_t(k)] += u;
      done += u;
    }
  }
  wal_ = io_.fs.create();
  io_.fs.append(wal_, M_ + wal_w_);  // preallocated (fallocate): written as the log grows
}

uint64_t LsmApp::l0_units() const {
  uint64_t s = 0;
  for (auto& t : l0_) s += t.units;
  return s;
}

// The client waits for the flush of the immutable memtable, for L0 below the stop trigger, and for the upper
// levels to be within twice their targets (RocksDB's pending-compaction-bytes limit, scaled to the tree).
bool LsmApp::stalled() const {
  if ((mem_units_ >= M_ && imm_pending_) || l0_.size() >= stop_) return true;
  for (int k = 1; k < levels_; ++k)
    if (double(lv_units_[size_t(k)]) > 2.0 * target_[size_t(k)]) return true;
  return false;
}

bool LsmApp::step() {
  if (lanes_.idle(0)) lanes_.push(0, [this] { client_write(); });
  blocked_[0] = stalled();
  if (blocked_[0]) ++stats_.stall_steps;
  if (!lanes_.run_one(io_, &blocked_)) throw std::logic_error("lsm: the client is stalled with no flush or compaction to run");
  return true;
}

void LsmApp::client_write() {
  if (mem_units_ >= M_) switch_memtable();
  const uint64_t w = std::min(wal_w_, io_.fs.size(wal_) - wal_pos_);
  io_.write(wal_, wal_pos_, w, origin(kPcWal, 1));
  wal_pos_ += w;
  mem_units_ += w;
  stats_.wal_units += w;
  read_credit_ += p_.lsm_reads_per_write * double(w);
  while (read_credit_ >= 1.0) {
    random_get();
    read_credit_ -= 1.0;
  }
}

void LsmApp::random_get() {
  uint64_t total = l0_units();
  for (int k = 1; k <= levels_; ++k) total += lv_units_[size_t(k)];
  if (total == 0) return;
  uint64_t r = rng_.below(total);
  const Table* t = nullptr;
  for (auto& x : l0_) {
    if (r < x.units) {
      t = &x;
      break;
    }
    r -= x.units;
  }
  for (int k = 1; !t && k <= levels_; ++k) {
    if (r >= lv_units_[size_t(k)]) {
      r -= lv_units_[size_t(k)];
      continue;
    }
    auto& lv = lv_[size_t(k)];
    auto it = lv.upper_bound(rng_.uniform());
    if (it != lv.begin()) --it;
    t = &it->second;
  }
  if (!t) return;
  io_.read(t->f, rng_.below(t->units), 1, origin(0, 0));
  ++stats_.read_units;
}

void LsmApp::switch_memtable() {
  imm_pending_ = true;
  const FileId old_wal = wal_;
  const uint64_t mem = mem_units_;
  wal_ = io_.fs.create();
  io_.fs.append(wal_, M_ + wal_w_);
  wal_pos_ = 0;
  mem_units_ = 0;
  // The flush: one L0 table of the memtable's size, written in max_io pieces, then the old WAL deleted.
  Table t;
  t.units = mem;
  t.f = io_.fs.create();
  io_.fs.append(t.f, mem);
  const uint64_t chunk = io_.max_io_units();
  for (uint64_t off = 0; off < mem; off += chunk)
    lanes_.push(1, [this, f = t.f, off, n = std::min(chunk, mem - off)] { io_.write(f, off, n, origin(kPcFlush, 2)); });
  lanes_.push(1, [this, t, old_wal] {
    io_.close(t.f, origin(kPcFlush, 2));
    l0_.push_back(t);
    stats_.flush_units += t.units;
    ++stats_.flushes;
    io_.remove(old_wal, origin(0, 0));
    ++stats_.wal_deletes;
    imm_pending_ = false;
    maybe_compact();
  });
  maybe_compact();
}

void LsmApp::maybe_compact() {
  if (compacting_) return;
  // RocksDB's pick: the highest score, L0 by table count / trigger, a level by size / target, if >= 1
  int best = -1;
  double score = 1.0;
  if (l0_.size() >= trig_) {
    best = 0;
    score = double(l0_.size()) / double(trig_);
  }
  for (int k = 1; k < levels_; ++k) {
    const double s = double(lv_units_[size_t(k)]) / target_[size_t(k)];
    if (s > score) {
      score = s;
      best = k;
    }
  }
  if (best == 0) start_l0_compaction();
  if (best > 0) start_level_compaction(best);
}

void LsmApp::start_l0_compaction() {
  auto job = std::make_shared<Job>();
  job->out_level = 1;
  job->upper_level = 0;
  job->l0_taken = l0_.size();
  double v = double(lv_units_[1]);
  for (auto& [lo, t] : lv_[1]) job->inputs.push_back(t);
  job->lower_units = lv_units_[1];
  for (auto& t : l0_) {  // each L0 table spans the whole key range
    job->inputs.push_back(t);
    job->upper_units += t.units;
    v += double(t.units) * (1.0 - std::min(1.0, v / double(D_)));
  }
  job->out_total = std::max<uint64_t>(1, uint64_t(std::llround(v)));
  // outputs split [0, 1) by volume
  const uint64_t n = (job->out_total + T_ - 1) / T_;
  uint64_t done = 0;
  for (uint64_t i = 0; i < n; ++i) {
    Table o;
    o.units = std::min(T_, job->out_total - done);
    o.lo = double(done) / double(job->out_total);
    o.hi = i + 1 == n ? 1.0 : double(done + o.units) / double(job->out_total);
    done += o.units;
    job->outputs.push_back(o);
  }
  run_job(job);
}

void LsmApp::start_level_compaction(int k) {
  auto& up = lv_[size_t(k)];
  // round robin: the table at the level's cursor (a level then dies in key order, oldest first); random: the table
  // holding a random key (RocksDB's overlap-based picks on uniform keys come close: no order in time).
  auto it = up.lower_bound(cursor_[size_t(k)]);
  if (p_.lsm_random_pick) {
    it = up.upper_bound(rng_.uniform());
    if (it != up.begin()) --it;
  }
  if (it == up.end()) it = up.begin();
  const Table t = it->second;
  cursor_[size_t(k)] = t.hi >= 1.0 ? 0.0 : t.hi;
  ++stats_.level_picks;
  if (t.lo < last_pick_[size_t(k)]) ++stats_.picks_backwards;
  last_pick_[size_t(k)] = t.lo;
  auto job = std::make_shared<Job>();
  job->out_level = k + 1;
  job->upper_level = k;
  job->inputs.push_back(t);
  job->upper_units = t.units;
  double lo = t.lo, hi = t.hi;
  auto& low = lv_[size_t(k + 1)];
  auto jt = low.upper_bound(t.lo);
  if (jt != low.begin() && std::prev(jt)->second.hi > t.lo) --jt;
  for (; jt != low.end() && jt->second.lo < t.hi; ++jt) {
    job->inputs.push_back(jt->second);
    job->lower_units += jt->second.units;
    lo = std::min(lo, jt->second.lo);
    hi = std::max(hi, jt->second.hi);
  }
  const double width = std::max(1e-12, hi - lo);
  const double density = std::min(1.0, double(job->lower_units) / (width * double(D_)));
  job->out_total = std::max<uint64_t>(1, uint64_t(std::llround(double(job->lower_units) +
                                                                 double(t.units) * (1.0 - density))));
  const uint64_t n = (job->out_total + T_ - 1) / T_;
  uint64_t done = 0;
  for (uint64_t i = 0; i < n; ++i) {
    Table o;
    o.units = std::min(T_, job->out_total - done);
    o.lo = lo + width * double(done) / double(job->out_total);
    o.hi = i + 1 == n ? hi : lo + width * double(done + o.units) / double(job->out_total);
    done += o.units;
    job->outputs.push_back(o);
  }
  run_job(job);
}

void LsmApp::run_job(std::shared_ptr<Job> job) {
  compacting_ = true;
  for (auto& t : job->inputs) job->in_units += t.units;
  for (auto& o : job->outputs) {  // the outputs are allocated now (their extents free now: trims already out)
    o.f = io_.fs.create();
    io_.fs.append(o.f, o.units);
  }
  const uint64_t chunk = io_.max_io_units();
  const int L = job->out_level;
  const WriteOrigin out_origin = origin(kPcCompaction + uint32_t(L), hint_for_level(L));
  // One step per output chunk; each reads the inputs up to the same fraction first.
  const uint64_t chunks_total = (job->out_total + chunk - 1) / chunk + job->outputs.size();
  for (uint64_t c = 0; c < chunks_total; ++c)
    lanes_.push(2, [this, job, chunk, out_origin] {
      if (job->out_i >= job->outputs.size()) return;
      Table& o = job->outputs[job->out_i];
      const uint64_t n = std::min(chunk, o.units - job->out_off);
      job->written += n;
      const uint64_t read_to = job->in_units * job->written / job->out_total;
      while (job->read_done < read_to && job->in_i < job->inputs.size()) {
        const Table& in = job->inputs[job->in_i];
        const uint64_t r = std::min({chunk, in.units - job->in_off, read_to - job->read_done});
        io_.read(in.f, job->in_off, r, origin(0, 0));
        job->read_done += r;
        job->in_off += r;
        if (job->in_off == in.units) {
          ++job->in_i;
          job->in_off = 0;
        }
      }
      io_.write(o.f, job->out_off, n, out_origin);
      job->out_off += n;
      if (job->out_off == o.units) {
        io_.close(o.f, out_origin);
        ++job->out_i;
        job->out_off = 0;
      }
    });
  lanes_.push(2, [this, job] {
    const int L = job->out_level;
    // install: drop the inputs from their levels, add the outputs, delete the input files
    if (job->upper_level == 0) {
      l0_.erase(l0_.begin(), l0_.begin() + long(job->l0_taken));
      lv_[1].clear();
      lv_units_[1] = 0;
    } else {
      const Table& t = job->inputs[0];
      lv_[size_t(job->upper_level)].erase(t.lo);
      lv_units_[size_t(job->upper_level)] -= t.units;
      for (size_t i = 1; i < job->inputs.size(); ++i) {
        lv_[size_t(L)].erase(job->inputs[i].lo);
        lv_units_[size_t(L)] -= job->inputs[i].units;
      }
    }
    for (auto& o : job->outputs) {
      lv_[size_t(L)][o.lo] = o;
      lv_units_[size_t(L)] += o.units;
    }
    for (auto& t : job->inputs) io_.remove(t.f, origin(0, 0));
    stats_.upper_in[size_t(L)] += job->upper_units;
    stats_.lower_in[size_t(L)] += job->lower_units;
    stats_.out[size_t(L)] += job->out_total;
    stats_.compaction_units += job->out_total;
    ++stats_.compactions;
    compacting_ = false;
    maybe_compact();
  });
}

std::unique_ptr<AppModel> make_lsm_app(AppIo& io, const AppParams& p, uint64_t seed) {
  return std::make_unique<LsmApp>(io, p, seed);
}

}  // namespace ssdtlm
