// Waveform tracer: value changes recorded at their true times, written as a VCD (or FST through GTKWave's
// vcd2fst), with a GTKWave layout (wave_layout.h).
//
// Components record changes as they schedule them: a channel controller knows when a transfer or an array
// operation starts and ends the moment it schedules it, so it records both ends at once and nothing has to
// wake at the end. Changes therefore arrive out of time order across signals (an array operation's end lies
// milliseconds ahead of the next host completion), but in time order per signal, and never before the
// present. Each signal keeps its own queue; flush() merges the queues in time order up to the present (any
// later record is at or after it) and writes those changes. Per time stamp the last value recorded for a
// signal wins and only real changes are written, so back-to-back intervals leave no glitch.
//
// A window [start, end] limits what is written: changes before it only set the value shown at its start
// (no memory, no output), changes after it are dropped on arrival.
//
// Plain C++: the present comes from a clock function (the SystemC time in a simulation).
#pragma once
#include <cstdint>
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "wave/wave_layout.h"

namespace ssdtlm {

constexpr uint64_t kWaveZ = ~uint64_t(0);         // high impedance: nothing drives the signal (an idle bus's owner)
constexpr uint64_t kWaveForever = ~uint64_t(0);  // open end of a window

struct WaveOptions {
  std::string path;            // the waveform file
  std::string write_path;      // the file actually written, when not `path` (a temporary renamed at success);
                               // removed if the tracer is destroyed before finish()
  bool fst = false;            // FST: the VCD text is piped through vcd2fst (GTKWave) into `path`
  uint64_t start_ps = 0;       // window: only [start_ps, end_ps] is written
  uint64_t end_ps = kWaveForever;
  std::string version;         // for the file's $version
  std::string comment;         // for the file's $comment (configuration, geometry)
};

// What the tracer wrote, for the summary.
struct WaveStats {
  uint64_t changes = 0;       // value changes written (the initial values at the window start included)
  uint64_t timestamps = 0;    // distinct times written
  uint64_t bytes = 0;         // VCD text produced (the FST file is smaller)
  uint64_t first_ps = 0, last_ps = 0;  // time span of the file
  uint64_t out_of_order = 0;  // records earlier than a previous record of the same signal (a bug if not 0)
  double busy_ps = 0, busy_ps2 = 0;  // written non-zero stretches of Enum signals: sum of lengths and of squares
};

class WaveTracer {
 public:
  using Clock = uint64_t (*)();

  // Opens the output (and starts vcd2fst for FST); throws std::runtime_error when it cannot.
  WaveTracer(WaveOptions o, Clock clock);
  ~WaveTracer();
  WaveTracer(const WaveTracer&) = delete;
  WaveTracer& operator=(const WaveTracer&) = delete;

  // Declarations, all before the first record. `path` is dotted ("ch3.die5.state") below the top scope
  // "ssd"; `initial` is the value from time 0 (or the window start) until the first record.
  // A value table for Enum signals, drawn with names through a translate filter; a table of the same name
  // is added once (its index is returned again).
  int add_enum(WaveEnum e);
  uint32_t add(const std::string& path, uint32_t width, WaveStyle style, uint64_t initial, int table = -1,
               const std::string& help = "");

  // Marks where one operation ends and an identical one starts at the same time: a record that repeats the
  // signal's current value is written as `idle` and the value again at that time (a zero-width idle that
  // GTKWave draws as an edge), so back-to-back operations stay apart. For states, bus owners and the like.
  void set_boundary(uint32_t s, uint64_t idle) {
    sig_[s].boundary = true;
    sig_[s].idle = idle;
  }

  // Value v from time t on. Per signal, t never decreases, and it is never before the clock's present.
  void set(uint32_t s, uint64_t t, uint64_t v) {
    Signal& g = sig_[s];
    if (t < g.last_t || t < floor_) {  // before the signal's last record, or before what is written already
      ++stats_.out_of_order;
      t = std::max(g.last_t, floor_);
    }
    g.last_t = t;
    if (t > o_.end_ps) return;
    if (t < o_.start_ps) {  // before the window: only the value at its start matters
      g.initial = v;  // (a pair's stream: both values, packed)
      return;
    }
    if (g.head < g.q.size() && g.q.back().t == t) {  // a later value at the same time replaces the earlier
      g.q.back().v = v;
      return;
    }
    g.q.push_back({t, v});
    if (++queued_ >= flush_at_) flush(clock_());
  }
  // Value v during [from, to), then `after`.
  void interval(uint32_t s, uint64_t from, uint64_t to, uint64_t v, uint64_t after) {
    set(s, from, v);
    set(s, to, after);
  }

  // Takes back a signal's records at or after t (an operation cut short by a suspension). t is never before
  // the present, so none of them is written yet.
  void retract(uint32_t s, uint64_t t) {
    Signal& g = sig_[s];
    while (g.q.size() > g.head && g.q.back().t >= t) {
      g.q.pop_back();
      --queued_;
    }
    g.last_t = std::max(floor_, std::min(g.last_t, t));
  }

  // Two signals that always change together (a bus's owner and direction) recorded as one stream: half the
  // records. After pair(a, b), a's records carry both values (set_pair); b is never set on its own. Values
  // are below 2^32 - 1, or kWaveZ.
  void pair(uint32_t a, uint32_t b);
  void set_pair(uint32_t a, uint64_t t, uint64_t va, uint64_t vb) { set(a, t, pack(va, vb)); }
  void interval_pair(uint32_t a, uint64_t from, uint64_t to, uint64_t va, uint64_t vb, uint64_t after_a,
                     uint64_t after_b) {
    set(a, from, pack(va, vb));
    set(a, to, pack(after_a, after_b));
  }

