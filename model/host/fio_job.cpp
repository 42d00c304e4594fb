#include "host/fio_job.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "config/config.h"
#include "common/units.h"
#include "host/address_distribution.h"
#include "host/size_mix.h"

namespace ssdtlm {
namespace {

namespace fs = std::filesystem;

struct Line {
  std::string file;
  int line = 0;
  std::string key, value;
  bool has_value = false;
};

[[noreturn]] void fail_at(const std::string& file, int line, const std::string& what) {
  throw ConfigError(file + ":" + std::to_string(line) + ": " + what);
}
[[noreturn]] void fail(const Line& l, const std::string& what) {
  fail_at(l.file, l.line, "option '" + l.key + (l.has_value ? "=" + l.value : "") + "': " + what);
}
[[noreturn]] void not_modelled(const Line& l, const std::string& what) {
  fail(l, "not modelled by ssdtlm: " + what);
}

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string lower(std::string s) {
  for (auto& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t p = s.find(sep, start);
    out.push_back(s.substr(start, p == std::string::npos ? std::string::npos : p - start));
    if (p == std::string::npos) return out;
    start = p + 1;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Reading: sections, options, comments, include, ${VAR}

struct Section {
  std::string name, file;
  int line = 0;
  bool global = false;
  std::vector<Line> options;
};

std::string expand_env(const std::string& value, const std::string& file, int line) {
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '$' && i + 1 < value.size() && value[i + 1] == '{') {
      const size_t end = value.find('}', i + 2);
      if (end == std::string::npos) fail_at(file, line, "unterminated ${...} in '" + value + "'");
      const std::string var = value.substr(i + 2, end - i - 2);
      if (const char* v = std::getenv(var.c_str())) out += v;
      i = end;
      continue;
    }
    if (value[i] == '$') {
      for (const char* kw : {"$pagesize", "$mb_memory", "$ncpus"})
        if (value.compare(i, std::strlen(kw), kw) == 0)
          fail_at(file, line, std::string(kw) + " describes the machine fio runs on, not the modelled device: write a number");
    }
    out += value[i];
  }
  return out;
}

class Reader {
 public:
  std::vector<Section> sections;

