#include "controller/streams/streams.h"

#include <algorithm>

#include "common/config.h"
#include "flash/geometry.h"

namespace ssdtlm {

StreamParams StreamParams::from_config(const Config& c) {
  auto fail = [](const std::string& key, const std::string& what) { throw ConfigError("key '" + key + "': " + what); };
  StreamParams p;
  p.count = uint32_t(c.i("streams.count"));
  p.assign = c.s("streams.assign");
  p.hot_threshold = uint32_t(c.i("streams.hot_threshold"));
  const uint64_t chunk = c.u("streams.autostream_chunk_bytes");
  if (chunk % kUnitBytes)
    fail("streams.autostream_chunk_bytes", "expected a multiple of the 4 KiB mapping unit, got " + std::to_string(chunk));
  p.chunk_units = uint32_t(std::min<uint64_t>(chunk / kUnitBytes, 1u << 30));
  p.pc_table_bytes = c.u("streams.pc_table_bytes");
  p.recluster_units = c.u("streams.pcstream_recluster_units");
  p.pc_table_reset_run = c.s("streams.pc_table_reset") == "run";
  std::string gc = c.s("streams.gc_stream");
  std::string frontier = c.s("streams.gc_frontier");
  // streams.internal (seed 002's internal streams): true = GC copies go to GC frontiers of their own, one per
  // data stream; false = back into their own stream's user frontier. auto = streams.gc_stream and
  // streams.gc_frontier decide. Either key set to a value other than its default that contradicts
  // streams.internal is refused (a default cannot be told from a value written out, so it is overridden).
  const std::string internal = c.s("streams.internal");
  if (internal != "auto") {
    const bool on = internal == "true";
    const std::string want_frontier = on ? "own" : "user";
    auto clash = [&](const std::string& key, const std::string& got, const std::string& want) {
      if (got == want || find_key(key)->def.get<std::string>() == got) return;
      fail("streams.internal", "streams.internal=" + internal + " puts GC copies " +
                                   (on ? "in GC frontiers of their own, one per data stream (streams.gc_stream=per_stream, "
                                         "streams.gc_frontier=own)"
                                       : "back in their own stream's user frontier (streams.gc_stream=per_stream, "
                                         "streams.gc_frontier=user)") +
                                   ", which contradicts " + key + "=" + got + "; leave " + key + " out");
    };
    clash("streams.gc_stream", gc, "per_stream");
    clash("streams.gc_frontier", frontier, want_frontier);
    gc = "per_stream";
    frontier = want_frontier;
  }
  p.gc = gc == "per_stream" ? GcStreams::PerStream : gc == "hotcold" ? GcStreams::HotCold : GcStreams::Shared;
  p.gc_in_user = frontier == "user";
  if (internal == "true" && p.count > 0 && c.s("ftl.gc_unit") == "superblock")
    fail("streams.internal", "streams.internal=true gives each of the " + std::to_string(p.count + 1) +
                                 " data streams a GC frontier of its own, which superblock GC (ftl.gc_unit=superblock) "
                                 "refuses (several GC frontiers of their own; docs/streams.md): use ftl.gc_unit=block, "
                                 "or streams.internal=false");
  const std::string life = c.s("stats.lifetimes");
  p.lifetimes = life == "on" || life == "all" || (life == "auto" && p.count > 0);
  p.lifetime_shift = life == "all" ? 0 : 3;

  bool known = false;
  for (const auto& n : stream_policy_names()) known |= n == p.assign;
  if (!known) make_stream_policy(p.assign, StreamContext(), "streams.assign");  // throws, naming the policies
  if (p.assign != "single" && p.count == 0)
    fail("streams.count", "streams.assign=" + p.assign + " needs streams besides the default stream 0 (at least 1), got 0");
  if (p.gc == GcStreams::HotCold && p.count == 0)
    fail("streams.count", "streams.gc_stream=hotcold needs streams besides the default stream 0 (at least 1), got 0");
  if (p.count > 0 && c.s("buffer.policy") == "hexa")
    fail("buffer.policy", "hexa orders the whole buffer by map segment and does not keep streams apart; with "
                          "streams.count > 0 use fifo (hexa with streams is not supported yet)");
  return p;
}

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
  policy_ = make_stream_policy(p_.assign, ctx, "streams.assign");
  policy_trims_ = policy_->wants_trims();
  if (p_.lifetimes) lifetimes_ = std::make_unique<Lifetimes>(logical_units, p_.user_streams(), p_.lifetime_shift);
  reset_stats();
}

void Streams::reset_stats() {
  stats_ = StreamStats();
  stats_.writes.assign(p_.user_streams(), 0);
  stats_.gc_writes.assign(p_.user_streams(), 0);
  if (lifetimes_) lifetimes_->reset();
  if (policy_) policy_->reset_stats();
}

size_t Streams::memory_bytes() const {
  return (counts_ ? counts_->memory_bytes() : 0) + policy_->memory_bytes() + (lifetimes_ ? lifetimes_->memory_bytes() : 0);
}

}  // namespace ssdtlm
