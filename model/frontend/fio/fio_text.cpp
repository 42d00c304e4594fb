// What fio's normal and terse reports share: fio's number formatting, the report's entries and the groups'
// run statistics.
#include "frontend/fio/fio_text.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace ssdtlm {

void appendf(std::string& s, const char* fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  const int n = std::vsnprintf(nullptr, 0, fmt, ap);
  va_end(ap);
  if (n > 0) {
    const size_t at = s.size();
    s.resize(at + size_t(n) + 1);
    std::vsnprintf(&s[at], size_t(n) + 1, fmt, again);
    s.resize(at + size_t(n));
  }
  va_end(again);
}

std::string fio_num2str(uint64_t num, int maxlen, int base, bool pow2, FioUnit unit) {
  static const char* const si[] = {"", "k", "M", "G", "T", "P", "E"};
  static const char* const iec[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
  static const char* const suffix[] = {"", "/s", "B", "bit", "B/s", "bit/s"};
  const char* const* prefix = pow2 ? iec : si;
  const unsigned thousand = pow2 ? 1024 : 1000;
  int post = 0;
  for (; base > 1; ++post) base /= int(thousand);
  if (unit == FioUnit::Bit || unit == FioUnit::BitPerSec) num *= 8;
  // Divide by a thousand (or 1024) until the number has at most maxlen digits, keeping the last remainder.
  bool divided = false;
  unsigned modulo = 0;
  bool carry = false;
  while (post < 7) {
    if (int(std::to_string(num).size()) <= maxlen) break;
    modulo = unsigned(num % thousand);
    num /= thousand;
    carry = modulo >= thousand / 2;
    divided = true;
    ++post;
  }
  if (post >= 7) post = 0;
  const char* u = suffix[int(unit)];
  if (divided) {
    const int room = maxlen - int(std::to_string(num).size());
    if (room <= 1) {
      if (carry) ++num;
    } else {
      char frac[32];
      std::snprintf(frac, sizeof frac, "%.*f", room - 1, double(modulo) / double(thousand));
      if (frac[0] == '1') ++num;  // rounded up to the next unit
      return std::to_string(num) + "." + (frac + 2) + prefix[post] + u;
    }
  }
  return std::to_string(num) + prefix[post] + u;
}

namespace {

// A fio option's value for job j as written: the job's own section first, then the [global] options.
const std::string* option(const FioJobFile* fio, size_t j, const std::string& name) {
  if (!fio) return nullptr;
  if (j < fio->jobs.size())
    for (auto it = fio->jobs[j].options.rbegin(); it != fio->jobs[j].options.rend(); ++it)
      if (it->first == name) return &it->second;
  for (auto it = fio->global_options.rbegin(); it != fio->global_options.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

}  // namespace

std::vector<FioTextEntry> fio_text_entries(const Params& params, const FioJobFile* fio) {
  std::vector<FioTextEntry> out;
  std::map<int64_t, size_t> by_group;
  for (size_t j = 0; j < params.jobs.size(); ++j) {
    const int64_t group = params.jobs[j].report_group;  // as make_fio_json merges them
    auto it = group >= 0 ? by_group.find(group) : by_group.end();
    if (it != by_group.end()) {
      ++out[it->second].members;
      continue;
    }
    FioTextEntry e;
    e.job = j;
    if (fio && j < fio->jobs.size()) e.report = fio->jobs[j].report;
    if (params.jobs[j].log.no_clat) e.report.clat_percentiles = false;  // fio's disable_clat / disable_lat
    if (params.jobs[j].log.no_lat) e.report.lat_percentiles = false;
    if (const std::string* v = option(fio, j, "significant_figures")) e.sig_figs = std::clamp(std::atoi(v->c_str()), 1, 10);
    if (const std::string* v = option(fio, j, "kb_base")) e.pow2 = std::atoi(v->c_str()) != 1000;
    if (const std::string* v = option(fio, j, "description")) e.description = *v;
    if (group >= 0) by_group[group] = out.size();
    out.push_back(std::move(e));
  }
  return out;
}

const nlohmann::ordered_json* fio_direction(const nlohmann::ordered_json& job, int k) {
  static const char* const kName[3] = {"read", "write", "trim"};
  const char* name = k == 0 && !job.contains("read") && job.contains("mixed") ? "mixed" : kName[k];
  auto it = job.find(name);
  return it == job.end() ? nullptr : &*it;
}

std::map<int, FioGroupStats> fio_group_stats(const nlohmann::ordered_json& fio_json,
                                             const std::vector<FioTextEntry>& entries) {
  std::map<int, FioGroupStats> groups;
  const auto& jobs = fio_json.at("jobs");
  for (size_t i = 0; i < jobs.size(); ++i) {
    const auto& job = jobs[i];
    FioGroupStats& rs = groups[job.at("groupid").get<int>()];
    if (i < entries.size()) {
      rs.unified = entries[i].report.unified;
      rs.pow2 = entries[i].pow2;
      rs.sig_figs = entries[i].sig_figs;
    }
    for (int k = 0; k < 3; ++k) {
      const nlohmann::ordered_json* d = fio_direction(job, k);
      if (!d) continue;
      const uint64_t runtime = d->at("runtime").get<uint64_t>(), bytes = d->at("io_bytes").get<uint64_t>();
      if (!runtime) continue;
      rs.min_run[k] = std::min(rs.min_run[k], runtime);
      rs.max_run[k] = std::max(rs.max_run[k], runtime);
      const uint64_t bw = bytes * 1000 / runtime;
      rs.min_bw[k] = std::min(rs.min_bw[k], bw);
      rs.max_bw[k] = std::max(rs.max_bw[k], bw);
      rs.iobytes[k] += bytes;
    }
  }
  for (auto& [g, rs] : groups)
    for (int k = 0; k < 3; ++k)
      if (rs.max_run[k]) rs.agg[k] = rs.iobytes[k] * 1000 / rs.max_run[k];
  return groups;
}

}  // namespace ssdtlm
