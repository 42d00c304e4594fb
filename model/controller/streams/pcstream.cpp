// PCStream (see pcstream.h).
#include "controller/streams/pcstream.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "controller/streams/pc_clustering.h"

namespace ssdtlm {

PcStream::PcStream(uint32_t streams, uint64_t logical_units, uint64_t table_bytes, uint64_t recluster_units,
                   bool reset_each_run, uint32_t min_deaths, bool time_clock)
    : streams_(streams),
      recluster_units_(std::max<uint64_t>(1, recluster_units)),
      next_recluster_(recluster_units_),
      units_(size_t(logical_units)),
      table_(table_bytes),
      reset_each_run_(reset_each_run),
      min_deaths_(std::max<uint32_t>(1, min_deaths)),
      time_clock_(time_clock) {
  if (time_clock_) born_hi_.resize(units_.size());
  if (streams < 2) throw std::logic_error("pcstream: needs a user stream besides stream 0");
}

void PcStream::credit(float& mean, uint32_t& samples, double x) {
  if (samples < ~uint32_t(0)) ++samples;
  mean += float((x - double(mean)) / double(std::min(samples, kWindow)));
}

uint8_t PcStream::stream_for(double x) const {
  return centroids_.empty() ? 0 : uint8_t(1 + nearest_centroid(centroids_, x));
}

uint64_t PcStream::lifetime(uint32_t lpn) const {
  const Unit& u = units_[lpn];
  if (!time_clock_) return std::max<uint32_t>(1, uint32_t(clock_) - u.born);
  const uint64_t born = (uint64_t(born_hi_[lpn]) << 32) | u.born;
  return std::max<uint64_t>(1, now_ns_ - std::min(now_ns_, born));
}

void PcStream::kill(uint32_t lpn) {
  Unit& u = units_[lpn];
  if (u.pc == 0) return;
  const double x = std::log2(double(lifetime(lpn)));
  const uint64_t k = key(u.proc, u.pc);
  Record* r = cached_;
  if (k != cached_key_) {
    auto it = records_.find(k);
    r = it == records_.end() ? nullptr : &it->second;
    if (r) {
      cached_key_ = k;
      cached_ = r;
    }
  }
  u.pc = 0;
  if (r) {
    credit(r->mean_log2, r->samples, x);
    ++stats_.lifetimes_process;
    if (r->samples == min_deaths_) {  // newly estimated: the nearest cluster now, a re-clustering soon if streams are unused
      r->stream = stream_for(r->mean_log2);
      if (centroids_.size() + 1 < streams_) recluster_pending_ = true;
    }
    return;
  }
  // The writer has exited: the PC-stream table learns the lifetime, keeping an entry for the PC (a new one,
  // evicting the least recently used, when it has none): this is how PCs of short-lived processes, whose
  // data dies after them, get estimated at all.
  PcStreamTable::Entry* e = table_.find(k & 0xFFFFFFFFu, false);
  if (!e) e = table_.upsert(k & 0xFFFFFFFFu);
  if (e) {
    credit(e->mean_log2, e->samples, x);
    if (e->samples == min_deaths_) e->stream = stream_for(e->mean_log2);
    ++stats_.lifetimes_table;
    return;
  }
  ++stats_.lifetimes_lost;
}

PcStream::Record* PcStream::record(const WriteTag& tag) {
  if (tag.proc != 0) {
    if (tag.proc_slot >= slot_proc_.size()) slot_proc_.resize(size_t(tag.proc_slot) + 1, 0);
    uint32_t& cur = slot_proc_[tag.proc_slot];
    if (tag.proc < cur) {  // a late write of an exited process
      seen_.insert(tag.pc);
      return nullptr;
    }
    if (tag.proc != cur) {
      if (cur != 0) exit_process(cur);
      cur = tag.proc;
    }
  }
  auto [it, fresh] = records_.try_emplace(key(tag.proc, tag.pc));
  if (fresh) {
    seen_.insert(tag.pc);
    auto [p, born] = procs_.try_emplace(tag.proc);
    if (born) p->second.run = run_;
    p->second.pcs.push_back(tag.pc);
  }
  return &it->second;
}

void PcStream::exit_process(uint32_t proc) {
  auto p = procs_.find(proc);
  if (p == procs_.end()) return;
  const bool forgotten = reset_each_run_ && p->second.run < run_;  // learnt in a run the table has forgotten
  for (uint32_t pc : p->second.pcs) {
    auto it = records_.find(key(proc, pc));
    const Record& r = it->second;
    if (r.samples > 0 && !forgotten)
      if (PcStreamTable::Entry* e = table_.upsert(pc)) {
        const double a = std::min(e->samples, kWindow), b = std::min(r.samples, kWindow);
        e->mean_log2 = float((a * e->mean_log2 + b * r.mean_log2) / (a + b));
        e->samples = uint32_t(std::min<uint64_t>(uint64_t(e->samples) + r.samples, ~uint32_t(0)));
        e->writes = uint32_t(std::min<uint64_t>(uint64_t(e->writes) + r.writes, ~uint32_t(0)));
        if (r.samples >= min_deaths_) e->stream = r.stream;
        else if (e->samples >= min_deaths_) e->stream = stream_for(e->mean_log2);  // estimated by the merge
      }
    records_.erase(it);
  }
  procs_.erase(p);
  cached_key_ = ~uint64_t(0);
  cached_ = nullptr;
  ++stats_.process_exits;
}

void PcStream::assign(uint32_t lpn, uint32_t units, const WriteTag& tag, uint8_t* out) {
  for (uint32_t i = 0; i < units; ++i) kill(lpn + i);
  uint8_t s = 0;
  if (tag.pc == 0) {
    stats_.untagged_units += units;
    clock_ += units;
  } else {
    if (tag.run > run_) {
      run_ = tag.run;
      if (reset_each_run_) {
        table_.clear();
        ++stats_.table_resets;
      }
    }
    Record* r = record(tag);
    if (time_clock_) {
      for (uint32_t i = 0; i < units; ++i) {
        units_[lpn + i] = Unit{uint32_t(now_ns_), tag.pc, tag.proc};
        born_hi_[lpn + i] = uint32_t(now_ns_ >> 32);
      }
      clock_ += units;
    } else {
      for (uint32_t i = 0; i < units; ++i) units_[lpn + i] = Unit{uint32_t(clock_++), tag.pc, tag.proc};
    }
    if (r) r->writes = uint32_t(std::min<uint64_t>(uint64_t(r->writes) + units, ~uint32_t(0)));
    if (recluster_pending_) recluster();
    const PcStreamTable::Entry* e = nullptr;
    if (r && r->samples >= min_deaths_) {
      s = r->stream;
    } else if ((e = table_.find(tag.pc, false)) && e->samples >= min_deaths_) {
      table_.find(tag.pc, true);  // a hit: the entry becomes the most recently used
      s = e->stream;
      ++stats_.table_hits;
    } else {
      ++stats_.table_misses;
      stats_.not_estimated_units += units;
    }
  }
  std::memset(out, s, units);
  if (recluster_pending_ || clock_ >= next_recluster_) recluster();
}

void PcStream::trim(uint32_t lpn, uint32_t units) {
  for (uint32_t i = 0; i < units; ++i) kill(lpn + i);
  if (recluster_pending_) recluster();
}

void PcStream::recluster() {
  recluster_pending_ = false;
  next_recluster_ = clock_ + recluster_units_;
  ++stats_.reclusters;
  // Every estimate, in a deterministic order: by (pc, proc), a table entry (proc ~0) after the records of its PC.
  struct Part {
    uint32_t pc, proc;
    double x, samples, writes;
  };
  std::vector<Part> parts;
  parts.reserve(records_.size() + table_.size());
  for (const auto& [k, r] : records_)
    if (r.samples >= min_deaths_) parts.push_back({uint32_t(k), uint32_t(k >> 32), r.mean_log2, double(std::min(r.samples, kWindow)), double(r.writes)});
  table_.for_each([&](const PcStreamTable::Entry& e) {
    if (e.samples >= min_deaths_) parts.push_back({e.pc, ~uint32_t(0), e.mean_log2, double(std::min(e.samples, kWindow)), double(e.writes)});
  });
  std::sort(parts.begin(), parts.end(), [](const Part& a, const Part& b) { return a.pc < b.pc || (a.pc == b.pc && a.proc < b.proc); });
  // One point per PC: its sample-weighted mean log lifetime, weighted by its recent writes.
  std::vector<uint32_t> pcs;
  std::vector<LifetimePoint> points;
  for (size_t i = 0; i < parts.size();) {
    double sx = 0, n = 0, w = 0;
    size_t j = i;
    for (; j < parts.size() && parts[j].pc == parts[i].pc; ++j) {
      sx += parts[j].x * parts[j].samples;
      n += parts[j].samples;
      w += parts[j].writes;
    }
    pcs.push_back(parts[i].pc);
    points.push_back({sx / n, w + 1});
    i = j;
  }
  centroids_ = cluster_lifetimes(points, streams_ - 1);
  auto stream_of_pc = [&](uint32_t pc) {
    const size_t i = size_t(std::lower_bound(pcs.begin(), pcs.end(), pc) - pcs.begin());
    return stream_for(points[i].x);
  };
  for (auto& [k, r] : records_) {
    if (r.samples >= min_deaths_) r.stream = stream_of_pc(uint32_t(k));
    r.writes /= 2;
  }
  table_.for_each([&](PcStreamTable::Entry& e) {
    if (e.samples >= min_deaths_) e.stream = stream_of_pc(e.pc);
    e.writes /= 2;
  });
}

uint32_t PcStream::samples(uint32_t proc, uint32_t pc) const {
  auto it = records_.find(key(proc, pc));
  return it == records_.end() ? 0 : it->second.samples;
}

double PcStream::mean_log2(uint32_t proc, uint32_t pc) const {
  auto it = records_.find(key(proc, pc));
  return it == records_.end() ? 0.0 : double(it->second.mean_log2);
}

uint32_t PcStream::pcs_known() const {
  std::vector<uint32_t> pcs;
  for (const auto& [k, r] : records_)
    if (r.samples > 0) pcs.push_back(uint32_t(k));
  table_.for_each([&](const PcStreamTable::Entry& e) {
    if (e.samples > 0) pcs.push_back(e.pc);
  });
  std::sort(pcs.begin(), pcs.end());
  return uint32_t(std::unique(pcs.begin(), pcs.end()) - pcs.begin());
}

size_t PcStream::memory_bytes() const {
  // Records: node (key, value, hash link) about 48 B plus a bucket pointer; a process's PC list 4 B per PC.
  return units_.capacity() * sizeof(Unit) + born_hi_.capacity() * 4 + records_.size() * 56 +
         records_.bucket_count() * 8 + procs_.size() * 48 + slot_proc_.capacity() * 4 + seen_.size() * 24 +
         seen_.bucket_count() * 8 + table_.memory_bytes();
}

PolicyCounters PcStream::counters() const {
  PolicyCounters c = {{"table_hits", stats_.table_hits},
                      {"table_misses", stats_.table_misses},
                      {"table_entries", uint64_t(table_.size())},
                      {"table_capacity_entries", uint64_t(table_.capacity())},
                      {"table_bytes", uint64_t(table_.bytes())},
                      {"table_entry_bytes", uint64_t(PcStreamTable::kEntryBytes)},
                      {"table_evictions", uint64_t(table_.evictions() - evictions_base_)},
                      {"pcs_known", uint64_t(pcs_known())},
                      {"pcs_seen", uint64_t(pcs_seen())},
                      {"pc_records", uint64_t(records_.size())},
                      {"processes", uint64_t(procs_.size())},
                      {"process_exits", stats_.process_exits},
                      {"not_estimated_units", stats_.not_estimated_units},
                      {"untagged_units", stats_.untagged_units},
                      {"lifetimes_process", stats_.lifetimes_process},
                      {"lifetimes_table", stats_.lifetimes_table},
                      {"lifetimes_lost", stats_.lifetimes_lost},
                      {"reclusters", stats_.reclusters},
                      {"table_resets", stats_.table_resets},
                      {"clusters", uint64_t(centroids_.size())},
                      {"unit_bytes", uint64_t(sizeof(Unit) + (time_clock_ ? 4 : 0))}};
  if (time_clock_) c.push_back({"clock_ns", now_ns_});  // streams.pcstream_clock=time: the clock at the end
  return c;
}

void PcStream::reset_stats() {
  stats_ = Stats();
  evictions_base_ = table_.evictions();
}

// Birth, PC and process per logical unit (12 B), plus its bounded PC-stream table (its entries and buckets).
MemoryPart pcstream_memory(const StreamContext& c) {
  return {"pcstream lifetimes and PC-stream table", "streams.assign",
          uint64_t(double(c.logical_units) * 12 + double(c.pc_table_bytes) * 1.25)};
}

std::unique_ptr<StreamPolicy> make_pcstream(const StreamContext& c) {
  return std::make_unique<PcStream>(c.streams, c.logical_units, c.pc_table_bytes, c.recluster_units, c.pc_table_reset_run,
                                    c.pc_min_deaths, c.pc_clock_time);
}

}  // namespace ssdtlm
