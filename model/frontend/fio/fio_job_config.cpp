// A fio job (Spec) as ssdtlm job objects (JobBuilder, fio_job_builder.h): what the clones share (operations,
// block sizes, region, address distribution) and each clone's range and distribution; the rest of each clone
// (amount, pacing, logs, rates, zones, iolog replay) is fio_job_clone.cpp's.
#include "frontend/fio/fio_job_builder.h"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "common/text.h"
#include "common/units.h"
#include "workload/synthetic/address_distribution.h"
#include "workload/synthetic/size_mix.h"

namespace ssdtlm {
namespace fio {

std::string num(double v) {
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

namespace {

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

// rw= read: its directions and their shares.
Pattern read_pattern(const Spec& s) {
  Pattern p;
  p.rw = s.rw;
  if (const size_t colon = p.rw.find(':'); colon != std::string::npos) {  // fio's rw=randread:8, rw=write:4k
    p.modifier = p.rw.substr(colon + 1);
    p.rw = p.rw.substr(0, colon);
    if (p.modifier.empty()) fail(s.rw_at, "expected a number (random) or a size (sequential) after ':'");
  }
  const std::string& rw = p.rw;
  if (rw == "read" || rw == "randread") {
    p.rf = 1;
    p.d.r = true;
  } else if (rw == "write" || rw == "randwrite") {
    p.d.w = true;
  } else if (rw == "trim" || rw == "randtrim") {
    p.tf = 1;
    p.d.t = true;
  } else if (rw == "rw" || rw == "readwrite" || rw == "randrw") {
    p.rf = s.rwmixread / 100.0;
    p.d.r = p.rf > 0;
    p.d.w = p.rf < 1;
  } else if (rw == "trimwrite" || rw == "randtrimwrite") {
    not_modelled(s.rw_at, "trim+write sequences");
  } else {
    fail(s.rw_at, "expected read, write, trim, randread, randwrite, randtrim, rw, readwrite or randrw");
  }
  p.random = rw.compare(0, 4, "rand") == 0;
  return p;
}

}  // namespace

std::vector<nlohmann::json> JobBuilder::build() {
  const Spec& s = s_;
  nlohmann::json j = nlohmann::json::object();
  j["queues"] = 1;
  j["queue_depth"] = s.iodepth;
  p_ = read_pattern(s);
  trace_ = !s.read_iolog.empty();
  set_block_sizes(j);
  j["preset"] = "none";

  // Region: offset and size (percentages of the device), clones by offset_increment.
  align_ = s.offset_align ? s.offset_align : std::max<uint64_t>(min_bs_, 1);
  const uint64_t offset = s.offset.set ? resolve(s.offset, true) : 0;
  const uint64_t increment = s.offset_increment.set ? resolve(s.offset_increment, true) : 0;
  read_distribution();

  std::vector<nlohmann::json> jobs;
  for (uint64_t k = 0; k < s.numjobs; ++k) jobs.push_back(clone(j, k, offset + k * increment));
  return jobs;
}

// NVMe passthrough engines send whole logical blocks (fio checks bs against the LBA size): a size that is not
// whole 512-byte sectors, such as 4160, is an extended-LBA format (data and metadata in each block), which the
// modelled namespace does not have. Other engines go through files and may send any size.
void JobBuilder::check_sectors(const Line& at, uint64_t b) const {
  const bool passthrough = s_.ioengine == "io_uring_cmd" || s_.ioengine == "xnvme" || s_.ioengine == "spdk";
  if (passthrough && b % 512)
    not_modelled(at, "a block size of " + std::to_string(b) + " bytes, not whole 512-byte sectors (an extended-LBA "
                     "format with metadata in each block; the namespace has 512-byte sectors without metadata)");
}

// Sizes: bssplit, else bsrange, else bs; then blockalign.
void JobBuilder::set_block_sizes(nlohmann::json& j) {
  const Spec& s = s_;
  const Directions& d = p_.d;
  if (auto split = one_value(s.bssplit, d, s.bssplit_at, "bssplit")) {
    min_bs_ = bssplit_sizes(*split, j);
  } else if (auto range = one_value(s.bsrange, d, s.bsrange_at, "bsrange")) {
    min_bs_ = bsrange_sizes(*range, j);
  } else {
    const auto bs = one_value(s.bs, d, s.bs_at, "block sizes (bs)");
    const uint64_t b = bs ? in_.size_value(s.bs_at, *bs, s.kb_base, true) : 4096;
    if (b == 0) fail(s.bs_at, "a block size of 0");
    check_sectors(s.bs_at, b);
    j["bssplit"] = "";
    j["block_bytes"] = b;
    min_bs_ = b;
  }
  if (auto ba = one_value(s.blockalign, d, s.blockalign_at, "block alignments")) {
    const uint64_t align = in_.size_value(s.blockalign_at, *ba, s.kb_base, true);
    if (align % 512) fail(s.blockalign_at, "expected a multiple of 512 bytes (a sector)");
    j["block_align"] = align;
    aligned_ = true;
  } else {
    j["block_align"] = 0;
  }
}

// bssplit=SIZE/PERCENT:...: the sizes in bytes; returns the smallest.
uint64_t JobBuilder::bssplit_sizes(const std::string& split, nlohmann::json& j) {
  const Spec& s = s_;
  std::string canon;
  uint64_t lo = 0;
  for (const auto& tok : ssdtlm::split(split, ':')) {
    const auto slash = tok.find('/');
    const std::string size_tok(trim(tok.substr(0, slash)));
    const uint64_t b = in_.size_value(s.bssplit_at, size_tok, s.kb_base);
    if (b == 0 || b > 0xFFFFFFFFull) fail(s.bssplit_at, "block size '" + size_tok + "' out of range");
    check_sectors(s.bssplit_at, b);
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
  return lo;
}

// bsrange=LOW-HIGH: every multiple of LOW up to HIGH, equally likely; returns LOW.
uint64_t JobBuilder::bsrange_sizes(const std::string& range, nlohmann::json& j) {
  const Spec& s = s_;
  const size_t sep = range.find_first_of("-:");
  if (sep == std::string::npos || sep == 0) fail(s.bsrange_at, "expected a range such as 4k-64k");
  uint64_t lo = in_.size_value(s.bsrange_at, std::string(trim(range.substr(0, sep))), s.kb_base);
  uint64_t hi = in_.size_value(s.bsrange_at, std::string(trim(range.substr(sep + 1))), s.kb_base);
  if (lo > hi) fail(s.bsrange_at, "expected the smaller block size first (LOW-HIGH, such as 4k-64k)");
  if (lo == 0) fail(s.bsrange_at, "a block size of 0");
  check_sectors(s.bsrange_at, lo);
  if (hi / lo > 4096) not_modelled(s.bsrange_at, "more than 4096 block sizes in a range");
  std::string canon;  // every multiple of the smallest size, equally likely (fio's draw, to a multiple of lo)
  for (uint64_t k = 1; k * lo <= hi; ++k) canon += (canon.empty() ? "" : ":") + std::to_string(k * lo) + "/";
  j["bssplit"] = canon;
  j["block_bytes"] = lo;
  return lo;
}

// An amount in bytes: zones ('z') of the zoned namespace, or a percentage of the device rounded to align_.
uint64_t JobBuilder::resolve(const Amount& a, bool round_up) const {
  if (a.zones) {
    if (s_.zonemode != "zbd" || zone_bytes_ == 0)
      fail(a.at, s_.zonemode != "zbd" ? "a size in zones ('z') needs zonemode=zbd (as in fio)"
                                      : "a size in zones ('z') needs a zoned namespace (zns.enabled=true)");
    return a.bytes * zone_bytes_;
  }
  if (!a.percent) return a.bytes;
  const long double raw = (long double)device_ * a.pct / 100.0L;
  uint64_t v = uint64_t(raw);
  if (round_up)
    v = (v + align_ - 1) / align_ * align_;
  else
    v -= v % align_;
  return v;
}

// Address distribution (random_distribution, per direction).
void JobBuilder::read_distribution() {
  const Spec& s = s_;
  std::string dist = s.dist;
  if (dist.find(',') != std::string::npos) {
    std::array<std::optional<std::string>, 3> per;
    const auto parts = ssdtlm::split(dist, ',');
    // "zoned:a/b:c/d,zoned:..." or "zoned:a/b,c/d": directions after the first inherit its name
    std::string name = parts[0].substr(0, parts[0].find(':'));
    for (size_t k = 0; k < 3; ++k) {
      std::string p(trim(k < parts.size() ? parts[k] : parts.back()));
      if (!p.empty() && !std::isalpha(static_cast<unsigned char>(p[0]))) p = name + ":" + p;
      per[k] = p;
    }
    dist = *one_value(per, p_.d, s.dist_at, "random distributions");
  }
  const std::string dname = lower(dist.substr(0, dist.find(':')));
  if (dname == "sequence") not_modelled(s.dist_at, "the 'sequence' random distribution");
  if ((dname == "zipf" || dname == "pareto" || dname == "normal") &&
      std::count(dist.begin(), dist.end(), ':') > 1)
    not_modelled(s.dist_at, "a centre for zipf/pareto/normal (the second value); ssdtlm scatters the hot ranks as fio does without one");
  if (!p_.random && dname != "random") {  // fio draws no random offset, so the distribution is never used
    in_.note(s.dist_at.file + ":" + std::to_string(s.dist_at.line) +
             ": random_distribution has no effect on sequential I/O (rw=" + p_.rw + ")");
    dist_ = dname_ = "random";
    return;
  }
  dist_ = dist;
  dname_ = dname;
}

// Clone k of the job, at offset off.
nlohmann::json JobBuilder::clone(const nlohmann::json& common, uint64_t k, uint64_t off) {
  nlohmann::json c = common;
  const uint64_t size = clone_size(k, off);
  c["address_offset"] = off;
  c["address_range"] = size;
  c["distribution"] = clone_distribution(size);
  // fio keeps a random map (every block once per pass) unless norandommap or blockalign; it is not used
  // by zipf, pareto or normal.
  c["random_map"] = !s_.norandommap && !aligned_;
  set_amount_and_timing(c, k, size);
  set_logs_and_targets(c);
  set_verify_and_durability(c);
  c["rate_iops"] = job_rate(s_.rate_iops, s_.rate_iops_at, "rate_iops");
  c["rate_mbps"] = job_rate(s_.rate, s_.rate_at, "rate") / 1e6;
  // fio's rate_process shapes the gaps of a rate; without one it has nothing to shape.
  c["rate_process"] = c["rate_iops"].get<double>() > 0 || c["rate_mbps"].get<double>() > 0 ? s_.rate_process : "linear";
  set_zones_and_placement(c);
  set_pattern(c, k, size);
  return c;
}

// The clone's range from its offset: fio's filesetup.c (setup_files): size=0 is no size (the device from the
// offset to its end); a percentage is of the whole device, cut at its end (each offset_increment clone) and down
// to the smallest block size. fill_device: fio writes until the device is full (ENOSPC), on a block device its end.
uint64_t JobBuilder::clone_size(uint64_t k, uint64_t off) const {
  const Spec& s = s_;
  if (off >= device_)
    fail_at(s.file, s.line, "job '" + s.section + "'" + (s.numjobs > 1 ? " clone " + std::to_string(k) : "") +
                                ": offset " + format_bytes(off) + " lies beyond the device (" +
                                format_size(double(device_)) + ")");
  uint64_t size = s.size.set && !s.fill_device ? resolve(s.size, false) : device_ - off;
  if (size == 0 && !s.size.percent) size = device_ - off;
  if (s.size.percent && !s.fill_device && size > device_ - off) size = (device_ - off) - (device_ - off) % std::max<uint64_t>(min_bs_, 1);
  if (size == 0) fail(s.size.at, "a size of 0 bytes from offset " + format_bytes(off) + " (the device ends there)");
  if (size > device_ - off)
    fail_at(s.file, s.line, "job '" + s.section + "': offset + size = " + format_size(double(off + size)) +
                                " (" + std::to_string(off + size) + " bytes) lies beyond the device (" +
                                format_size(double(device_)) + ")");
  return size;
}

// The distribution over the clone's range: zoned_abs's absolute zone sizes become percentages of it.
std::string JobBuilder::clone_distribution(uint64_t size) const {
  const Spec& s = s_;
  const std::string& dist = dist_;
  std::string dk = dist;
  if (dname_ == "zoned_abs") {  // absolute zone sizes -> percentages of this job's range
    const std::string body = dist.substr(dist.find(':') == std::string::npos ? dist.size() : dist.find(':') + 1);
    std::string zoned = "zoned";
    long double used = 0;
    for (const auto& z : ssdtlm::split(body, ':')) {
      const auto slash = z.find('/');
      if (slash == std::string::npos) fail(s.dist_at, "expected zoned_abs:<access%>/<size>[:...]");
      const uint64_t b = in_.size_value(s.dist_at, std::string(trim(z.substr(slash + 1))), s.kb_base);
      used += b;
      zoned += ":" + std::string(trim(z.substr(0, slash))) + "/" + num(double(100.0L * b / size));
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
  return dk;
}

std::vector<nlohmann::json> Builder::build(const Spec& s) {
  return JobBuilder(in_, s, device_, zone_bytes_).build();
}

}  // namespace fio
}  // namespace ssdtlm
