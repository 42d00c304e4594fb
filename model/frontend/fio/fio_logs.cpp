#include "frontend/fio/fio_logs.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>

#include "report/output_dir.h"

namespace ssdtlm {
namespace fio {

unsigned plat_bin(uint64_t ns) {
  if (ns == 0) return 0;
  const unsigned msb = 63u - unsigned(__builtin_clzll(ns));
  if (msb <= kPlatBits) return unsigned(ns);
  const unsigned error_bits = msb - kPlatBits;
  const uint64_t bin = (uint64_t(error_bits + 1) << kPlatBits) + (((1u << kPlatBits) - 1) & (ns >> error_bits));
  return unsigned(std::min<uint64_t>(bin, kPlatBins - 1));
}

namespace {

enum Kind { kBw, kIops, kSlat, kClat, kLat, kHist, kKinds };
const char* const kKindName[kKinds] = {"bw", "iops", "slat", "clat", "lat", "clat_hist"};

const std::string& prefix_of(const IoLogParams& p, int kind) {
  switch (kind) {
    case kBw: return p.bw;
    case kIops: return p.iops;
    case kHist: return p.hist;
    default: return p.lat;
  }
}

// Whether the job writes this log: named, and (fio's disable_lat / disable_clat / disable_slat) not disabled.
bool writes(const IoLogParams& p, int kind) {
  if (prefix_of(p, kind).empty()) return false;
  return !(kind == kSlat && p.no_slat) && !(kind == kClat && p.no_clat) && !(kind == kLat && p.no_lat);
}

std::string file_name(const IoLogParams& p, int kind, size_t number) {
  const std::string& pre = prefix_of(p, kind);
  return p.per_job ? pre + "_" + kKindName[kind] + "." + std::to_string(number) + ".log"
                   : pre + "_" + kKindName[kind] + ".log";
}

uint64_t ms_of(uint64_t ps) { return ps / 1000000000ull; }

// value per second of `amount` over `ps` (0 when no time passed), as fio's integer rates.
uint64_t per_second(uint64_t amount, uint64_t ps) {
  return ps ? uint64_t((unsigned __int128)amount * 1000000000000ull / ps) : 0;
}

}  // namespace

class FioJobLog : public CompletionLog {
 public:
  FioJobLog(const std::string& dir, const IoLogParams& p, size_t number) : p_(p) {
    for (int k = 0; k < kKinds; ++k) {
      if (!writes(p, k)) continue;
      File& f = files_[k];
      f.name = file_name(p, k, number);
      f.path = dir + "/" + OutputDir::staged_name(f.name) + (p.per_job ? "" : ".part" + std::to_string(number));
      f.f = std::fopen(f.path.c_str(), "wb");
      if (!f.f) throw OutputError("cannot write the fio log " + f.name + " (" + std::strerror(errno) + ")");
    }
    if (files_[kHist].f)
      for (auto& h : hist_) h.counts.assign(kPlatBins, 0);
    rate_.end_ps = p.avg_ms * 1000000000ull;
  }
  ~FioJobLog() override {
    for (auto& f : files_)
      if (f.f) std::fclose(f.f);
  }

  void completed(const LoggedIo& io) override {
    const uint64_t ms = ms_of(io.at_ps);
    const uint64_t issue_ns = io.issued_ps / 1000;
    if (p_.avg_ms == 0) {
      put(kBw, ms, io.clat_ns ? uint64_t(io.bytes) * 1000000ull / io.clat_ns : 0, 0, io.dir, io.bytes, io.offset, 0);
      put(kIops, ms, 1, 0, io.dir, io.bytes, io.offset, 0);
      put(kSlat, ms, 0, 0, io.dir, io.bytes, io.offset, issue_ns);
      put(kClat, ms, io.clat_ns, 0, io.dir, io.bytes, io.offset, issue_ns);
      put(kLat, ms, io.clat_ns, 0, io.dir, io.bytes, io.offset, 0);
    } else {
      if (files_[kBw].f || files_[kIops].f) {
        while (io.at_ps >= rate_.end_ps) close_rate_window(rate_.end_ps);
        rate_.bytes[io.dir] += io.bytes;
        rate_.ios[io.dir] += 1;
        rate_.size[io.dir] = rate_.ios[io.dir] == 1 || rate_.size[io.dir] == io.bytes ? io.bytes : 0;
      }
      average(kSlat, ms, io.dir, 0);
      average(kClat, ms, io.dir, io.clat_ns);
      average(kLat, ms, io.dir, io.clat_ns);
    }
    if (files_[kHist].f && p_.hist_ms && !p_.no_clat) histogram(ms, io);  // fio: no clat, no clat bins
  }

