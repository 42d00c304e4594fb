// Device read-ahead (cache.read_ahead=sequential): the controller detects a sequential read stream and fetches the
// units ahead of it from flash into its DRAM, so that the stream's next reads are served from DRAM without a flash
// read. Plain C++ (no SystemC): the stream detector, the window of units fetched ahead, the table of units held in
// DRAM with its budget, and the counters. The FTL's host path (ftl_read_ahead.cpp) issues the flash reads it asks
// for and serves the hits. The rules are SimpleSSD's internal cache layer's (README.md).
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <deque>
#include <unordered_map>

namespace ssdtlm {

struct ReadAheadParams {
  bool sequential = false;  // cache.read_ahead: none | sequential
  uint32_t trigger = 1;     // cache.read_ahead_trigger: contiguous reads before a stream is detected
  uint32_t pages = 0;       // cache.read_ahead_pages: pages fetched ahead at a time; 0 = one page of every die
  uint64_t bytes = 0;       // cache.read_ahead_bytes: the DRAM the units fetched ahead may take
};

class ReadAhead {
 public:
  // span_units: units fetched ahead at a time; budget_units: units held at most (>= span_units, checked by the
  // configuration: check_read_ahead).
  ReadAhead(uint32_t trigger, uint32_t span_units, uint64_t budget_units);

  // A host read of [lpn, lpn + units) on a drive of logical_units. The detector's step, then the window's: returns
  // the range to fetch ahead now in [*first, *end) (empty: first == end).
  void on_read(uint32_t lpn, uint32_t units, uint64_t logical_units, uint32_t* first, uint32_t* end);
  bool stream() const { return stream_; }  // a sequential stream is detected

  // A unit held: in flight (its flash read not landed: `op` names it) or landed at ready_ps with the out-of-band LPN
  // and version its flash read found.
  struct Held {
    const void* op = nullptr;  // the in-flight flash read; null once landed
    uint64_t ready_ps = 0;
    uint32_t found_lpn = 0, version = 0;
    uint64_t seq = 0;  // order of arrival (the budget drops the oldest)
  };
  bool holds(uint32_t lpn) const { return held_.count(lpn) != 0; }
  // Takes lpn's copy for a host read (a hit: counted, the copy consumed); false if none is held.
  bool take(uint32_t lpn, Held* out);
  // A unit whose flash read `op` is issued now; over the budget the oldest held unit is dropped (wasted).
  void add(uint32_t lpn, const void* op);
  // The flash read `op` landed for lpn at done_ps; ok false: its data could not be delivered (uncorrectable), the
  // unit is dropped. A unit dropped or replaced meanwhile is left alone.
  void landed(uint32_t lpn, const void* op, uint64_t done_ps, uint32_t found_lpn, uint32_t version, bool ok);
  // The host wrote or trimmed lpn: a copy held is stale and dropped.
  void invalidate(uint32_t lpn) {
    if (!held_.empty()) drop(lpn);
  }
  void clear();  // a power loss: the DRAM's copies are gone (counted wasted)

  size_t held() const { return held_.size(); }
  uint64_t budget_units() const { return budget_units_; }
  uint32_t span_units() const { return span_units_; }
  struct Counters {
    uint64_t prefetched_pages = 0;  // flash reads issued to fetch ahead
    uint64_t prefetched_units = 0;  // units they fetched
    uint64_t hits = 0;              // units of host reads served from what was fetched ahead
    uint64_t wasted = 0;            // units fetched and dropped unread (budget, write, trim, power loss)
  };
  const Counters& counters() const { return n_; }
  void page_issued() { ++n_.prefetched_pages; }
  void reset_counters() { n_ = Counters(); }
  // "read_ahead": the counters, with the units still held at the end counted wasted too.
  void report(nlohmann::json& r) const;

 private:
  void drop(uint32_t lpn);

  const uint32_t trigger_, span_units_;
  const uint64_t budget_units_;
  // The detector (SimpleSSD ICL checkSequential): where the last read ended, contiguous reads so far.
  uint64_t last_end_ = ~uint64_t(0);
  uint32_t run_ = 0;
  bool stream_ = false;
  // The window: [window_begin_, frontier_) fetched or read; crossing refill_at_ fetches the next span.
  uint64_t window_begin_ = 0, frontier_ = 0, refill_at_ = 0;
  std::unordered_map<uint32_t, Held> held_;
  std::deque<std::pair<uint32_t, uint64_t>> order_;  // (lpn, seq) oldest first; entries whose seq changed are stale
  uint64_t next_seq_ = 0;
  Counters n_;
};

}  // namespace ssdtlm
