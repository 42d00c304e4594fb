#include "sim/wave_trace.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <functional>
#include <stdexcept>

namespace ssdtlm {

namespace {

// A program on PATH (popen through a shell would report a missing one only as a broken pipe).
bool on_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::filesystem::path p = std::filesystem::path(dirs.substr(start, end - start)) / program;
    std::error_code ec;
    if (std::filesystem::is_regular_file(p, ec)) return true;
    start = end + 1;
  }
  return false;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// VCD identifier codes: base 94 over the printable characters '!'..'~'.
std::string vcd_id(size_t n) {
  std::string id;
  do {
    id += char('!' + n % 94);
    n /= 94;
  } while (n);
  return id;
}

char* put_uint(char* p, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  while (n) *p++ = tmp[--n];
  return p;
}

}  // namespace

bool wave_fst_available() { return on_path("vcd2fst"); }

uint32_t wave_rows(const WaveGroup& g, bool open) {
  if (!open) return 1;
  uint32_t n = 1;
  for (auto& r : g.rows) n += r.height;
  for (auto& s : g.groups) n += wave_rows(s, !s.closed && !s.fold);
  return n + 1;  // the group's end marker
}

WaveTracer::WaveTracer(WaveOptions o, Clock clock) : o_(std::move(o)), clock_(clock) {
  if (o_.start_ps > o_.end_ps) throw std::runtime_error("waveform window: the start lies after the end");
  std::filesystem::path parent = std::filesystem::path(o_.path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  if (o_.fst) {
    if (!on_path("vcd2fst"))
      throw std::runtime_error("FST output needs GTKWave's vcd2fst on PATH (Debian package gtkwave)");
    std::signal(SIGPIPE, SIG_IGN);  // a failing vcd2fst is reported by pclose, not by killing the run
    const std::string cmd = "vcd2fst -v - -f " + shell_quote(o_.path) + " >/dev/null";
    file_ = popen(cmd.c_str(), "w");
    pipe_ = true;
  } else {
    file_ = std::fopen(o_.path.c_str(), "wb");
  }
  if (!file_) throw std::runtime_error(o_.path + ": cannot write the waveform");
  buf_.reserve(1 << 20);
}

WaveTracer::~WaveTracer() {
  if (file_) {
    if (pipe_)
      pclose(file_);
    else
      std::fclose(file_);
  }
}

int WaveTracer::add_enum(WaveEnum e) {
  for (size_t i = 0; i < enums_.size(); ++i)
    if (enums_[i].name == e.name) return int(i);
  if (header_done_) throw std::logic_error("waveform: value table added after the first record was written");
  enums_.push_back(std::move(e));
  return int(enums_.size()) - 1;
}

uint32_t WaveTracer::add(const std::string& path, uint32_t width, WaveStyle style, uint64_t initial, int table,
                         const std::string& help) {
  if (sig_.size() >> kSignalBits) throw std::logic_error("waveform: too many signals");
  if (header_done_) throw std::logic_error("waveform: signal " + path + " added after the first record was written");
  if (width == 0 || width > 64) throw std::logic_error("waveform: signal " + path + " has a width outside 1..64");
  for (auto& g : sig_)
    if (g.path == path) throw std::logic_error("waveform: signal " + path + " declared twice");
  Signal g;
  g.path = path;
  g.width = width;
  g.style = style;
  g.table = table;
  g.help = help;
  g.id = vcd_id(sig_.size());
  g.initial = g.written = initial;
  sig_.push_back(std::move(g));
  return uint32_t(sig_.size() - 1);
}

std::string WaveTracer::gtkwave_name(uint32_t s) const {
  const Signal& g = sig_[s];
  std::string n = "ssd." + g.path;
  if (g.width > 1) n += "[" + std::to_string(g.width - 1) + ":0]";
  return n;
}

void WaveTracer::out(const char* p, size_t n) {
  buf_.append(p, n);
  if (buf_.size() >= (1 << 20)) drain();
}

void WaveTracer::drain() {
  if (buf_.empty()) return;
  if (std::fwrite(buf_.data(), 1, buf_.size(), file_) != buf_.size())
    throw std::runtime_error(o_.path + ": cannot write the waveform" + (pipe_ ? " (vcd2fst stopped)" : ""));
  stats_.bytes += buf_.size();
  buf_.clear();
}

void WaveTracer::header() {
  header_done_ = true;
  std::string h;
  char date[64] = "";
  std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S", std::localtime(&now));
  h += "$date ";
  h += date;
  h += " $end\n$version " + (o_.version.empty() ? std::string("ssdtlm") : o_.version) + " $end\n";
  if (!o_.comment.empty()) h += "$comment " + o_.comment + " $end\n";
  h += "$timescale 1ps $end\n";
  // One scope tree (first-seen order), so a scope whose signals were registered apart is declared once.
  struct Scope {
    std::string name;
    std::vector<size_t> children;  // indices into scopes
    std::vector<uint32_t> vars;
  };
  std::vector<Scope> scopes(1);
  scopes[0].name = "ssd";
  for (uint32_t s = 0; s < sig_.size(); ++s) {
    size_t at = 0, start = 0;
    const std::string& p = sig_[s].path;
    for (size_t dot; (dot = p.find('.', start)) != std::string::npos; start = dot + 1) {
      const std::string part = p.substr(start, dot - start);
      size_t found = 0;
      for (size_t c : scopes[at].children)
        if (scopes[c].name == part) found = c;
      if (!found) {
        scopes.push_back({part, {}, {}});
        found = scopes.size() - 1;
        scopes[at].children.push_back(found);
      }
      at = found;
    }
    scopes[at].vars.push_back(s);
  }
  std::function<void(size_t)> emit = [&](size_t i) {
    h += "$scope module " + scopes[i].name + " $end\n";
    for (uint32_t s : scopes[i].vars) {
      const Signal& g = sig_[s];
      h += "$var wire " + std::to_string(g.width) + " " + g.id + " " + g.path.substr(g.path.rfind('.') + 1) + " $end\n";
    }
    for (size_t c : scopes[i].children) emit(c);
    h += "$upscope $end\n";
  };
  emit(0);
  h += "$enddefinitions $end\n";
  out(h.data(), h.size());
}

void WaveTracer::put_value(const Signal& g, uint64_t v) {
  char line[96];
  char* p = line;
  if (g.width == 1) {
    *p++ = v == kWaveZ ? 'z' : (v & 1) ? '1' : '0';
  } else {
    *p++ = 'b';
    if (v == kWaveZ) {
      *p++ = 'z';
    } else {
      if (g.width < 64 && v >> g.width) v = (uint64_t(1) << g.width) - 1;  // a value beyond the declared width
      int top = v ? 63 - __builtin_clzll(v) : 0;
      for (int b = top; b >= 0; --b) *p++ = char('0' + ((v >> b) & 1));
    }
    *p++ = ' ';
  }
  for (char c : g.id) *p++ = c;
  *p++ = '\n';
  out(line, size_t(p - line));
}

void WaveTracer::dumpvars(uint64_t t) {
  dumped_ = true;
  char stamp[32];
  stamp[0] = '#';
  char* e = put_uint(stamp + 1, t);
  *e++ = '\n';
  out(stamp, size_t(e - stamp));
  out("$dumpvars\n", 10);
  for (auto& g : sig_) {
    put_value(g, g.initial);
    g.written = g.initial;
    if (g.style == WaveStyle::Enum && g.initial != 0) g.since = t;
  }
  out("$end\n", 5);
  stats_.changes += sig_.size();
  ++stats_.timestamps;
  stats_.first_ps = stats_.last_ps = t;
}

void WaveTracer::commit(uint64_t t) {
  if (!dumped_) {
    if (t == o_.start_ps) {  // changes at the very start are the initial values
      for (uint32_t s : touched_) {
        sig_[s].initial = sig_[s].pending;
        sig_[s].touched = false;
      }
      touched_.clear();
      dumpvars(t);
      return;
    }
    dumpvars(o_.start_ps);
  }
  bool stamped = false;
  for (uint32_t s : touched_) {
    Signal& g = sig_[s];
    g.touched = false;
    const bool edge = g.pending == g.written;  // a record repeated the value: an operation boundary
    if (edge && (!g.boundary || g.pending == g.idle)) continue;
    if (!stamped) {
      char stamp[32];
      stamp[0] = '#';
      char* e = put_uint(stamp + 1, t);
      *e++ = '\n';
      out(stamp, size_t(e - stamp));
      stamped = true;
    }
    if (edge) {
      put_value(g, g.idle);
      ++stats_.changes;
    }
    put_value(g, g.pending);
    if (g.style == WaveStyle::Enum) {  // busy (non-zero) stretches, for the layout's zoom
      if (g.written != 0) {
        stats_.busy_ps += t - g.since;
        ++stats_.busy_intervals;
      }
      g.since = t;
    }
    g.written = g.pending;
    ++stats_.changes;
  }
  touched_.clear();
  if (stamped) {
    ++stats_.timestamps;
    stats_.last_ps = t;
  }
}

void WaveTracer::flush(uint64_t horizon) {
  if (finished_) return;
  if (!header_done_) header();
  // Merge the queues through a min-heap of packed keys (time since the earliest record << kSignalBits |
  // signal); a span too long to pack (over 2^42 ps, 4.4 s, per flush) is merged in slices that fit.
  constexpr uint64_t kSpan = uint64_t(1) << (64 - kSignalBits);
  uint64_t cur = kWaveForever;
  while (true) {
    uint64_t base = kWaveForever;
    for (const Signal& g : sig_)
      if (g.head < g.q.size() && g.q[g.head].t < horizon) base = std::min(base, g.q[g.head].t);
    if (base == kWaveForever) break;
    const uint64_t limit = horizon - base > kSpan ? base + kSpan : horizon;
    heap_.clear();
    for (uint32_t s = 0; s < sig_.size(); ++s) {
      const Signal& g = sig_[s];
      if (g.head < g.q.size() && g.q[g.head].t < limit)
        heap_.push_back((g.q[g.head].t - base) << kSignalBits | s);
    }
    std::make_heap(heap_.begin(), heap_.end(), std::greater<uint64_t>());
    uint64_t* h = heap_.data();
    size_t n = heap_.size();
    auto sift_down = [&](uint64_t key) {  // puts key at the root's place and restores the min-heap
      size_t i = 0;
      while (true) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && h[c + 1] < h[c]) ++c;
        if (h[c] >= key) break;
        h[i] = h[c];
        i = c;
      }
      h[i] = key;
    };
    while (n) {
      const uint64_t key = h[0];
      const uint32_t s = uint32_t(key & ((uint64_t(1) << kSignalBits) - 1));
      const uint64_t t = base + (key >> kSignalBits);
      if (t != cur) {
        if (cur != kWaveForever) commit(cur);
        cur = t;
      }
      Signal& g = sig_[s];
      uint64_t v;
      do {  // the last record of this signal at time t wins
        v = g.q[g.head].v;
        ++g.head;
        --queued_;
      } while (g.head < g.q.size() && g.q[g.head].t == t);
      g.pending = v;
      if (!g.touched) {
        g.touched = true;
        touched_.push_back(s);
      }
      if (g.head < g.q.size() && g.q[g.head].t < limit) {
        sift_down((g.q[g.head].t - base) << kSignalBits | s);
      } else {
        --n;
        if (n) sift_down(h[n]);
      }
    }
  }
  if (cur != kWaveForever) commit(cur);  // nothing later than the horizon can still land at cur
  for (auto& g : sig_) {
    if (g.head == g.q.size()) {
      g.q.clear();
      g.head = 0;
    } else if (g.head && g.head * 2 >= g.q.size()) {
      g.q.erase(g.q.begin(), g.q.begin() + std::ptrdiff_t(g.head));
      g.head = 0;
    }
  }
  flush_at_ = queued_ + kFlushRecords;
}

void WaveTracer::finish(uint64_t end_ps) {
  if (finished_) return;
  flush(kWaveForever);
  if (!dumped_) dumpvars(o_.start_ps);
  // The file lasts to the end of the run (or of the window), and at least to its last change.
  const uint64_t end = std::max(stats_.last_ps, std::min(std::max(end_ps, o_.start_ps), o_.end_ps));
  if (end > stats_.last_ps) {
    char stamp[32];
    stamp[0] = '#';
    char* e = put_uint(stamp + 1, end);
    *e++ = '\n';
    out(stamp, size_t(e - stamp));
    ++stats_.timestamps;
    stats_.last_ps = end;
  }
  finished_ = true;
  drain();
  int rc = pipe_ ? pclose(file_) : std::fclose(file_);
  file_ = nullptr;
  if (rc != 0)
    throw std::runtime_error(o_.path + (pipe_ ? ": vcd2fst failed (exit status " + std::to_string(rc) + ")"
                                              : ": cannot write the waveform"));
}

}  // namespace ssdtlm