  // Writes every change before `horizon` (no later record may be earlier than it).
  void flush(uint64_t horizon);
  // Writes the rest and closes the file (waits for vcd2fst); throws std::runtime_error when that fails, or
  // when a write failed before (error()). The file lasts until `end_ps` (the end of the run) clipped to the
  // window, or until its last change if later.
  void finish(uint64_t end_ps);
  // A write failed (a full disk): the file was closed and the partial file (write_path) removed at once; later
  // changes are dropped. error() says which file, why, and that the partial file is gone.
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  // The GTKWave save file for this waveform and its translate filter files (FILE.gtkw, FILE.<table>.flt).
  // Zoomed to `span_ps` (0: a span chosen from the file) starting at `start_ps` (kWaveForever: centred).
  // Returns the paths written.
  std::vector<std::string> write_layout(uint64_t span_ps = 0, uint64_t start_ps = kWaveForever) const;

  WaveLayout& layout() { return layout_; }
  const WaveStats& stats() const { return stats_; }
  const WaveOptions& options() const { return o_; }
  const std::string& name(uint32_t s) const { return sig_[s].path; }
  uint32_t width(uint32_t s) const { return sig_[s].width; }
  size_t signals() const { return sig_.size(); }
  const std::vector<WaveEnum>& enums() const { return enums_; }
  // The name GTKWave gives a signal in a save file ("ssd.ch3.die5.state[3:0]").
  std::string gtkwave_name(uint32_t s) const;

  static constexpr size_t kFlushRecords = 1 << 16;  // queued records that trigger a flush

 private:
  struct Change {
    uint64_t t, v;
  };
  struct Signal {
    std::string path;
    uint32_t width = 1;
    WaveStyle style = WaveStyle::Counter;
    int table = -1;
    std::string help;
    std::string id;           // VCD identifier code
    char tail[8] = {};        // what follows a value: " id\n" (vectors) or "id\n" (scalars)
    uint8_t tail_len = 0;
    std::vector<Change> q;    // recorded, not yet written, in time order
    size_t head = 0;          // first unwritten entry of q
    uint64_t last_t = 0;      // latest record
    uint64_t initial = 0;     // value at the start of the file
    uint64_t written = 0;     // value last written
    uint64_t since = 0;       // Enum: start of the written non-zero value
    bool boundary = false;    // see set_boundary
    uint32_t partner = ~0u;   // pair(): the second signal this one's records carry (~0u: none)
    uint64_t idle = 0;
  };

  void header();
  void change(uint64_t t, uint32_t s, uint64_t v);  // writes one record, in time order
  void change_one(uint64_t t, uint32_t s, uint64_t v);
  static uint64_t pack(uint64_t a, uint64_t b) { return (b == kWaveZ ? 0xFFFFFFFFull : b) << 32 | (a == kWaveZ ? 0xFFFFFFFFull : a); }
  static uint64_t unpack(uint64_t v) { return v == 0xFFFFFFFFull ? kWaveZ : v; }  // one 32-bit half
  void dumpvars(uint64_t t);
  void put_value(const Signal& g, uint64_t v);
  char* room(size_t n);  // where the next n bytes of text go
  void out(const char* p, size_t n);
  void stamp(uint64_t t);  // "#t"
  void drain();  // hands the text buffer to the file
  void fail_write(const std::string& why);  // see failed()
  // write_layout's parts (wave_layout.cpp).
  std::vector<std::string> write_filters(const std::string& dump) const;  // the translate filter files written
  std::string layout_header(uint64_t span_ps, uint64_t start_ps, const std::string& dump) const;
  void layout_row(std::string& s, const WaveRow& r, const std::vector<std::string>& filters) const;
  void layout_group(std::string& s, const WaveGroup& g, bool open, const std::vector<std::string>& filters) const;

  WaveOptions o_;
  Clock clock_;
  std::FILE* file_ = nullptr;
  bool pipe_ = false;
  std::vector<Signal> sig_;
  std::vector<WaveEnum> enums_;
  WaveLayout layout_;
  struct Record {
    uint64_t t, v;
    uint32_t s;
  };
  std::vector<Record> merge_, sorted_;  // flush: the records before the horizon, gathered and by time
  std::vector<size_t> bucket_;
  size_t queued_ = 0;
  size_t flush_at_ = kFlushRecords;
  uint64_t stamp_high_ = ~uint64_t(0);  // stamp(): the digits of t / 10^8 last written
  char stamp_high_text_[24] = {};
  uint32_t stamp_high_len_ = 0;
  uint64_t floor_ = 0;  // the last flush's horizon: every later record is at or after it
  bool header_done_ = false, dumped_ = false, finished_ = false;
  std::vector<char> buf_;  // text not yet in the file: buf_[0, pos_)
  size_t pos_ = 0;
  static constexpr size_t kBufferBytes = 1 << 20;
  WaveStats stats_;
  std::string error_;  // see failed()
};

// Whether FST can be written: GTKWave's vcd2fst is on PATH.
bool wave_fst_available();

// Where a run writes its waveform until it succeeds: "PATH.partial-<pid>" (renamed to PATH at the end).
std::string waveform_temp_path(const std::string& path);
// Removes the partial files of PATH that runs now gone left (SIGKILL, a crash): "PATH.partial-<pid>" whose
// process does not exist. Returns how many.
size_t remove_stale_waveform_parts(const std::string& path);

// Bits needed for values up to max (at least 1).
inline uint32_t wave_bits(uint64_t max) {
  uint32_t b = 1;
  while (b < 64 && (max >> b)) ++b;
  return b;
}

}  // namespace ssdtlm
