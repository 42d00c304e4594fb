// fio's text reports of a finished run, made from its fio JSON (make_fio_json), so every number is the one
// fio.json holds, formatted as fio 3.42's stat.c formats it:
//   normal (--output-format=normal, fio's default): per job (or group_reporting group) the "name: (groupid=G,
//     jobs=N): err= 0: pid=P: date" block (IOPS/BW line per direction, slat/clat/lat min/max/avg/stdev scaled to
//     nsec/usec/msec as fio scales them, the percentile table, bw/iops sample lines, the lat distribution, cpu,
//     IO depths, submit/complete, issued rwts, latency target, steady state), then "Run status group G (all
//     jobs):" per group and "Disk stats (read/write):"; fio_normal_header is what fio prints before the run
//     (the job lines, the version, "Starting N processes").
//   terse (--output-format=terse): one ';'-separated line per job in terse version 2, 3 (fio's default), 4 or 5
//     (HOWTO "Terse output"; stat.c show_thread_status_terse_all).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/params.h"
#include "frontend/fio/fio_job.h"

namespace ssdtlm {

// fio's num2str (lib/num2str.c): `num` (in units of `base`) in at most `maxlen` digits, with an SI (pow2 false)
// or IEC prefix and the unit's suffix: fio_num2str(65536, 4, 1, true, FioUnit::Byte) == "64.0KiB".
enum class FioUnit { None, PerSec, Byte, Bit, BytePerSec, BitPerSec };

// A number of a fio.json object, 0 when the field is absent (fio leaves out what a run did not measure).
inline unsigned long long fio_json_u(const nlohmann::ordered_json& j, const char* key) {
  return j.contains(key) ? j.at(key).get<unsigned long long>() : 0;
}
inline double fio_json_d(const nlohmann::ordered_json& j, const char* key) {
  return j.contains(key) ? j.at(key).get<double>() : 0.0;
}

// printf into the end of `s` (the reports are built a field at a time, as fio's log_buf does).
void appendf(std::string& s, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
std::string fio_num2str(uint64_t num, int maxlen, int base, bool pow2, FioUnit unit);

// What fio's report needs besides fio.json, per entry of fio.json's jobs (the same grouping as make_fio_json):
// the first job it stands for, how many jobs it merges (fio's "jobs=N"), and the report options of that job.
struct FioTextEntry {
  size_t job = 0;
  int members = 1;
  int sig_figs = 4;       // significant_figures
  bool pow2 = true;       // kb_base=1024 (fio's default)
  std::string description;
  FioReportOptions report;
};
std::vector<FioTextEntry> fio_text_entries(const Params& params, const FioJobFile* fio);

// fio's group_run_stats of one reporting group (stat.c __show_run_stats): per direction slot (0 read, or
// mixed with unified_rw_reporting=mixed; 1 write; 2 trim) the shortest and longest runtime (ms), the lowest
// and highest job bandwidth (bytes/s), the bytes and the aggregate bandwidth (bytes over the longest runtime).
struct FioGroupStats {
  uint64_t min_run[3] = {~0ull, ~0ull, ~0ull}, max_run[3] = {0, 0, 0};
  uint64_t min_bw[3] = {~0ull, ~0ull, ~0ull}, max_bw[3] = {0, 0, 0};
  uint64_t iobytes[3] = {0, 0, 0}, agg[3] = {0, 0, 0};
  std::string unified = "none";
  bool pow2 = true;
  int sig_figs = 4;
};
std::map<int, FioGroupStats> fio_group_stats(const nlohmann::ordered_json& fio_json,
                                             const std::vector<FioTextEntry>& entries);
// The direction object of a fio.json job for slot k (see FioGroupStats), or null.
const nlohmann::ordered_json* fio_direction(const nlohmann::ordered_json& job, int k);

// What fio prints before running (output-format normal): per job "name: (g=G): rw=..., bs=(R) ..., ioengine=...,
// iodepth=N" ("..." once for its clones), then fio's version and "Starting N processes".
std::string fio_normal_header(const FioJobFile& fio, const std::string& version);
// fio's normal report (stat.c show_thread_status_normal, show_group_stats, show_disk_util).
std::string fio_normal_report(const nlohmann::ordered_json& fio_json, const std::vector<FioTextEntry>& entries);
// fio's terse lines, version 2 to 5 (std::invalid_argument otherwise).
std::string fio_terse_report(const nlohmann::ordered_json& fio_json, const std::vector<FioTextEntry>& entries,
                             int version);

}  // namespace ssdtlm
