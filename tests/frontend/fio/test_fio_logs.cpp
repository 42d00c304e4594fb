// fio's log files as fio writes them: names, line formats per I/O and per window, the histogram log's bins, and
// logs shared by jobs (per_job_logs=0). Driven by hand-made completions, no simulation.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/fio/fio_logs.h"

using namespace ssdtlm;

namespace {

constexpr uint64_t kMs = 1000000000ull;  // ps

struct LogDir {
  std::string path;
  explicit LogDir(const std::string& name) : path("fio_logs_" + name) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~LogDir() { std::filesystem::remove_all(path); }
  std::vector<std::string> lines(const std::string& file) const {
    std::ifstream in(path + "/" + file);
    std::vector<std::string> out;
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
  }
};

std::vector<uint64_t> fields(const std::string& line) {
  std::vector<uint64_t> v;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, ',');) v.push_back(std::stoull(f));
  return v;
}

LoggedIo io(uint64_t at_ps, int dir, uint32_t bytes, uint64_t clat_ns, uint64_t offset = 0) {
  return {at_ps, at_ps - clat_ns * 1000, dir, bytes, offset, clat_ns};
}

}  // namespace

TEST_CASE("fio logs: plat_bin is fio's clat bin (exact below 128 ns, then 64 bins per power of two)", "[fio][logs]") {
  for (uint64_t v = 0; v < 128; ++v) CHECK(fio::plat_bin(v) == v);
  CHECK(fio::plat_bin(128) == 128);
  CHECK(fio::plat_bin(129) == 128);  // 2 ns per bin from 128
  CHECK(fio::plat_bin(130) == 129);
  CHECK(fio::plat_bin(255) == 191);
  CHECK(fio::plat_bin(256) == 192);  // next group: 4 ns per bin
  CHECK(fio::plat_bin(~0ull) == fio::kPlatBins - 1);
  CHECK(fio::kPlatBins == 1856);
}

TEST_CASE("fio logs: per I/O, fio's names and columns (offset, priority, issue time)", "[fio][logs]") {
  LogDir d("per_io");
  IoLogParams p;
  p.bw = "b";
  p.lat = "l";
  p.iops = "i";
  p.offset = true;
  p.issue_time = true;
  fio::FioLogSet logs(d.path, {IoLogParams{}, p});
  REQUIRE(logs.job(0) == nullptr);  // job 1 logs nothing
  CompletionLog* log = logs.job(1);
  REQUIRE(log);
  log->completed(io(3 * kMs + 5, 1, 4096, 2000, 8192));  // 3 ms, a 4 KiB write of 2 us
  log->completed(io(7 * kMs, 0, 8192, 500, 0));
  log->finished(8 * kMs);
  const auto names = logs.close();
  CHECK(names == fio::log_file_names(p, 2));
  CHECK(names == std::vector<std::string>{"b_bw.2.log", "i_iops.2.log", "l_slat.2.log", "l_clat.2.log", "l_lat.2.log"});
  // time, value, direction, bs, offset, priority, issue time (clat and slat logs; 0 in the others)
  CHECK(d.lines("l_clat.2.log") == std::vector<std::string>{"3, 2000, 1, 4096, 8192, 0, 2998000", "7, 500, 0, 8192, 0, 0, 6999500"});
  CHECK(d.lines("l_slat.2.log")[0] == "3, 0, 1, 4096, 8192, 0, 2998000");
  CHECK(d.lines("l_lat.2.log")[0] == "3, 2000, 1, 4096, 8192, 0, 0");
  CHECK(d.lines("i_iops.2.log")[1] == "7, 1, 0, 8192, 0, 0, 0");
  CHECK(d.lines("b_bw.2.log")[0] == "3, 2048000, 1, 4096, 8192, 0, 0");  // bytes x 10^6 / clat ns, as fio
}

TEST_CASE("fio logs: windowed bandwidth and IOPS integrate to the bytes and I/Os moved", "[fio][logs]") {
  LogDir d("windows");
  IoLogParams p;
  p.bw = "j";
  p.iops = "j";
  p.avg_ms = 10;
  p.prio = true;
  fio::FioLogSet logs(d.path, {p});
  CompletionLog* log = logs.job(0);
  uint64_t bytes = 0, ios = 0;
  for (uint64_t t = 1; t <= 35; ++t) {  // one 4 KiB write per ms from 1 ms to 35 ms; none from 12 to 24 ms
    if (t > 12 && t < 25) continue;
    log->completed(io(t * kMs, 1, 4096, 100));
    bytes += 4096;
    ++ios;
  }
  log->finished(36 * kMs);
  logs.close();
  const auto bw = d.lines("j_bw.1.log");
  // windows ending at 10, 20, 30 ms, then the last (30, 36] over its own 6 ms
  REQUIRE(bw.size() == 4);
  CHECK(bw[0] == "10, 3600, 1, 4096, 0x0000");  // 9 x 4 KiB in 10 ms = 3600 KiB/s
  double kib = 0;
  uint64_t prev_ms = 0;
  for (const auto& l : bw) {
    const auto f = fields(l);
    kib += double(f[1]) * double(f[0] - prev_ms) / 1000.0;
    prev_ms = f[0];
  }
  CHECK(kib == Approx(double(bytes) / 1024).epsilon(0.01));
  const auto iops = d.lines("j_iops.1.log");
  REQUIRE(iops.size() == 4);
  double n = 0;
  prev_ms = 0;
  for (const auto& l : iops) {
    const auto f = fields(l);
    n += double(f[1]) * double(f[0] - prev_ms) / 1000.0;
    prev_ms = f[0];
  }
  CHECK(n == Approx(double(ios)).epsilon(0.01));
}

