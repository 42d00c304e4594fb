#include "controller/streams/streams.h"

#include <algorithm>

#include "controller/snapshot/snapshot_archive.h"
#include "flash/geometry.h"

namespace ssdtlm {

namespace {
constexpr const char* kAssignKey = "streams.assign";

StreamContext context_of(const StreamParams& p, uint64_t logical_units, const WriteCounts* counts) {
  StreamContext ctx;
  ctx.streams = p.user_streams();
  ctx.logical_units = logical_units;
  ctx.hot_threshold = p.hot_threshold;
  ctx.chunk_units = p.chunk_units;
  ctx.counts = counts;
  ctx.pc_table_bytes = p.pc_table_bytes;
  ctx.recluster_units = p.recluster_units;
  ctx.pc_table_reset_run = p.pc_table_reset_run;
  ctx.pc_min_deaths = p.pc_min_deaths;
  ctx.pc_clock_time = p.pc_clock_time;
  ctx.fdp_rgs = p.fdp_rgs;
  ctx.fdp_ruhs = p.fdp_ruhs;
  return ctx;
}
}  // namespace

bool StreamParams::counts() const {
  return find_stream_policy(assign, kAssignKey).reads_counts || gc == GcStreams::HotCold;
}

std::vector<MemoryPart> Streams::memory_estimate(const StreamParams& p, uint64_t logical_units) {
  std::vector<MemoryPart> parts;
  if (p.lifetimes)
    parts.push_back({"lifetime statistics", "stats.lifetimes",
                     uint64_t(Lifetimes::memory_estimate(logical_units, p.lifetime_shift))});
  const StreamPolicyEntry& policy = find_stream_policy(p.assign, kAssignKey);
  if (policy.memory) parts.push_back(policy.memory(context_of(p, logical_units, nullptr)));
  if (p.counts()) parts.push_back({"hot/cold write counts", "streams.gc_stream", WriteCounts::memory_estimate(logical_units)});
  return parts;
}

Streams::Streams(const StreamParams& p, uint64_t logical_units) : p_(p) {
  if (p_.counts()) counts_ = std::make_unique<WriteCounts>(logical_units);
  policy_ = make_stream_policy(p_.assign, context_of(p_, logical_units, counts_.get()), kAssignKey);
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