  void read_text(const std::string& text, const std::string& path, bool nested, int depth) {
    if (depth > 16) fail_at(path, 0, "include nested more than 16 deep (a cycle?)");
    std::istringstream in(text);
    std::string raw;
    int lineno = 0;
    while (std::getline(in, raw)) {
      ++lineno;
      if (!raw.empty() && raw.back() == '\r') raw.pop_back();
      std::string t = trim(raw);
      if (t.empty() || t[0] == ';' || t[0] == '#') continue;
      const size_t comment = t.find_first_of(";#");  // fio cuts a line at ';' or '#'
      if (comment != std::string::npos) t = trim(t.substr(0, comment));
      if (t.empty()) continue;
      if (t[0] == '[') {
        if (nested) fail_at(path, lineno, "an included file cannot start a section ('" + t + "')");
        if (t.back() != ']' || t.size() < 3) fail_at(path, lineno, "expected a section header '[name]', got '" + t + "'");
        Section s;
        s.name = t.substr(1, t.size() - 2);
        s.file = path;
        s.line = lineno;
        s.global = s.name.compare(0, 6, "global") == 0;
        sections.push_back(std::move(s));
        continue;
      }
      if (t.compare(0, 8, "include ") == 0 || t.compare(0, 8, "include\t") == 0) {
        if (sections.empty()) fail_at(path, lineno, "'include' outside of a [section]");
        std::string name = trim(t.substr(8));
        fs::path p(name);
        if (!fs::exists(p)) p = fs::path(path).parent_path() / name;
        std::ifstream f(p);
        if (!f) fail_at(path, lineno, "include: cannot open '" + name + "'");
        std::ostringstream ss;
        ss << f.rdbuf();
        read_text(ss.str(), p.string(), true, depth + 1);
        continue;
      }
      if (sections.empty()) fail_at(path, lineno, "option '" + t + "' outside of a [section]");
      Line l;
      l.file = path;
      l.line = lineno;
      const size_t eq = t.find('=');
      l.has_value = eq != std::string::npos;
      l.key = lower(trim(l.has_value ? t.substr(0, eq) : t));
      if (l.has_value) l.value = expand_env(trim(t.substr(eq + 1)), path, lineno);
      if (l.key.empty()) fail_at(path, lineno, "expected 'option=value', got '" + t + "'");
      sections.back().options.push_back(std::move(l));
    }
  }
};

// ---------------------------------------------------------------------------------------------------------
// The options fio has that change nothing in a device model, and the aliases of those that do.

const std::set<std::string>& ignored_options() {
  static const std::set<std::string> names = {
      "ioengine", "direct", "buffered", "filename", "filename_format", "directory", "unique_filename", "nrfiles",
      "openfiles", "file_service_type", "thread", "invalidate", "fsync", "fdatasync", "end_fsync", "end_syncfs",
      "fsync_on_close", "sync", "write_barrier", "sync_file_range", "overwrite", "create_on_open", "create_only",
      "create_serialize", "create_fsync", "allow_file_create", "allow_mounted_write", "pre_read", "unlink",
      "unlink_each_loop", "lockfile", "fallocate", "fadvise_hint", "write_hint", "iodepth_batch",
      "iodepth_batch_submit", "iodepth_batch_complete", "iodepth_batch_complete_min", "iodepth_batch_complete_max",
      "iodepth_low", "io_submit_mode", "serialize_overlap", "hipri", "fixedbufs", "registerfiles", "sqthread_poll",
      "sqthread_poll_cpu", "nonvectored", "uncached", "userspace_reap", "force_async", "cmdprio", "cmdprio_class",
      "cmdprio_percentage", "cmdprio_bssplit", "cmdprio_hint", "prio", "prioclass", "priohint", "nice",
      "cpus_allowed", "cpus_allowed_policy", "cpumask", "numa_cpu_nodes", "numa_mem_policy", "cgroup",
      "cgroup_weight", "cgroup_nodelete", "uid", "gid", "exec_prerun", "exec_postrun", "clocksource",
      "gtod_reduce", "gtod_cpu", "disable_lat", "disable_clat", "disable_slat", "disable_bw_measurement",
      "clat_percentiles", "lat_percentiles", "slat_percentiles", "percentile_list", "significant_figures",
      "write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log", "log_avg_msec", "log_hist_msec",
      "log_hist_coarseness", "log_max_value", "log_offset", "log_prio", "log_compression", "log_store_compressed",
      "log_unix_epoch", "log_alternate_epoch", "per_job_logs", "stats", "disk_util", "unified_rw_reporting",
      "group_reporting", "description", "verify", "do_verify", "verify_offset", "verify_interval",
      "verify_pattern", "verify_fatal", "verify_dump", "verify_async", "verify_backlog", "verify_backlog_batch",
      "verify_state_save", "verify_state_load", "verify_only", "verify_header_seed", "verify_write_sequence",
      "trim_percentage", "trim_verify_zero", "trim_backlog", "trim_backlog_batch", "experimental_verify",
      "buffer_pattern", "buffer_compress_percentage", "buffer_compress_chunk", "refill_buffers",
      "scramble_buffers", "zero_buffers", "dedupe_percentage", "dedupe_mode", "dedupe_working_set_percentage",
      "dedupe_global", "mem", "iomem", "mem_align", "iomem_align", "hugepage-size", "continue_on_error",
      "ignore_error", "error_dump", "exitall", "exitall_on_error", "exit_what", "random_generator",
      "softrandommap", "comm", "job_start_clock_id", "ioscheduler", "unit_base", "replay_redirect",
      "write_iolog", "read_iolog_chunked", "thinktime_spin", "rate_min", "rate_iops_min", "rate_cycle",
      "rate_ignore_thinktime", "max_latency", "atomic", "thinkcycles", "bs_unaligned", "blocksize_unaligned"};
  return names;
}

// Options whose effect ssdtlm models; everything else that is not ignored is an error.
std::string canonical(const std::string& key) {
  static const std::map<std::string, std::string> alias = {
      {"readwrite", "rw"},        {"blocksize", "bs"},       {"blocksize_range", "bsrange"},
      {"ba", "blockalign"},       {"io_limit", "io_size"},   {"wait_for_previous", "stonewall"},
      {"allrandrepeat", "randrepeat"}, {"filesize", "size"}};
  auto it = alias.find(key);
  return it == alias.end() ? key : it->second;
}

const std::map<std::string, std::string>& unmodelled_options() {
  static const std::map<std::string, std::string> why = {
      {"wait_for", "waiting for a named job (use stonewall)"},
      {"rw_sequencer", "offset modifiers of rw"},
      {"percentage_random", "a mix of sequential and random offsets"},
      {"bs_is_seq_rand", "block sizes by sequential/random instead of by direction"},
      {"random_sequence_stride", "the 'sequence' random distribution"},
      {"latency_target", "searching for the queue depth that meets a latency target"},
      {"latency_window", "searching for the queue depth that meets a latency target"},
      {"latency_percentile", "searching for the queue depth that meets a latency target"},
      {"latency_run", "searching for the queue depth that meets a latency target"},
      {"steadystate", "stopping at steady state"}, {"ss", "stopping at steady state"},
      {"ss_dur", "stopping at steady state"}, {"ss_ramp", "stopping at steady state"},
      {"thinktime_iotime", "think time by elapsed I/O time"},
      {"thinktime_blocks_type", "think time counted at issue (ssdtlm counts completions)"},
      {"flow", "token-based flow control between jobs"}, {"flow_id", "token-based flow control between jobs"},
      {"flow_sleep", "token-based flow control between jobs"},
      {"fill_device", "writing until the device is full (give size)"}, {"fill_fs", "writing until the device is full"},
      {"file_append", "appending beyond the end of the device"},
      {"replay_scale", "scaling iolog offsets (use workload.trace_fit=scale)"},
      {"replay_align", "aligning iolog offsets"}, {"replay_skip", "skipping iolog operations"},
      {"merge_blktrace_file", "merging blktraces"}, {"zonecapacity", "zoned block devices (zonemode=zbd)"},
      {"zone_reset_threshold", "zoned block devices"}, {"zone_reset_frequency", "zoned block devices"},
      {"max_open_zones", "zoned block devices"}, {"job_max_open_zones", "zoned block devices"},
      {"ignore_zone_limits", "zoned block devices"}, {"read_beyond_wp", "zoned block devices"},
      {"sprandom", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"spr_num_regions", "SPRandom preconditioning"}, {"spr_op", "SPRandom preconditioning"},
      {"spr_cs", "SPRandom preconditioning"}, {"trimwrite", "trim+write sequences"},
      {"ramp_size", "a ramp measured in bytes (use ramp_time)"}};
  return why;
}

// ---------------------------------------------------------------------------------------------------------
// Values

// "a,b,c" per direction (read, write, trim): a value not ending in a comma applies to the directions after it.
std::array<std::optional<std::string>, 3> per_direction(const std::string& v) {
  std::array<std::optional<std::string>, 3> out;
  const auto parts = split(v, ',');
  for (size_t i = 0; i < 3; ++i) {
    if (i < parts.size()) {
      if (!trim(parts[i]).empty()) out[i] = trim(parts[i]);
    } else if (!trim(parts.back()).empty()) {
      out[i] = trim(parts.back());
    }
  }
  return out;
}

// Integer arithmetic of fio's "(expr)": + - * / % ^ and parentheses over atoms (numbers with units).
class Expr {
 public:
  Expr(const std::string& s, std::function<double(const std::string&)> atom) : s_(s), atom_(std::move(atom)) {}
  double eval() {
    const double v = sum();
    skip();
    if (i_ != s_.size()) throw UnitError("an arithmetic expression", s_, "unexpected '" + s_.substr(i_) + "'");
    return v;
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  double sum() {
    double v = product();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
        const char op = s_[i_++];
        const double r = product();
        v = op == '+' ? v + r : v - r;
      } else {
        return v;
      }
    }
  }
  double product() {
    double v = power();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/' || s_[i_] == '%')) {
        const char op = s_[i_++];
        const double r = power();
        if (op != '*' && r == 0) throw UnitError("an arithmetic expression", s_, "division by zero");
        v = op == '*' ? v * r : op == '/' ? v / r : std::fmod(v, r);
      } else {
        return v;
      }
    }
  }
  double power() {
    const double b = unary();
    skip();
    if (i_ < s_.size() && s_[i_] == '^') {
      ++i_;
      return std::pow(b, power());
    }
    return b;
  }
  double unary() {
    skip();
    if (i_ < s_.size() && s_[i_] == '-') {
      ++i_;
      return -unary();
    }
    if (i_ < s_.size() && s_[i_] == '(') {
      ++i_;
      const double v = sum();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') throw UnitError("an arithmetic expression", s_, "missing ')'");
      ++i_;
      return v;
    }
    const size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
    if (start == i_) throw UnitError("an arithmetic expression", s_, "expected a number");
    return atom_(s_.substr(start, i_ - start));
  }

  std::string s_;
  size_t i_ = 0;
  std::function<double(const std::string&)> atom_;
};