TEST_CASE("fio logs: windowed latency entries hold the window's average, maximum or both", "[fio][logs]") {
  for (auto w : {IoLogParams::Window::Avg, IoLogParams::Window::Max, IoLogParams::Window::Both}) {
    LogDir d("lat_window");
    IoLogParams p;
    p.lat = "x";
    p.avg_ms = 5;
    p.window = w;
    fio::FioLogSet logs(d.path, {p});
    CompletionLog* log = logs.job(0);
    log->completed(io(1 * kMs, 0, 4096, 100));
    log->completed(io(2 * kMs, 0, 4096, 301));
    log->completed(io(6 * kMs, 0, 4096, 200));  // the window [0, 5) is over: an entry at 6 ms with all three
    log->completed(io(7 * kMs, 0, 4096, 50));   // left open, flushed at the end
    log->finished(8 * kMs);
    logs.close();
    const auto clat = d.lines("x_clat.1.log");
    REQUIRE(clat.size() == 2);
    if (w == IoLogParams::Window::Avg) CHECK(clat == std::vector<std::string>{"6, 200, 0, 0, 0", "8, 50, 0, 0, 0"});
    if (w == IoLogParams::Window::Max) CHECK(clat == std::vector<std::string>{"6, 301, 0, 0, 0", "8, 50, 0, 0, 0"});
    if (w == IoLogParams::Window::Both) CHECK(clat == std::vector<std::string>{"6, 200, 301, 0, 0, 0", "8, 50, 50, 0, 0, 0"});
  }
}

TEST_CASE("fio logs: the histogram log counts each window's completions in fio's bins, coarsened", "[fio][logs]") {
  LogDir d("hist");
  IoLogParams p;
  p.hist = "h";
  p.hist_ms = 10;
  p.hist_coarseness = 1;
  fio::FioLogSet logs(d.path, {p});
  CompletionLog* log = logs.job(0);
  log->completed(io(1 * kMs, 1, 4096, 100));   // window starts at 1 ms
  log->completed(io(5 * kMs, 1, 4096, 101));
  log->completed(io(11 * kMs, 1, 4096, 5000));  // 10 ms since 1 ms: the entry, with all three
  log->completed(io(12 * kMs, 1, 4096, 7));     // never flushed (fio writes histograms only when a window ends)
  log->finished(13 * kMs);
  logs.close();
  const auto lines = d.lines("h_clat_hist.1.log");
  REQUIRE(lines.size() == 1);
  const auto f = fields(lines[0]);
  REQUIRE(f.size() == 3 + fio::kPlatBins / 2);
  CHECK(f[0] == 11);
  CHECK(f[1] == 1);
  CHECK(f[2] == 4096);
  CHECK(f[3 + 50] == 2);  // 100 and 101 ns: bins 100 and 101, one column at coarseness 1
  CHECK(f[3 + fio::plat_bin(5000) / 2] == 1);
  uint64_t total = 0;
  for (size_t i = 3; i < f.size(); ++i) total += f[i];
  CHECK(total == 3);
}

TEST_CASE("fio logs: per_job_logs=0 gives one file per log, each job's entries after the previous job's", "[fio][logs]") {
  LogDir d("shared");
  IoLogParams p;
  p.iops = "s";
  p.per_job = false;
  fio::FioLogSet logs(d.path, {p, p});
  logs.job(1)->completed(io(1 * kMs, 1, 4096, 10));  // job 2 completes first
  logs.job(0)->completed(io(2 * kMs, 0, 4096, 10));
  logs.job(0)->finished(3 * kMs);
  logs.job(1)->finished(3 * kMs);
  CHECK(logs.close() == std::vector<std::string>{"s_iops.log"});
  CHECK(d.lines("s_iops.log") == std::vector<std::string>{"2, 1, 0, 4096, 0", "1, 1, 1, 4096, 0"});
  CHECK(std::distance(std::filesystem::directory_iterator(d.path), std::filesystem::directory_iterator()) == 1);
}
