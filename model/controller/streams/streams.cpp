#include "controller/streams/streams.h"

#include <algorithm>

#include "controller/snapshot/snapshot_archive.h"
#include "flash/geometry.h"

namespace ssdtlm {

Streams::Streams(const StreamParams& p, uint64_t logical_units) : p_(p) {
  if (p_.counts()) counts_ = std::make_unique<WriteCounts>(logical_units);
  StreamContext ctx;
  ctx.streams = p_.user_streams();
  ctx.logical_units = logical_units;
  ctx.hot_threshold = p_.hot_threshold;
  ctx.chunk_units = p_.chunk_units;
  ctx.counts = counts_.get();
  ctx.pc_table_bytes = p_.pc_table_bytes;
  ctx.recluster_units = p_.recluster_units;
  ctx.pc_table_reset_run = p_.pc_table_reset_run;
  ctx.pc_min_deaths = p_.pc_min_deaths;
  ctx.pc_clock_time = p_.pc_clock_time;
  ctx.fdp_rgs = p_.fdp_rgs;
  ctx.fdp_ruhs = p_.fdp_ruhs;
  policy_ = make_stream_policy(p_.assign, ctx, "streams.assign");
  policy_trims_ = policy_->wants_trims();
  if (p_.zns) zns_ = std::make_unique<ZnsNamespace>(p_.zns_layout);
  if (p_.lifetimes) lifetimes_ = std::make_unique<Lifetimes>(logical_units, p_.user_streams(), p_.lifetime_shift);
  reset_stats();
}

void Streams::snapshot(SnapshotArchive& a) {
  a.section("streams");
  if (zns_) throw SnapshotUnsupported("a zoned namespace (zns.enabled) cannot be saved in a snapshot");
  a.expect(counts_ != nullptr, "write counts kept");
  a.expect(lifetimes_ != nullptr, "lifetimes kept");
  if (counts_) a.io(*counts_);
  policy_->snapshot(a);
  if (lifetimes_) a.io(*lifetimes_);
  a.io(stats_);
}

void Streams::reset_stats() {
  stats_ = StreamStats();
  stats_.writes.assign(p_.user_streams(), 0);
  stats_.gc_writes.assign(p_.user_streams(), 0);
  if (lifetimes_) lifetimes_->reset();
  if (policy_) policy_->reset_stats();
  if (zns_) zns_->zones().reset_counters();
}

size_t Streams::memory_bytes() const {
  return (counts_ ? counts_->memory_bytes() : 0) + policy_->memory_bytes() + (lifetimes_ ? lifetimes_->memory_bytes() : 0);
}

}  // namespace ssdtlm
