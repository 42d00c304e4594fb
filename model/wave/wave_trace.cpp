#include "wave/wave_trace.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
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

// Decimal digits of v at p, two at a time; returns the end.
char* put_uint(char* p, uint64_t v) {
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char tmp[24];
  char* e = tmp + sizeof tmp;
  while (v >= 100) {
    const unsigned r = unsigned(v % 100);
    v /= 100;
    *--e = pairs[2 * r + 1];
    *--e = pairs[2 * r];
  }
  if (v >= 10) {
    *--e = pairs[2 * v + 1];
    *--e = pairs[2 * v];
  } else {
    *--e = char('0' + v);
  }
  const size_t n = size_t(tmp + sizeof tmp - e);
  std::memcpy(p, e, n);
  return p + n;
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
  const std::string& target = o_.write_path.empty() ? o_.path : o_.write_path;
  std::filesystem::path parent = std::filesystem::path(target).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  if (o_.fst) {
    if (!on_path("vcd2fst"))
      throw std::runtime_error("FST output needs GTKWave's vcd2fst on PATH (Debian package gtkwave)");
    std::signal(SIGPIPE, SIG_IGN);  // a failing vcd2fst is reported by pclose, not by killing the run
    const std::string cmd = "vcd2fst -v - -f " + shell_quote(target) + " >/dev/null";
    file_ = popen(cmd.c_str(), "w");
    pipe_ = true;
  } else {
    file_ = std::fopen(target.c_str(), "wb");
  }
  if (!file_) throw std::runtime_error(o_.path + ": cannot write the waveform");
  buf_.resize(kBufferBytes + 256);
}

WaveTracer::~WaveTracer() {
  if (file_) {
    if (pipe_)
      pclose(file_);
    else
      std::fclose(file_);
  }
  std::error_code ec;
  if (!finished_ && !o_.write_path.empty()) std::filesystem::remove(o_.write_path, ec);  // a failed run's part
}

std::string waveform_temp_path(const std::string& path) { return path + ".partial-" + std::to_string(::getpid()); }

size_t remove_stale_waveform_parts(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string prefix = p.filename().string() + ".partial-";
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  size_t removed = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string pid_text = name.substr(prefix.size());
    if (pid_text.size() > 9 || pid_text.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = pid_t(std::stol(pid_text));
    if (pid <= 0 || pid == ::getpid() || !(::kill(pid, 0) == -1 && errno == ESRCH)) continue;
    std::error_code rec;
    removed += fs::remove(it->path(), rec) ? 1 : 0;
  }
  return removed;
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
  if (g.id.size() + 3 > sizeof g.tail) throw std::logic_error("waveform: too many signals");
  const std::string tail = (width > 1 ? " " : "") + g.id + "\n";
  std::memcpy(g.tail, tail.data(), tail.size());
  g.tail_len = uint8_t(tail.size());
  g.initial = g.written = initial;
  sig_.push_back(std::move(g));
  return uint32_t(sig_.size() - 1);
}

std::string WaveTracer::gtkwave_name(uint32_t s) const {
  const Signal& g = sig_[s];
  std::string n = "ssd." + g.path;
  if (g.width > 1 && g.style != WaveStyle::Real) n += "[" + std::to_string(g.width - 1) + ":0]";
  return n;
}

char* WaveTracer::room(size_t n) {
  if (pos_ + n > buf_.size()) drain();
  return buf_.data() + pos_;
}

void WaveTracer::out(const char* p, size_t n) {
  if (n > kBufferBytes) {  // a large header: straight to the file
    drain();
    if (!file_) return;
    if (std::fwrite(p, 1, n, file_) != n) return fail_write(std::strerror(errno));
    stats_.bytes += n;
    return;
  }
  std::memcpy(room(n), p, n);
  pos_ += n;
  if (pos_ >= kBufferBytes) drain();
}

void WaveTracer::drain() {
  if (!pos_) return;
  if (!file_) {  // a write failed: the text goes nowhere
    pos_ = 0;
    return;
  }
  if (std::fwrite(buf_.data(), 1, pos_, file_) != pos_) return fail_write(pipe_ ? "vcd2fst stopped" : std::strerror(errno));
  stats_.bytes += pos_;
  pos_ = 0;
}