  void finished(uint64_t at_ps) override {
    if (p_.avg_ms == 0) return;
    if (files_[kBw].f || files_[kIops].f) {
      while (at_ps >= rate_.end_ps) close_rate_window(rate_.end_ps);
      close_rate_window(at_ps);
    }
    for (int k : {kSlat, kClat, kLat})  // fio's finalize_logs: the open latency windows at the end
      for (int d = 0; d < 3; ++d) flush_average(k, ms_of(at_ps), d);
  }

  // Closes the files; returns (final name, written path) of each.
  std::vector<std::pair<std::string, std::string>> close() {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto& f : files_) {
      if (!f.f) continue;
      const bool bad = std::ferror(f.f) != 0;
      const int rc = std::fclose(f.f);
      f.f = nullptr;
      if (bad || rc != 0) throw OutputError("cannot write the fio log " + f.name + " (" + std::strerror(errno) + ")");
      out.emplace_back(f.name, f.path);
    }
    return out;
  }

 private:
  struct File {
    std::string name, path;
    std::FILE* f = nullptr;
  };
  struct Average {  // fio's avg_window: one log's latency samples of one direction since its last entry
    uint64_t n = 0, max = 0, last_ms = 0;
    double sum = 0;
  };
  struct RateWindow {  // bandwidth and IOPS since start_ps, per direction
    uint64_t start_ps = 0, end_ps = 0;
    uint64_t bytes[3] = {0, 0, 0}, ios[3] = {0, 0, 0};
    uint32_t size[3] = {0, 0, 0};  // the one block size of the window's I/Os (0: mixed), fio's bs column
  };
  struct Hist {  // fio's hist_window: clat bins since the last entry
    std::vector<uint64_t> counts;
    uint64_t last_ms = 0;
  };

  void put(int kind, uint64_t ms, uint64_t v0, uint64_t v1, int dir, uint64_t bs, uint64_t offset, uint64_t issue) {
    std::FILE* f = files_[kind].f;
    if (!f) return;
    char buf[160];
    int n = std::snprintf(buf, sizeof buf, "%llu, %llu", (unsigned long long)ms, (unsigned long long)v0);
    if (p_.avg_ms && p_.window == IoLogParams::Window::Both)
      n += std::snprintf(buf + n, sizeof buf - size_t(n), ", %llu", (unsigned long long)v1);
    n += std::snprintf(buf + n, sizeof buf - size_t(n), ", %d, %llu", dir, (unsigned long long)bs);
    if (p_.offset) n += std::snprintf(buf + n, sizeof buf - size_t(n), ", %llu", (unsigned long long)offset);
    n += std::snprintf(buf + n, sizeof buf - size_t(n), p_.prio ? ", 0x0000" : ", 0");
    if (p_.issue_time) n += std::snprintf(buf + n, sizeof buf - size_t(n), ", %llu", (unsigned long long)issue);
    buf[n++] = '\n';
    std::fwrite(buf, 1, size_t(n), f);
  }

  // fio's add_log_sample with log_avg_msec: the sample joins the window; a window as long as log_avg_msec
  // (measured from its start, a multiple of log_avg_msec) gives an entry at the sample's time.
  void average(int kind, uint64_t ms, int dir, uint64_t v) {
    if (!files_[kind].f) return;
    Average& a = avg_[kind - kSlat][dir];
    ++a.n;
    a.sum += double(v);
    a.max = std::max(a.max, v);
    if (ms < a.last_ms || ms - a.last_ms < p_.avg_ms) return;
    flush_average(kind, ms, dir);
    a.last_ms = ms - ms % p_.avg_ms;
  }
  void flush_average(int kind, uint64_t ms, int dir) {
    if (!files_[kind].f) return;
    Average& a = avg_[kind - kSlat][dir];
    if (!a.n) return;
    const uint64_t mean = uint64_t(a.sum / double(a.n) + 0.5);
    const uint64_t v0 = p_.window == IoLogParams::Window::Max ? a.max : mean;
    put(kind, ms, v0, a.max, dir, 0, 0, 0);
    a = Average{0, 0, a.last_ms, 0};
  }

