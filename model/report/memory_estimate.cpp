#include "report/memory_estimate.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config/params.h"
#include "common/units.h"
#include "flash/geometry.h"

namespace ssdtlm {

std::string MemoryEstimate::describe() const {
  std::string s = format_size(double(total)) + " (";
  bool first = true;
  for (auto& [what, bytes] : parts) {
    if (bytes < (1u << 20)) continue;  // the small ones would only lengthen the message
    s += (first ? "" : ", ") + what + " " + format_size(double(bytes));
    first = false;
  }
  return s + (first ? "all parts below 1 MiB)" : ")");
}

MemoryEstimate estimate_memory(const Params& p) {
  const Geometry& g = p.geometry;
  const double P = double(g.physical_units), L = double(g.logical_units);
  const double B = double(g.dies) * g.blocks_per_die;
  const bool integrity = p.sim.check_integrity;
  const double segments = L * double(p.map.cache.entry_bytes) / double(p.map.cache.segment_bytes);
  const double U = double(p.buffer.bytes / kUnitBytes);
  double index_slots = 16;
  while (index_slots < 2 * U) index_slots *= 2;
  const uint64_t streams = p.streams.count;
  const std::string& lifetimes = p.stats.lifetimes;
  const bool lifetimes_on = lifetimes == "on" || lifetimes == "all" || (lifetimes == "auto" && streams > 0);

  MemoryEstimate e;
  auto add = [&](const std::string& what, double bytes) { e.parts.emplace_back(what, uint64_t(bytes)); };
  // Die: lpn_ 4 B + kind_ 1 B per unit (+ versions_ 4 B with the checker); write pointer and erase count per block.
  add("dies' per-unit arrays", P * (integrity ? 9 : 5) + B * 6);
  // PageFtl: l2p 4 B per logical unit, valid bitmap 1 bit per physical unit; blocks: state 12 B, free ring 4 B,
  // greedy buckets about 8 B.
  add("page map", L * 4 + P / 8);
  add("block metadata", B * 24);
  // Slot 12 B + free stack 4 B + open-addressing index (a power of two >= 2 slots per unit, 4 B each); per-stream
  // FIFOs 12 B per unit; the flush policy's own lists (hexa about 24 B per unit, fifo 4 B).
  add("write buffer", U * (16 + (streams > 0 ? 12 : 0) + (p.buffer.policy == "hexa" ? 24 : 4)) + index_slots * 4);
  // Dirty bitmap, per-segment counts, LRU lists, GTD.
  add("map cache bookkeeping", L / 8 + segments * 40);
  if (integrity) add("integrity checker", L * 4);
  if (p.stats.lpn_writes) add("lpn write counts", L * 4);
  if (lifetimes_on) add("lifetime statistics", L * (lifetimes == "all" ? 5.0 : 0.625));
  // PCStream: birth, PC and process per logical unit (12 B), plus its bounded PC-stream table.
  if (p.streams.assign == "pcstream") add("pcstream lifetimes and PC-stream table", L * 12 + double(p.streams.pc_table_bytes) * 1.25);
  if (p.streams.assign == "hotcold" || p.streams.gc == GcStreams::HotCold) add("hot/cold write counts", L * 4);
  // Pooled payloads with their command extension, and the host's per-slot arrays.
  double slots = double(p.host_queues) * double(p.host_queue_depth);
  if (p.jobs_listed)
    for (const JobParams& job : p.jobs) slots += double(job.queues) * double(job.queue_depth);
  add("host queues", slots * 512);
  std::sort(e.parts.begin(), e.parts.end(), [](auto& a, auto& b) { return a.second > b.second; });
  for (auto& part : e.parts) e.total += part.second;
  return e;
}

uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  if (pages > 0 && page > 0) return uint64_t(pages) * uint64_t(page);
  std::ifstream in("/proc/meminfo");
  std::string key, unit;
  uint64_t kb = 0;
  while (in >> key >> kb >> unit)
    if (key == "MemTotal:") return kb * 1024;
  return 0;
}

uint64_t check_memory(const Params& p) {
  const uint64_t set = p.sim.max_memory_bytes;
  const uint64_t limit = set ? set : physical_memory_bytes();
  const MemoryEstimate e = estimate_memory(p);
  if (limit == 0 || e.total <= limit) return e.total;  // limit 0: the machine does not say
  throw ConfigError("key 'sim.max_memory_bytes': the configuration needs about " + e.describe() + ", more than " +
                    (set ? "the limit of " + format_size(double(limit))
                         : "this machine's " + format_size(double(limit)) + " of physical memory (the default limit)") +
                    "; reduce the geometry or buffer.bytes, or raise sim.max_memory_bytes");
}

}  // namespace ssdtlm