void WaveTracer::fail_write(const std::string& why) {
  pos_ = 0;
  if (!error_.empty()) return;
  if (file_) pipe_ ? pclose(file_) : std::fclose(file_);
  file_ = nullptr;
  std::error_code ec;
  const bool removed = !o_.write_path.empty() && std::filesystem::remove(o_.write_path, ec);
  error_ = o_.path + ": cannot write the waveform (" + why + ")" +
           (removed ? "; the partial file " + o_.write_path + " was removed" : "");
}

void WaveTracer::stamp(uint64_t t) {
  // "#t": the digits above the last eight change rarely and are kept formatted; the last eight are written
  // two at a time.
  static const char pairs[] =
      "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
      "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
      "8081828384858687888990919293949596979899";
  char* const start = room(32);
  char* p = start;
  *p++ = '#';
  const uint64_t high = t / 100000000, low = t % 100000000;
  if (high == 0) {
    p = put_uint(p, t);
  } else {
    if (high != stamp_high_) {
      stamp_high_ = high;
      stamp_high_len_ = uint32_t(put_uint(stamp_high_text_, high) - stamp_high_text_);
    }
    std::memcpy(p, stamp_high_text_, 24);
    p += stamp_high_len_;
    uint32_t v = uint32_t(low);
    for (int k = 6; k >= 0; k -= 2) {
      const uint32_t r = v % 100;
      v /= 100;
      p[k] = pairs[2 * r];
      p[k + 1] = pairs[2 * r + 1];
    }
    p += 8;
  }
  *p++ = '\n';
  pos_ += size_t(p - start);
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
      h += std::string(g.style == WaveStyle::Real ? "$var real " : "$var wire ") + std::to_string(g.width) + " " + g.id +
           " " + g.path.substr(g.path.rfind('.') + 1) + " $end\n";
    }
    for (size_t c : scopes[i].children) emit(c);
    h += "$upscope $end\n";
  };
  emit(0);
  h += "$enddefinitions $end\n";
  out(h.data(), h.size());
}

void WaveTracer::put_value(const Signal& g, uint64_t v) {
  char* const start = room(96);
  char* p = start;
  if (g.style == WaveStyle::Real) {  // the value holds a double's bits
    double x;
    std::memcpy(&x, &v, sizeof x);
    p += std::snprintf(p, 40, "r%.6g", x);
  } else if (g.width == 1) {
    *p++ = v == kWaveZ ? 'z' : (v & 1) ? '1' : '0';
  } else {
    *p++ = 'b';
    if (v == kWaveZ) {
      *p++ = 'z';
    } else {
      if (g.width < 64 && v >> g.width) v = (uint64_t(1) << g.width) - 1;  // a value beyond the declared width
      const int n = v ? 64 - __builtin_clzll(v) : 1;
      for (int b = n - 1; b >= 0; --b) p[n - 1 - b] = char('0' + ((v >> b) & 1));
      p += n;
    }
  }
  std::memcpy(p, g.tail, sizeof g.tail);  // " id\n" (vectors) or "id\n" (scalars)
  pos_ += size_t(p - start) + g.tail_len;
}