struct Amount {
  bool set = false, percent = false;
  double pct = 0;
  uint64_t bytes = 0;
  Line at;
};

// One fio job's options after fio's rules (defaults, later options win).
struct Spec {
  std::string section, file;
  int line = 0;
  std::string name;
  std::string rw = "read";
  Line rw_at;
  double rwmixread = 50;
  std::array<std::optional<std::string>, 3> bs, bssplit, bsrange, blockalign, rate_iops, rate;
  Line bs_at, bssplit_at, bsrange_at, blockalign_at, rate_iops_at, rate_at;
  std::string dist = "random";
  Line dist_at;
  bool norandommap = false;
  std::optional<int64_t> randseed;
  Line randseed_at;
  uint64_t iodepth = 1, numjobs = 1;
  Amount size, offset, offset_increment, io_size;
  uint64_t offset_align = 0;
  uint64_t number_ios = 0, loops = 1;
  uint64_t runtime_ns = 0, ramp_ns = 0, startdelay_ns = 0;
  bool time_based = false;
  Line time_based_at;
  bool stonewall = false, new_group = false, group_reporting = false;
  uint64_t think_ns = 0, think_blocks = 1;
  std::string zonemode;
  Line zonemode_at;
  uint64_t zonerange = 0, zonesize = 0, zoneskip = 0;
  std::string read_iolog;
  Line read_iolog_at;
  bool replay_no_stall = false;
  double replay_time_scale = 100;
  unsigned kb_base = 1024;
  FioOptions own;
};

class Interpreter {
 public:
  Interpreter(FioJobFile& out, uint64_t device) : out_(out), device_(device) {}

