#include "flash/reliability/reliability.h"

#include <algorithm>
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void Reliability::snapshot(SnapshotArchive& a) {
  // The retention clock (temperature, acceleration, aged_at_ps_) is not saved: a snapshot is taken after the
  // fast-forward, before the timed run, when it is at its start (every block's data dates from before the run).
  a.section("reliability");
  a.io_all(programmed_ps_, reads_, queued_, terms_at_, terms_, reclaim_, counters_);
}

Reliability::Reliability(const Geometry& g, const ReliabilityParams& p)
    : g_(g),
      model_(p),
      pre_hours_(p.retention_hours * model_.acceleration(p.retention_temp_c)),
      temp_c_(p.run_temp_c),
      af_(model_.acceleration(p.run_temp_c)),
      programmed_ps_(size_t(g.dies) * g.blocks_per_die, kBeforeRun),
      reads_(size_t(g.dies) * g.blocks_per_die, 0),
      queued_(size_t(g.dies) * g.blocks_per_die, 0),
      terms_at_(size_t(g.dies) * g.blocks_per_die, ~0u),
      terms_(size_t(g.dies) * g.blocks_per_die),
      reclaim_(g.dies) {}

double Reliability::pe(uint32_t erases, bool slc) const {
  const ReliabilityParams& p = model_.params();
  const double c = p.initial_pe + erases;
  return slc ? c / p.slc_endurance_gain : c;
}

void Reliability::set_temp_c(double temp_c, uint64_t now_ps) {
  if (temp_c == temp_c_ || now_ps < temp_since_ps_) return;
  aged_at_ps_ = aged_ps(now_ps);
  temp_since_ps_ = now_ps;
  temp_c_ = temp_c;
  af_ = model_.acceleration(temp_c);
}

double Reliability::hours(uint32_t gblock, uint64_t now_ps) const {
  const uint64_t at = programmed_ps_[gblock], aged = aged_ps(now_ps);
  if (at == kBeforeRun) return pre_hours_ + double(aged) / 3.6e15;
  return double(aged - std::min(aged, at)) / 3.6e15;
}

double Reliability::block_rber(uint32_t gblock, uint32_t erases, bool slc, uint64_t now_ps) const {
  return model_.mean_rber(pe(erases, slc), hours(gblock, now_ps), double(reads_[gblock]) / g_.pages_per_block);
}

ReadOutcome Reliability::on_read(uint32_t gblock, uint32_t page, uint32_t erases, bool slc, uint64_t now_ps) {
  const double h = hours(gblock, now_ps), r = double(reads_[gblock]) / g_.pages_per_block;
  ++reads_[gblock];
  const uint32_t at = erases << 1 | uint32_t(slc);  // the wear terms change only with an erase (or the mode)
  if (terms_at_[gblock] != at) {
    terms_at_[gblock] = at;
    terms_[gblock] = model_.wear_terms(pe(erases, slc));
  }
  const RberModel::WearTerms& w = terms_[gblock];
  const ReliabilityParams& p = model_.params();
  const double shift = model_.shift_rber(w, h, r), mean = p.eps + w.wear + shift;
  const uint64_t key = (uint64_t(gblock) * g_.pages_per_block + page) << 20 ^ erases;
  const double factor = model_.page_factor(key);
  const ReadOutcome o = model_.decode(mean, shift, factor);
  ReliabilityCounters& k = counters_;
  ++k.reads;
  k.max_rber = std::max(k.max_rber, o.rber);
  if (o.retries) {
    ++k.retry_reads;
    k.retries += o.retries;
  }
  if (o.soft_tier && !o.uncorrectable) ++k.soft_decodes;
  if (o.uncorrectable) ++k.uncorrectable;
  k.decode_ps += o.decode_ps;
  // Retry depth triggers reclaim only where relocation helps: the page's wear floor alone decodes first time,
  // so its retries come from retention and read disturb, which a fresh copy does not have.
  const bool shifted = (mean - shift) * factor <= p.hard_rber;
  const bool due = (p.reclaim_reads && reads_[gblock] >= p.reclaim_reads) ||
                   (p.reclaim_steps && shifted && (o.retries >= p.reclaim_steps || o.soft_tier));
  if (due && !queued_[gblock]) {
    queued_[gblock] = 1;
    reclaim_[g_.die_of_gblock(gblock)].push_back(gblock);
  }
  return o;
}

uint32_t Reliability::pop_reclaim(uint32_t die) {
  std::deque<uint32_t>& q = reclaim_[die];
  while (!q.empty()) {
    const uint32_t b = q.front();
    q.pop_front();
    if (queued_[b]) {
      queued_[b] = 0;
      return b;
    }
  }
  return kInvalid;
}

}  // namespace ssdtlm