void WaveTracer::dumpvars(uint64_t t) {
  dumped_ = true;
  stamp(t);
  out("$dumpvars\n", 10);
  for (auto& g : sig_)
    if (g.partner != ~0u) {  // a pair's stream holds both initial values
      sig_[g.partner].initial = unpack(g.initial >> 32);
      g.initial = unpack(g.initial & 0xFFFFFFFFull);
    }
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

void WaveTracer::pair(uint32_t a, uint32_t b) {
  if (header_done_ || a == b || sig_[a].partner != ~0u || sig_[b].partner != ~0u)
    throw std::logic_error("waveform: cannot pair " + sig_[a].path + " with " + sig_[b].path);
  sig_[a].partner = b;
  sig_[a].initial = pack(sig_[a].initial, sig_[b].initial);  // unpacked again in dumpvars
}

void WaveTracer::change(uint64_t t, uint32_t s, uint64_t v) {
  const uint32_t b = sig_[s].partner;
  if (b == ~0u) return change_one(t, s, v);
  if (!dumped_) {
    if (t == o_.start_ps) {  // the initial values, both in the stream's (unpacked by dumpvars)
      sig_[s].initial = v;
      return;
    }
    dumpvars(o_.start_ps);
  }
  change_one(t, s, unpack(v & 0xFFFFFFFFull));
  change_one(t, b, unpack(v >> 32));
}

void WaveTracer::change_one(uint64_t t, uint32_t s, uint64_t v) {
  Signal& g = sig_[s];
  if (!dumped_) {
    if (t == o_.start_ps) {  // changes at the very start are the initial values
      g.initial = v;
      return;
    }
    dumpvars(o_.start_ps);
  }
  const bool edge = v == g.written;  // a record repeated the value: an operation boundary
  if (edge && (!g.boundary || v == g.idle)) return;
  if (t != stats_.last_ps) {
    stamp(t);
    ++stats_.timestamps;
    stats_.last_ps = t;
  }
  if (edge) {
    put_value(g, g.idle);
    ++stats_.changes;
  }
  put_value(g, v);
  if (g.style == WaveStyle::Enum) {  // busy (non-zero) stretches, for the layout's zoom
    if (g.written != 0) {
      const double d = double(t - g.since);
      stats_.busy_ps += d;
      stats_.busy_ps2 += d * d;
    }
    g.since = t;
  }
  g.written = v;
  ++stats_.changes;
}

void WaveTracer::flush(uint64_t horizon) {
  if (finished_) return;
  if (!header_done_) header();
  // Gather every record before the horizon (each signal's in its own time order), then order them by time
  // with a distribution sort: as many buckets as records over their time span, each bucket sorted by
  // insertion (records spread over time, so buckets hold about one). Per signal, times strictly increase
  // in the queue (a record at a time already queued replaces it), so the order among equal times does not
  // matter.
  merge_.clear();
  uint64_t lo = kWaveForever, hi = 0;
  for (uint32_t s = 0; s < sig_.size(); ++s) {
    Signal& g = sig_[s];
    size_t k = g.head;
    for (; k < g.q.size() && g.q[k].t < horizon; ++k) merge_.push_back({g.q[k].t, g.q[k].v, s});
    if (k == g.head) continue;
    lo = std::min(lo, g.q[g.head].t);
    hi = std::max(hi, g.q[k - 1].t);
    queued_ -= k - g.head;
    if (k == g.q.size()) {
      g.q.clear();
      g.head = 0;
    } else if (k * 2 >= g.q.size()) {
      g.q.erase(g.q.begin(), g.q.begin() + std::ptrdiff_t(k));
      g.head = 0;
    } else {
      g.head = k;
    }
  }
  const size_t n = merge_.size();
  if (n) {
    uint32_t shift = 0;  // bucket width 2^shift ps: at most about n buckets over [lo, hi]
    while (((hi - lo) >> shift) >= n) ++shift;
    const size_t buckets = size_t((hi - lo) >> shift) + 1;
    bucket_.assign(buckets + 1, 0);
    for (const Record& r : merge_) ++bucket_[size_t((r.t - lo) >> shift) + 1];
    for (size_t b = 1; b <= buckets; ++b) bucket_[b] += bucket_[b - 1];
    sorted_.resize(n);
    for (const Record& r : merge_) sorted_[bucket_[size_t((r.t - lo) >> shift)]++] = r;
    for (size_t a = 1; a < n; ++a) {  // insertion sort: only moves records within their bucket
      if (sorted_[a].t >= sorted_[a - 1].t) continue;
      const Record r = sorted_[a];
      size_t b = a;
      for (; b > 0 && sorted_[b - 1].t > r.t; --b) sorted_[b] = sorted_[b - 1];
      sorted_[b] = r;
    }
    for (const Record& r : sorted_) change(r.t, r.s, r.v);  // per signal at most one record per time
  }
  flush_at_ = queued_ + kFlushRecords;
  floor_ = std::max(floor_, horizon);
}

void WaveTracer::finish(uint64_t end_ps) {
  if (finished_) return;
  flush(kWaveForever);
  if (!dumped_) dumpvars(o_.start_ps);
  // The file lasts to the end of the run (or of the window), and at least to its last change.
  const uint64_t end = std::max(stats_.last_ps, std::min(std::max(end_ps, o_.start_ps), o_.end_ps));
  if (end > stats_.last_ps) {
    stamp(end);
    ++stats_.timestamps;
    stats_.last_ps = end;
  }
  drain();
  if (file_) {  // closing flushes the C library's buffer: a full disk may show only now
    errno = 0;
    const int rc = pipe_ ? pclose(file_) : std::fclose(file_);
    const int err = errno;
    file_ = nullptr;
    if (rc != 0) fail_write(pipe_ ? "vcd2fst failed, exit status " + std::to_string(rc) : std::strerror(err));
  }
  finished_ = true;  // the file stays (renamed into place by the caller), unless a write failed
  if (!error_.empty()) throw std::runtime_error(error_);
}

}  // namespace ssdtlm