  void ignore(const std::string& key) {
    if (std::find(out_.ignored.begin(), out_.ignored.end(), key) == out_.ignored.end()) out_.ignored.push_back(key);
  }
  void note(const std::string& text) {
    if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end()) out_.notes.push_back(text);
  }

  uint64_t size_value(const Line& l, const std::string& text, unsigned kb_base) {
    const SizeSyntax fio{kb_base, true}, iec{kb_base, false};
    try {
      uint64_t v;
      if (!text.empty() && text[0] == '(') {
        const double d = Expr(text, [&](const std::string& a) { return double(parse_size(a, fio)); }).eval();
        if (!(d >= 0) || d >= 1.8e19) throw UnitError("a size", text, "negative or too large");
        v = uint64_t(std::llround(d));
      } else {
        v = parse_size(text, fio);
        if (v != parse_size(text, iec))
          note(l.file + ":" + std::to_string(l.line) + ": " + l.key + "=" + text + " is " + std::to_string(v) +
               " bytes, as fio reads it with kb_base=1024 (KiB, MiB, ... are powers of 1000 there; set kb_base=1000 "
               "for IEC units)");
      }
      return v;
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
  }

  Amount amount(const Line& l, unsigned kb_base, bool allow_percent) {
    Amount a;
    a.set = true;
    a.at = l;
    const std::string v = trim(l.value);
    if (!v.empty() && v.back() == '%') {
      if (!allow_percent) fail(l, "a percentage is not allowed here");
      try {
        a.pct = parse_number(v.substr(0, v.size() - 1));
      } catch (const UnitError& e) {
        fail(l, e.what());
      }
      if (!(a.pct > 0 && a.pct <= 100)) fail(l, "expected a percentage in (0, 100]");
      a.percent = true;
      return a;
    }
    a.bytes = size_value(l, v, kb_base);
    return a;
  }

  uint64_t time_value(const Line& l, double default_unit_ns) {
    try {
      const std::string v = trim(l.value);
      double ns;
      if (!v.empty() && v[0] == '(')  // fio: the arithmetic is in microseconds
        ns = 1e3 * Expr(v, [](const std::string& a) { return parse_time_ns(a, 1e3, true) / 1e3; }).eval();
      else
        ns = parse_time_ns(v, default_unit_ns, true);
      if (!(ns >= 0)) throw UnitError("a time", v, "negative");
      return uint64_t(std::llround(ns));
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
  }

  uint64_t count(const Line& l, unsigned kb_base, uint64_t min = 0) {
    const uint64_t v = size_value(l, trim(l.value), kb_base);
    if (v < min) fail(l, "expected at least " + std::to_string(min));
    return v;
  }

  bool flag(const Line& l) {
    if (!l.has_value) return true;
    try {
      return parse_bool(l.value);
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
  }

  double percent(const Line& l) {
    double v = 0;
    try {
      v = parse_number(l.value);
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
    if (!(v >= 0 && v <= 100)) fail(l, "expected a percentage in [0, 100]");
    return v;
  }

  void need_value(const Line& l) {
    if (!l.has_value || trim(l.value).empty()) fail(l, "expected a value (option=value)");
  }

  void apply(Spec& s, const Line& l) {
    const std::string key = canonical(l.key);
    const unsigned kb = s.kb_base;
    if (key == "name") {
      need_value(l);
      s.name = l.value;
    } else if (key == "rw") {
      need_value(l);
      s.rw = lower(l.value);
      s.rw_at = l;
    } else if (key == "rwmixread") {
      s.rwmixread = percent(l);
    } else if (key == "rwmixwrite") {
      s.rwmixread = 100 - percent(l);
    } else if (key == "bs") {
      need_value(l);
      s.bs = per_direction(l.value);
      s.bs_at = l;
      s.bssplit = {};
      s.bsrange = {};
    } else if (key == "bssplit") {
      need_value(l);
      s.bssplit = per_direction(l.value);
      s.bssplit_at = l;
    } else if (key == "bsrange") {
      need_value(l);
      s.bsrange = per_direction(l.value);
      s.bsrange_at = l;
    } else if (key == "blockalign") {
      need_value(l);
      s.blockalign = per_direction(l.value);
      s.blockalign_at = l;
    } else if (key == "random_distribution") {
      need_value(l);
      s.dist = l.value;
      s.dist_at = l;
    } else if (key == "norandommap") {
      s.norandommap = flag(l);
    } else if (key == "randrepeat") {
      if (!flag(l)) {
        ignore(l.key);
        note(l.file + ":" + std::to_string(l.line) + ": " + l.key +
             "=0 asks for a different random sequence per run; ssdtlm runs are reproducible: vary --seed instead");
      }
    } else if (key == "randseed") {
      need_value(l);
      try {
        s.randseed = parse_integer(l.value);
      } catch (const UnitError& e) {
        fail(l, e.what());
      }
      s.randseed_at = l;
    } else if (key == "iodepth") {
      s.iodepth = count(l, kb, 1);
    } else if (key == "numjobs") {
      s.numjobs = count(l, kb, 1);
      if (s.numjobs > 4096) fail(l, "expected at most 4096 jobs");
    } else if (key == "size") {
      s.size = amount(l, kb, true);
    } else if (key == "offset") {
      s.offset = amount(l, kb, true);
    } else if (key == "offset_increment") {
      s.offset_increment = amount(l, kb, true);
    } else if (key == "offset_align") {
      s.offset_align = count(l, kb);
    } else if (key == "io_size") {
      s.io_size = amount(l, kb, true);
    } else if (key == "number_ios") {
      s.number_ios = count(l, kb);
    } else if (key == "loops") {
      s.loops = count(l, kb, 1);
    } else if (key == "runtime") {
      s.runtime_ns = time_value(l, 1e9);
    } else if (key == "time_based") {
      s.time_based = flag(l);
      s.time_based_at = l;
    } else if (key == "ramp_time") {
      s.ramp_ns = time_value(l, 1e9);
    } else if (key == "startdelay") {
      if (l.value.find_first_of(":-") != std::string::npos && l.value.find_first_of(":-") > 0)
        not_modelled(l, "a random start delay from a range (give one value)");
      s.startdelay_ns = time_value(l, 1e9);
    } else if (key == "stonewall") {
      s.stonewall = flag(l);
    } else if (key == "new_group") {
      s.new_group = flag(l);
    } else if (key == "group_reporting") {
      s.group_reporting = flag(l);
    } else if (key == "thinktime") {
      s.think_ns = time_value(l, 1e3);
    } else if (key == "thinktime_blocks") {
      s.think_blocks = count(l, kb, 1);
    } else if (key == "thinktime_blocks_type") {
      need_value(l);
      if (lower(l.value) != "complete") not_modelled(l, "think time counted at issue (ssdtlm counts completions)");
    } else if (key == "rate_iops") {
      need_value(l);
      s.rate_iops = per_direction(l.value);
      s.rate_iops_at = l;
    } else if (key == "rate") {
      need_value(l);
      s.rate = per_direction(l.value);
      s.rate_at = l;
    } else if (key == "rate_process") {
      need_value(l);
      if (lower(l.value) != "linear") not_modelled(l, "Poisson arrivals (rate_process=linear only)");
    } else if (key == "zonemode") {
      need_value(l);
      s.zonemode = lower(l.value);
      s.zonemode_at = l;
      if (s.zonemode != "none" && s.zonemode != "strided") {
        if (s.zonemode == "zbd") not_modelled(l, "zoned block devices (zonemode=zbd)");
        fail(l, "expected none, strided or zbd");
      }
    } else if (key == "zonerange") {
      s.zonerange = count(l, kb);
    } else if (key == "zonesize") {
      s.zonesize = count(l, kb);
    } else if (key == "zoneskip") {
      s.zoneskip = count(l, kb);
    } else if (key == "kb_base") {
      // applied before the job's other options, see interpret()
    } else if (key == "read_iolog") {
      need_value(l);
      if (l.value.find(':') != std::string::npos) not_modelled(l, "several iologs for job clones");
      if (l.value == "-") not_modelled(l, "an iolog on standard input");
      s.read_iolog = l.value;
      s.read_iolog_at = l;
    } else if (key == "replay_no_stall") {
      s.replay_no_stall = flag(l);
    } else if (key == "replay_time_scale") {
      const uint64_t v = count(l, kb, 1);
      s.replay_time_scale = double(v);
    } else if (unmodelled_options().count(key)) {
      not_modelled(l, unmodelled_options().at(key));
    } else if (ignored_options().count(key) || ignored_options().count(l.key)) {
      ignore(l.key);
    } else {
      fail_at(l.file, l.line, "unknown fio option '" + l.key + "' (see docs/fio.md for the options ssdtlm reads)");
    }
  }

  unsigned kb_base_of(const std::vector<const Line*>& lines) {
    unsigned kb = 1024;
    for (const Line* l : lines)
      if (l->key == "kb_base") {
        if (l->value == "1024")
          kb = 1024;
        else if (l->value == "1000")
          kb = 1000;
        else
          fail(*l, "expected 1024 or 1000");
      }
    return kb;
  }

 private:
  FioJobFile& out_;
  uint64_t device_;
};

// ---------------------------------------------------------------------------------------------------------
// Spec -> ssdtlm job objects

struct Directions {
  bool r = false, w = false, t = false;
};

// The value of a per-direction option for the directions the job uses; an error when they differ.
std::optional<std::string> one_value(const std::array<std::optional<std::string>, 3>& v, const Directions& d,
                                     const Line& at, const char* what) {
  static const char* const kDir[3] = {"read", "write", "trim"};
  std::optional<std::string> out;
  int out_dir = -1;
  const bool used[3] = {d.r, d.w, d.t};
  for (int k = 0; k < 3; ++k) {
    if (!used[k]) continue;
    if (out_dir >= 0 && v[k] != out)
      not_modelled(at, std::string("different ") + what + " per direction (" + kDir[out_dir] + " " +
                           out.value_or("default") + ", " + kDir[k] + " " + v[k].value_or("default") +
                           "); ssdtlm uses one for every direction");
    out = v[k];
    out_dir = k;
  }
  return out;
}

std::string num(double v) {
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

class Builder {
 public:
  Builder(Interpreter& in, uint64_t device) : in_(in), device_(device) {}

  // The job objects for one fio job (numjobs of them).
  std::vector<nlohmann::json> build(const Spec& s) {
    nlohmann::json j = nlohmann::json::object();
    j["queues"] = 1;
    j["queue_depth"] = s.iodepth;

    // Operations and pattern.
    Directions d;
    std::string rw = s.rw;
    if (rw.find(':') != std::string::npos) not_modelled(s.rw_at, "offset modifiers (rw=...:<nr>)");
    bool random = false;
    double rf = 0, tf = 0;
    if (rw == "read" || rw == "randread") {
      rf = 1;
      d.r = true;
    } else if (rw == "write" || rw == "randwrite") {
      d.w = true;
    } else if (rw == "trim" || rw == "randtrim") {
      tf = 1;
      d.t = true;
    } else if (rw == "rw" || rw == "readwrite" || rw == "randrw") {
      rf = s.rwmixread / 100.0;
      d.r = rf > 0;
      d.w = rf < 1;
    } else if (rw == "trimwrite" || rw == "randtrimwrite") {
      not_modelled(s.rw_at, "trim+write sequences");
    } else {
      fail(s.rw_at, "expected read, write, trim, randread, randwrite, randtrim, rw, readwrite or randrw");
    }
    random = rw.compare(0, 4, "rand") == 0;
    const bool trace = !s.read_iolog.empty();

    // Sizes.
    uint64_t min_bs = 4096;
    if (auto split = one_value(s.bssplit, d, s.bssplit_at, "bssplit")) {
      std::string canon;
      uint64_t lo = 0;
      for (const auto& tok : ssdtlm::split(*split, ':')) {
        const auto slash = tok.find('/');
        const std::string size_tok = trim(tok.substr(0, slash));
        const uint64_t b = in_.size_value(s.bssplit_at, size_tok, s.kb_base);
        if (b == 0 || b > 0xFFFFFFFFull) fail(s.bssplit_at, "block size '" + size_tok + "' out of range");
        lo = lo == 0 ? b : std::min(lo, b);
        canon += (canon.empty() ? "" : ":") + std::to_string(b) + (slash == std::string::npos ? "/" : tok.substr(slash));
      }
      try {
        parse_bssplit(canon);
      } catch (const std::invalid_argument& e) {
        fail(s.bssplit_at, e.what());
      }
      j["bssplit"] = canon;
      j["block_bytes"] = lo;
      min_bs = lo;
    } else if (auto range = one_value(s.bsrange, d, s.bsrange_at, "bsrange")) {
      const size_t sep = range->find_first_of("-:");
      if (sep == std::string::npos || sep == 0) fail(s.bsrange_at, "expected a range such as 4k-64k");
      uint64_t lo = in_.size_value(s.bsrange_at, trim(range->substr(0, sep)), s.kb_base);
      uint64_t hi = in_.size_value(s.bsrange_at, trim(range->substr(sep + 1)), s.kb_base);
      if (lo > hi) std::swap(lo, hi);
      if (lo == 0) fail(s.bsrange_at, "a block size of 0");
      if (hi / lo > 4096) not_modelled(s.bsrange_at, "more than 4096 block sizes in a range");
      std::string canon;  // every multiple of the smallest size, equally likely (fio's draw, to a multiple of lo)
      for (uint64_t k = 1; k * lo <= hi; ++k) canon += (canon.empty() ? "" : ":") + std::to_string(k * lo) + "/";
      j["bssplit"] = canon;
      j["block_bytes"] = lo;
      min_bs = lo;
    } else {
      const auto bs = one_value(s.bs, d, s.bs_at, "block sizes (bs)");
      const uint64_t b = bs ? in_.size_value(s.bs_at, *bs, s.kb_base) : 4096;
      j["bssplit"] = "";
      j["block_bytes"] = b;
      min_bs = b;
    }
    bool aligned = false;
    if (auto ba = one_value(s.blockalign, d, s.blockalign_at, "block alignments")) {
      j["block_align"] = in_.size_value(s.blockalign_at, *ba, s.kb_base);
      aligned = true;
    } else {
      j["block_align"] = 0;
    }
    j["preset"] = "none";

    // Region: offset and size (percentages of the device), clones by offset_increment.
    const uint64_t align = s.offset_align ? s.offset_align : std::max<uint64_t>(min_bs, 1);
    auto resolve = [&](const Amount& a, bool round_up) -> uint64_t {
      if (!a.percent) return a.bytes;
      const long double raw = (long double)device_ * a.pct / 100.0L;
      uint64_t v = uint64_t(raw);
      if (round_up)
        v = (v + align - 1) / align * align;
      else
        v -= v % align;
      return v;
    };
    const uint64_t offset = s.offset.set ? resolve(s.offset, true) : 0;
    const uint64_t increment = s.offset_increment.set ? resolve(s.offset_increment, true) : 0;

    // Address distribution.
    std::string dist = s.dist;
    if (dist.find(',') != std::string::npos) {
      std::array<std::optional<std::string>, 3> per;
      const auto parts = ssdtlm::split(dist, ',');
      // "zoned:a/b:c/d,zoned:..." or "zoned:a/b,c/d": directions after the first inherit its name
      std::string name = parts[0].substr(0, parts[0].find(':'));
      for (size_t k = 0; k < 3; ++k) {
        std::string p = trim(k < parts.size() ? parts[k] : parts.back());
        if (!p.empty() && !std::isalpha(static_cast<unsigned char>(p[0]))) p = name + ":" + p;
        per[k] = p;
      }
      dist = *one_value(per, d, s.dist_at, "random distributions");
    }
    const std::string dname = lower(dist.substr(0, dist.find(':')));
    if (dname == "sequence") not_modelled(s.dist_at, "the 'sequence' random distribution");
    if ((dname == "zipf" || dname == "pareto" || dname == "normal") &&
        std::count(dist.begin(), dist.end(), ':') > 1)
      not_modelled(s.dist_at, "a centre for zipf/pareto/normal (the second value); ssdtlm scatters the hot ranks as fio does without one");
    if (!random && dname != "random") in_.note(s.dist_at.file + ":" + std::to_string(s.dist_at.line) +
                                              ": random_distribution has no effect on sequential I/O (rw=" + rw + ")");

    std::vector<nlohmann::json> jobs;
    for (uint64_t k = 0; k < s.numjobs; ++k) {
      nlohmann::json c = j;
      const uint64_t off = offset + k * increment;
      if (off >= device_)
        fail_at(s.file, s.line, "job '" + s.section + "'" + (s.numjobs > 1 ? " clone " + std::to_string(k) : "") +
                                    ": offset " + std::to_string(off) + " lies beyond the device (" +
                                    format_size(double(device_)) + ")");
      const uint64_t size = s.size.set ? resolve(s.size, false) : device_ - off;
      if (size == 0) fail(s.size.at, "a size of 0");
      if (size > device_ - off)
        fail_at(s.file, s.line, "job '" + s.section + "': offset + size = " + format_size(double(off + size)) +
                                    " (" + std::to_string(off + size) + " bytes) lies beyond the device (" +
                                    format_size(double(device_)) + ")");
      c["address_offset"] = off;
      c["address_range"] = size;

      std::string dk = dist;
      if (dname == "zoned_abs") {  // absolute zone sizes -> percentages of this job's range
        const std::string body = dist.substr(dist.find(':') == std::string::npos ? dist.size() : dist.find(':') + 1);
        std::string zoned = "zoned";
        long double used = 0;
        for (const auto& z : ssdtlm::split(body, ':')) {
          const auto slash = z.find('/');
          if (slash == std::string::npos) fail(s.dist_at, "expected zoned_abs:<access%>/<size>[:...]");
          const uint64_t b = in_.size_value(s.dist_at, trim(z.substr(slash + 1)), s.kb_base);
          used += b;
          zoned += ":" + trim(z.substr(0, slash)) + "/" + num(double(100.0L * b / size));
        }
        if (used > size + 0.5L)
          fail(s.dist_at, "the zones add up to " + format_size(double(used)) + ", more than the job's range (" +
                              format_size(double(size)) + ")");
        if (used < size) zoned += ":0/" + num(double(100.0L * (size - used) / size));
        dk = zoned;
      }
      try {
        make_distribution(dk, 1 << 20, false, true, 1);
      } catch (const std::invalid_argument& e) {
        fail(s.dist_at, e.what());
      }
      c["distribution"] = dk;
      // fio keeps a random map (every block once per pass) unless norandommap or blockalign; it is not used
      // by zipf, pareto or normal.
      c["random_map"] = !s.norandommap && !aligned;

      // How much: time, count, bytes.
      if (s.time_based) {
        if (s.runtime_ns == 0) fail(s.time_based_at, "time_based needs a runtime");
        c["io_count"] = 0;
        c["io_bytes"] = 0;
      } else {
        c["io_count"] = s.number_ios * s.loops;
        uint64_t limit = size;
        if (s.io_size.set) limit = resolve(s.io_size, false);
        c["io_bytes"] = trace ? 0 : limit * s.loops;
        if (trace) c["io_count"] = 0;  // a replay ends with its trace
      }
      c["runtime_ms"] = double(s.runtime_ns) / 1e6;
      c["ramp_ms"] = double(s.ramp_ns) / 1e6;
      c["start_delay_ms"] = double(s.startdelay_ns) / 1e6;
      c["stonewall"] = s.stonewall && k == 0;
      c["thinktime_us"] = double(s.think_ns) / 1e3;
      c["thinktime_blocks"] = s.think_blocks;

      // Rates (one cap for the directions used).
      c["rate_iops"] = 0.0;
      c["rate_mbps"] = 0.0;
      if (auto r = one_value(s.rate_iops, d, s.rate_iops_at, "rate_iops")) {
        c["rate_iops"] = double(in_.size_value(s.rate_iops_at, *r, s.kb_base));
      } else {
        for (auto& v : s.rate_iops)
          if (v) not_modelled(s.rate_iops_at, "a rate for some of the job's directions only");
      }
      if (auto r = one_value(s.rate, d, s.rate_at, "rate")) {
        c["rate_mbps"] = double(in_.size_value(s.rate_at, *r, s.kb_base)) / 1e6;
      } else {
        for (auto& v : s.rate)
          if (v) not_modelled(s.rate_at, "a rate for some of the job's directions only");
      }

      // Strided zones.
      const bool strided = s.zonemode == "strided" || (s.zonemode.empty() && s.zonesize > 0);
      if (s.zonemode == "strided" && s.zonesize == 0) fail(s.zonemode_at, "zonemode=strided needs zonesize");
      if (s.zonemode == "none" && s.zonesize) fail(s.zonemode_at, "zonemode=none and zonesize do not go together");
      c["zone_range"] = strided ? (s.zonerange ? s.zonerange : s.zonesize) : 0;
      c["zone_size"] = strided ? s.zonesize : 0;
      c["zone_skip"] = strided ? s.zoneskip : 0;

      if (trace) {
        fs::path p(s.read_iolog);
        if (p.is_relative() && !fs::exists(p)) p = fs::path(s.file).parent_path() / p;
        c["pattern"] = "trace";
        c["trace_path"] = p.string();
        c["trace_format"] = "fio_iolog";
        c["trace_timing"] = s.replay_no_stall ? "closed" : "open";
        c["trace_time_scale"] = 100.0 / s.replay_time_scale;
      } else {
        c["pattern"] = random ? "random" : "sequential";
        c["read_fraction"] = rf;
        c["trim_fraction"] = tf;
      }
      jobs.push_back(std::move(c));
    }
    return jobs;
  }

 private:
  Interpreter& in_;
  uint64_t device_;
};

}  // namespace

FioJobFile parse_fio_job_text(const std::string& text, const std::string& path, uint64_t device_bytes) {
  FioJobFile out;
  out.path = path;
  Reader reader;
  reader.read_text(text, path, false, 0);
  Interpreter in(out, device_bytes);
  Builder builder(in, device_bytes);

  std::vector<const Line*> globals;
  nlohmann::json jobs = nlohmann::json::array();
  std::optional<int64_t> seed;
  Line seed_at;
  int group = -1;
  for (const Section& sec : reader.sections) {
    if (sec.global) {
      for (const Line& l : sec.options) {
        globals.push_back(&l);
        out.global_options.emplace_back(l.key, l.value);
      }
      continue;
    }
    std::vector<const Line*> lines = globals;
    for (const Line& l : sec.options) lines.push_back(&l);
    Spec s;
    s.section = s.name = sec.name;
    s.file = sec.file;
    s.line = sec.line;
    s.kb_base = in.kb_base_of(lines);
    for (const Line* l : lines) in.apply(s, *l);
    for (const Line& l : sec.options) s.own.emplace_back(l.key, l.value);
    if (s.randseed) {
      if (seed && *seed != *s.randseed)
        fail(s.randseed_at, "jobs with different randseed values (ssdtlm has one run seed, sim.seed, and offsets "
                            "every job's streams by its index)");
      if (*s.randseed < 0) fail(s.randseed_at, "expected a seed >= 0");
      seed = s.randseed;
      seed_at = s.randseed_at;
    }
    if (group < 0 || s.stonewall || s.new_group) ++group;
    std::vector<nlohmann::json> built;
    built = builder.build(s);
    for (size_t k = 0; k < built.size(); ++k) {
      FioJob job;
      job.name = s.name;
      job.clone = k;
      job.group = group;
      job.group_reporting = s.group_reporting;
      job.options = s.own;
      built[k]["name"] = s.numjobs > 1 ? s.name + "." + std::to_string(k) : s.name;
      built[k]["report_group"] = s.group_reporting ? group : -1;
      // Validate against the schema now, so a bad value names the job's section.
      try {
        Config probe;
        probe.merge(nlohmann::json{{"jobs", nlohmann::json::array({built[k]})}}, path);
      } catch (const ConfigError& e) {
        fail_at(s.file, s.line, "job '" + s.section + "': " + e.what());
      }
      job.config = built[k];
      jobs.push_back(built[k]);
      out.jobs.push_back(std::move(job));
    }
  }
  if (out.jobs.empty()) fail_at(path, 0, "no job section (only [global], or empty)");
  out.config = nlohmann::json{{"jobs", jobs}};
  if (seed) out.config["sim"] = {{"seed", *seed}};
  return out;
}

FioJobFile read_fio_job_file(const std::string& path, uint64_t device_bytes) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open fio job file");
  std::ostringstream ss;
  ss << in.rdbuf();
  return parse_fio_job_text(ss.str(), path, device_bytes);
}

}  // namespace ssdtlm
