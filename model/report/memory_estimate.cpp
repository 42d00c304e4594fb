#include "report/memory_estimate.h"

#include "controller/buffer/flush_policy.h"

#include <sys/resource.h>
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
  for (const MemoryPart& part : parts) {
    if (part.bytes < (1u << 20)) continue;  // the small ones would only lengthen the message
    s += (first ? "" : ", ") + part.what + " " + format_size(double(part.bytes));
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

  MemoryEstimate e;
  auto add = [&](const std::string& what, const std::string& key, double bytes) {
    e.parts.push_back({what, key, uint64_t(bytes)});
  };
  // Die: lpn_ 4 B + kind_ 1 B per unit (+ versions_ 4 B with the checker); write pointer and erase count per block.
  add("dies' per-unit arrays", "geometry.*", P * (integrity ? 9 : 5) + B * 6);
  // PageFtl: l2p 4 B per logical unit, valid bitmap 1 bit per physical unit; blocks: state 12 B, free ring 4 B,
  // greedy buckets about 8 B.
  add("page map", "geometry.*", L * 4 + P / 8);
  add("block metadata", "geometry.*", B * 24);
  // Slot 12 B + free stack 4 B + open-addressing index (a power of two >= 2 slots per unit, 8 B each: LPN and
  // slot); per-stream FIFOs 12 B per unit; the flush policy's own lists (FlushPolicyEntry::bytes_per_unit).
  const uint32_t policy_bytes = find_flush_policy(p.buffer.policy, keys::kBufferPolicy).bytes_per_unit;
  add("write buffer", "buffer.bytes", U * (16 + (streams > 0 ? 12 : 0) + policy_bytes) + index_slots * 8);
  // Dirty bitmap, per-segment counts, LRU lists, GTD.
  add("map cache bookkeeping", "geometry.*", L / 8 + segments * 40);
  if (integrity) add("integrity checker", "check.integrity", L * 4);
  if (p.stats.lpn_writes) add("lpn write counts", "stats.lpn_writes", L * 4);
  // Stream separation: the lifetimes, the assignment policy's own, the write counts (Streams states them).
  for (MemoryPart& part : Streams::memory_estimate(p.streams, g.logical_units)) e.parts.push_back(std::move(part));
  // Pooled payloads with their command extension, and the host's per-slot arrays.
  double slots = double(p.host_queues) * double(p.host_queue_depth);
  if (p.jobs_listed)
    for (const JobParams& job : p.jobs) slots += double(job.queues) * double(job.queue_depth);
  add("host queues", "host.queue_depth", slots * 512);
  std::sort(e.parts.begin(), e.parts.end(), [](auto& a, auto& b) { return a.bytes > b.bytes; });
  for (auto& part : e.parts) e.total += part.bytes;
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

uint64_t address_space_limit_bytes() {
  struct rlimit r {};
  if (getrlimit(RLIMIT_AS, &r) != 0 || r.rlim_cur == RLIM_INFINITY) return 0;
  return uint64_t(r.rlim_cur);
}

uint64_t address_space_used_bytes() {
  std::ifstream in("/proc/self/statm");
  uint64_t pages = 0;
  const long page = sysconf(_SC_PAGE_SIZE);
  if (!(in >> pages) || page <= 0) return 0;
  return pages * uint64_t(page);
}

uint64_t check_memory(const Params& p, uint64_t address_limit, uint64_t address_used) {
  const uint64_t set = p.sim.max_memory_bytes;
  const uint64_t limit = set ? set : physical_memory_bytes();
  const MemoryEstimate e = estimate_memory(p);
  if (limit != 0 && e.total > limit)  // limit 0: the machine does not say
    throw ConfigError("key 'sim.max_memory_bytes': the configuration needs about " + e.describe() + ", more than " +
                      (set ? "the limit of " + format_size(double(limit))
                           : "this machine's " + format_size(double(limit)) + " of physical memory (the default limit)") +
                      "; reduce the geometry or buffer.bytes, or raise sim.max_memory_bytes");
  // Under ulimit -v, what the process has mapped already (the program, its libraries, SystemC) comes off the
  // limit, and allocations need room to spare (thread stacks, the kernel's stacks, allocator slack): an eighth.
  const uint64_t as = address_limit ? address_limit : address_space_limit_bytes();
  if (as == 0) return e.total;
  const uint64_t used = address_limit ? address_used : address_space_used_bytes();
  const uint64_t need = e.total + e.total / 8;
  if (used + need <= as) return e.total;
  const std::string key = e.parts.empty() ? "sim.max_memory_bytes" : e.parts.front().key;
  throw ConfigError("key '" + key + "': the configuration needs about " + e.describe() + "; with an eighth to "
                    "spare, more than the " + format_size(double(as > used ? as - used : 0)) + " of address space this "
                    "process has left under its limit (ulimit -v " + format_size(double(as)) + ", " +
                    format_size(double(used)) + " in use before the model); reduce " + key +
                    (key == "geometry.*" ? " (the drive's size)" : "") + " or raise ulimit -v");
}

}  // namespace ssdtlm