  void close_rate_window(uint64_t end_ps) {
    const uint64_t spent = end_ps - rate_.start_ps;
    for (int d = 0; d < 3; ++d) {
      if (!rate_.ios[d]) continue;
      const uint64_t kib = per_second(rate_.bytes[d], spent) / 1024, iops = per_second(rate_.ios[d], spent);
      put(kBw, ms_of(end_ps), kib, kib, d, rate_.size[d], 0, 0);
      put(kIops, ms_of(end_ps), iops, iops, d, rate_.size[d], 0, 0);
      rate_.bytes[d] = rate_.ios[d] = 0;
      rate_.size[d] = 0;
    }
    rate_.start_ps = end_ps;
    if (end_ps == rate_.end_ps) rate_.end_ps += p_.avg_ms * 1000000000ull;
  }

  // fio's add_clat_sample with log_hist_msec: the bins since the last entry, written when a completion finds
  // log_hist_msec passed since it.
  void histogram(uint64_t ms, const LoggedIo& io) {
    Hist& h = hist_[io.dir];
    ++h.counts[plat_bin(io.clat_ns)];
    if (!h.last_ms) h.last_ms = ms;
    const uint64_t window = ms - h.last_ms;
    if (window < p_.hist_ms) return;
    std::FILE* f = files_[kHist].f;
    std::fprintf(f, "%llu, %d, %u", (unsigned long long)ms, io.dir, io.bytes);
    const unsigned stride = 1u << p_.hist_coarseness;
    for (unsigned b = 0; b < kPlatBins; b += stride) {
      uint64_t sum = 0;
      for (unsigned k = b; k < b + stride; ++k) sum += h.counts[k];
      std::fprintf(f, ", %llu", (unsigned long long)sum);
    }
    std::fputc('\n', f);
    std::fill(h.counts.begin(), h.counts.end(), 0);
    h.last_ms = ms - (window - p_.hist_ms);
  }

  IoLogParams p_;
  File files_[kKinds];
  Average avg_[3][3];  // [slat, clat, lat][direction]
  RateWindow rate_;
  Hist hist_[3];
};

std::vector<std::string> log_file_names(const IoLogParams& p, size_t number) {
  std::vector<std::string> names;
  for (int k = 0; k < kKinds; ++k)
    if (writes(p, k)) names.push_back(file_name(p, k, number));
  return names;
}

FioLogSet::FioLogSet(const std::string& dir, const std::vector<IoLogParams>& jobs) : dir_(dir) {
  for (size_t j = 0; j < jobs.size(); ++j)
    logs_.push_back(jobs[j].any() ? std::make_unique<FioJobLog>(dir, jobs[j], j + 1) : nullptr);
}

FioLogSet::~FioLogSet() = default;

CompletionLog* FioLogSet::job(size_t j) { return j < logs_.size() ? logs_[j].get() : nullptr; }

std::vector<std::string> FioLogSet::close() {
  std::vector<std::string> names;
  for (auto& log : logs_) {
    if (!log) continue;
    for (const auto& [name, path] : log->close()) {
      const std::string whole = dir_ + "/" + OutputDir::staged_name(name);
      if (path != whole) {  // per_job_logs=0: appended to the file the jobs share
        std::ofstream out(whole, std::ios::binary | std::ios::app);
        std::ifstream in(path, std::ios::binary);
        if (in.peek() != std::ifstream::traits_type::eof()) out << in.rdbuf();
        if (!out) throw OutputError("cannot write the fio log " + name);
        std::remove(path.c_str());
      }
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  return names;
}

}  // namespace fio
}  // namespace ssdtlm
