// A fio job (Spec) as ssdtlm job objects: operations, sizes, region, address distribution, amount, pacing,
// rates, strided zones and iolog replay.
#include "frontend/fio/fio_job_internal.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/text.h"
#include "common/units.h"
#include "workload/synthetic/address_distribution.h"
#include "workload/synthetic/size_mix.h"

namespace ssdtlm {
namespace fio {

namespace {

namespace fs = std::filesystem;

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

// A write_*_log's name (fio's make_log_name: one without a name takes the job's). The logs go into --out: a name
// with folders (fio-plot's bench-fio writes "DIR/NAME") keeps its last part, and a note says where fio would write it.
std::string log_name(Interpreter& in, const Spec& s, const std::optional<std::string>& v, const Line& at) {
  if (!v) return "";
  std::string name = v->empty() ? s.name : *v;
  if (const size_t slash = name.find_last_of('/'); slash != std::string::npos) {
    const std::string base = name.substr(slash + 1);
    if (!base.empty() && base != "." && base != "..")
      in.note(at.file + ":" + std::to_string(at.line) + ": " + at.key + "=" + name + ": fio writes " + name +
              "_*.log; ssdtlm writes the logs into --out, as " + base + "_*.log");
    name = base;
  }
  if (name.empty() || name == "." || name == "..")
    fail(at, v->empty() ? "the log takes the job's name '" + s.name + "', which is not a file name (the logs go into --out): "
                          "give it a name"
                        : "expected a file name at the end of the log's path, got '" + *v + "'");
  return name;
}

}  // namespace

std::vector<nlohmann::json> Builder::build(const Spec& s) {
  nlohmann::json j = nlohmann::json::object();
  j["queues"] = 1;
  j["queue_depth"] = s.iodepth;

  // Operations and pattern.
  Directions d;
  std::string rw = s.rw, modifier;
  if (const size_t colon = rw.find(':'); colon != std::string::npos) {  // fio's rw=randread:8, rw=write:4k
    modifier = rw.substr(colon + 1);
    rw = rw.substr(0, colon);
    if (modifier.empty()) fail(s.rw_at, "expected a number (random) or a size (sequential) after ':'");
  }
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
  // NVMe passthrough engines send whole logical blocks (fio checks bs against the LBA size): a size that is not
  // whole 512-byte sectors, such as 4160, is an extended-LBA format (data and metadata in each block), which the
  // modelled namespace does not have. Other engines go through files and may send any size.
  const bool passthrough = s.ioengine == "io_uring_cmd" || s.ioengine == "xnvme" || s.ioengine == "spdk";
  const auto sectors = [&](const Line& at, uint64_t b) {
    if (passthrough && b % 512)
      not_modelled(at, "a block size of " + std::to_string(b) + " bytes, not whole 512-byte sectors (an extended-LBA "
                       "format with metadata in each block; the namespace has 512-byte sectors without metadata)");
  };
  if (auto split = one_value(s.bssplit, d, s.bssplit_at, "bssplit")) {
    std::string canon;
    uint64_t lo = 0;
    for (const auto& tok : ssdtlm::split(*split, ':')) {
      const auto slash = tok.find('/');
      const std::string size_tok(trim(tok.substr(0, slash)));
      const uint64_t b = in_.size_value(s.bssplit_at, size_tok, s.kb_base);
      if (b == 0 || b > 0xFFFFFFFFull) fail(s.bssplit_at, "block size '" + size_tok + "' out of range");
      sectors(s.bssplit_at, b);
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
    uint64_t lo = in_.size_value(s.bsrange_at, std::string(trim(range->substr(0, sep))), s.kb_base);
    uint64_t hi = in_.size_value(s.bsrange_at, std::string(trim(range->substr(sep + 1))), s.kb_base);
    if (lo > hi) fail(s.bsrange_at, "expected the smaller block size first (LOW-HIGH, such as 4k-64k)");
    if (lo == 0) fail(s.bsrange_at, "a block size of 0");
    sectors(s.bsrange_at, lo);
    if (hi / lo > 4096) not_modelled(s.bsrange_at, "more than 4096 block sizes in a range");
    std::string canon;  // every multiple of the smallest size, equally likely (fio's draw, to a multiple of lo)
    for (uint64_t k = 1; k * lo <= hi; ++k) canon += (canon.empty() ? "" : ":") + std::to_string(k * lo) + "/";
    j["bssplit"] = canon;
    j["block_bytes"] = lo;
    min_bs = lo;
  } else {
    const auto bs = one_value(s.bs, d, s.bs_at, "block sizes (bs)");
    const uint64_t b = bs ? in_.size_value(s.bs_at, *bs, s.kb_base, true) : 4096;
    if (b == 0) fail(s.bs_at, "a block size of 0");
    sectors(s.bs_at, b);
    j["bssplit"] = "";
    j["block_bytes"] = b;
    min_bs = b;
  }
  bool aligned = false;
  if (auto ba = one_value(s.blockalign, d, s.blockalign_at, "block alignments")) {
    const uint64_t align = in_.size_value(s.blockalign_at, *ba, s.kb_base, true);
    if (align % 512) fail(s.blockalign_at, "expected a multiple of 512 bytes (a sector)");
    j["block_align"] = align;
    aligned = true;
  } else {
    j["block_align"] = 0;
  }
  j["preset"] = "none";

  // Region: offset and size (percentages of the device), clones by offset_increment.
  const uint64_t align = s.offset_align ? s.offset_align : std::max<uint64_t>(min_bs, 1);
  auto resolve = [&](const Amount& a, bool round_up) -> uint64_t {
    if (a.zones) {
      if (s.zonemode != "zbd" || zone_bytes_ == 0)
        fail(a.at, s.zonemode != "zbd" ? "a size in zones ('z') needs zonemode=zbd (as in fio)"
                                      : "a size in zones ('z') needs a zoned namespace (zns.enabled=true)");
      return a.bytes * zone_bytes_;
    }
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
      std::string p(trim(k < parts.size() ? parts[k] : parts.back()));
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
    // fill_device: fio writes until the device is full (ENOSPC), on a block device its end
    // fio's filesetup.c (setup_files): size=0 is no size (the device from the offset to its end); a percentage is
    // of the whole device, cut at its end (each offset_increment clone) and down to the smallest block size.
    uint64_t size = s.size.set && !s.fill_device ? resolve(s.size, false) : device_ - off;
    if (size == 0 && !s.size.percent) size = device_ - off;
    if (s.size.percent && !s.fill_device && size > device_ - off) size = (device_ - off) - (device_ - off) % std::max<uint64_t>(min_bs, 1);
    if (size == 0) fail(s.size.at, "a size of 0 bytes from offset " + std::to_string(off) + " (the device ends there)");
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
    c["wait_for"] = s.wait_for;
    c["bw_avg_ms"] = double(s.bwavgtime_ms);
    c["iops_avg_ms"] = double(s.iopsavgtime_ms);
    c["exit_what"] = s.exitall ? s.exit_what : "none";
    // fio's logs (make_log_name: a write_*_log without a name takes the job's; log_name).
    if (s.log.issue_time && (!s.lat_log || !s.log.offset))
      fail(s.log_issue_time_at, "log_issue_time needs write_lat_log and log_offset (as fio says)");
    c["latency_target_us"] = double(s.latency_target_ns) / 1e3;
    c["latency_window_ms"] = double(s.latency_window_ns) / 1e6;
    c["latency_percentile"] = s.latency_percentile;
    c["latency_run"] = s.latency_run;
    c["ss"] = s.ss;
    c["ss_dur_ms"] = double(s.ss_dur_ns) / 1e6;
    c["ss_ramp_ms"] = double(s.ss_ramp_ns) / 1e6;
    c["ss_interval_ms"] = double(s.ss_interval_ns) / 1e6;
    if (s.ss_dur_ns && s.ss_dur_ns < s.ss_interval_ns) fail(s.ss_dur_at, "ss_dur is shorter than ss_interval");
    c["log_bw"] = log_name(in_, s, s.bw_log, s.bw_log_at);
    c["log_lat"] = log_name(in_, s, s.lat_log, s.lat_log_at);
    c["log_iops"] = log_name(in_, s, s.iops_log, s.iops_log_at);
    c["log_hist"] = log_name(in_, s, s.hist_log, s.hist_log_at);
    c["log_avg_ms"] = s.log.avg_ms;
    c["log_hist_ms"] = s.log.hist_ms;
    c["log_hist_coarseness"] = s.log.hist_coarseness;
    c["log_window_value"] = s.log_window;
    c["log_offset"] = s.log.offset;
    c["log_issue_time"] = s.log.issue_time;
    c["log_prio"] = s.log.prio;
    c["log_per_job"] = s.log.per_job;
    c["disable_lat"] = s.log.no_lat;
    c["disable_clat"] = s.log.no_clat;
    c["disable_slat"] = s.log.no_slat;
    // fio's verify phase: a job that writes reads back what it wrote (verify=null too: it reads, it does not
    // compare); a job that only reads checks what it reads, with no I/O of its own.
    const bool verifying = s.verify != "0" && s.do_verify && d.w;
    if (verifying && trace) not_modelled(s.read_iolog_at, "a verify phase after an iolog replay");
    if (s.flow && trace) not_modelled(s.flow_at, "flow control of an iolog replay");
    c["verify"] = verifying;
    c["stop_on_error"] = !s.continue_on_error;  // fio: a job ends at its first error unless continue_on_error
    // Durability (fio: only a job that writes syncs, should_fsync). sync=1/dsync with direct I/O: Linux marks the
    // writes REQ_FUA (block/fops.c, an O_DSYNC direct write); buffered, the write is followed by the file's sync
    // (generic_write_sync -> blkdev_fsync: an NVMe Flush after every write).
    const bool osync = s.sync_io != "none" && d.w;
    c["fsync"] = d.w ? (osync && !s.direct ? uint64_t(1) : s.fsync_blocks) : uint64_t(0);
    c["fsync_end"] = d.w && s.end_fsync;
    c["write_fua"] = d.w && ((osync && s.direct) || s.writefua);
    c["verify_backlog"] = verifying ? s.verify_backlog : 0;
    c["flow"] = s.flow;
    c["flow_id"] = s.flow_id;
    c["flow_sleep_us"] = double(s.flow_sleep_ns) / 1e3;
    c["thinktime_us"] = double(s.think_ns) / 1e3;
    c["thinktime_blocks"] = s.think_blocks;

    // Rates: fio caps each direction at its own rate (a single value applies to every direction). A job's one
    // cap is the sum over the directions it uses, which gives each its rate when the mix is in the rates' ratio
    // (rw=randrw, rate=300: 300 B/s of reads and 300 of writes). In another ratio fio shifts the mix so that each
    // direction meets its rate (io_u.c rate_ddir), which the job's fixed mix does not reproduce: refused.
    const auto job_rate = [&](const std::array<std::optional<std::string>, 3>& v, const Line& at, const char* what) {
      static const char* const kDir[3] = {"read", "write", "trim"};
      const bool used[3] = {d.r, d.w, d.t};
      const double share[3] = {rf, 1.0 - rf - tf, tf};
      double value[3] = {0, 0, 0}, sum = 0;
      int uses = 0, capped = 0;
      for (int k = 0; k < 3; ++k) {
        if (!used[k]) continue;  // a rate of a direction the job does not use has no effect, as in fio
        ++uses;
        if (!v[k]) continue;
        ++capped;
        value[k] = double(in_.size_value(at, *v[k], s.kb_base));
        sum += value[k];
      }
      if (capped > 0 && capped < uses)
        not_modelled(at, std::string("a ") + what + " for some of the job's directions only (fio caps those, the others run free)");
      if (capped > 1)
        for (int k = 0; k < 3; ++k)
          if (used[k] && std::abs(value[k] / sum - share[k]) > 1e-6)
            not_modelled(at, std::string(what) + " per direction in another ratio than the job's mix (" + kDir[k] + " " +
                                 num(value[k]) + " of " + num(sum) + ", " + num(100 * share[k]) + " % of its I/O): fio " +
                                 "then shifts the mix so that each direction meets its rate; ssdtlm keeps the mix");
      return sum;
    };
    c["rate_iops"] = job_rate(s.rate_iops, s.rate_iops_at, "rate_iops");
    c["rate_mbps"] = job_rate(s.rate, s.rate_at, "rate") / 1e6;

    // fio's rate_process shapes the gaps of a rate; without one it has nothing to shape.
    c["rate_process"] = c["rate_iops"].get<double>() > 0 || c["rate_mbps"].get<double>() > 0 ? s.rate_process : "linear";

    // Zoned block device (zonemode=zbd): the zones are the namespace's (zns.*); zonesize is read from the device.
    const bool zbd = s.zonemode == "zbd";
    c["zbd"] = zbd;
    if (zbd) {
      uint64_t open = s.max_open_zones;
      if (s.job_max_open_zones && (!open || s.job_max_open_zones < open)) open = s.job_max_open_zones;
      c["zbd_max_open"] = open;
      c["zbd_ignore_limits"] = s.ignore_zone_limits;
      c["zbd_reset_threshold"] = s.zone_reset_threshold;
      c["zbd_reset_frequency"] = s.zone_reset_frequency;
      c["zbd_append"] = s.zone_append;
    }
    // Strided zones.
    const bool strided = s.zonemode == "strided" || (s.zonemode.empty() && s.zonesize > 0);
    if (s.zonemode == "strided" && s.zonesize == 0) fail(s.zonemode_at, "zonemode=strided needs zonesize");
    if (s.zonemode == "none" && s.zonesize) fail(s.zonemode_at, "zonemode=none and zonesize do not go together");
    if (zbd && s.zonesize) in_.note(s.zonemode_at.file + ": zonesize=" + std::to_string(s.zonesize) +
                                    " with zonemode=zbd: the zoned namespace's zone size applies (zns.zone_bytes), as fio reads it from the device");
    c["zone_range"] = strided ? (s.zonerange ? s.zonerange : s.zonesize) : 0;
    c["zone_size"] = strided ? s.zonesize : 0;
    c["zone_skip"] = strided ? s.zoneskip : 0;

    // Data placement on the writes.
    if (s.dataplacement == "streams" && s.plids.empty())
      fail(s.dataplacement_at, "dataplacement=streams needs the stream ids (plids)");
    c["dataplacement"] = s.dataplacement;
    c["plids"] = s.plids;
    c["plid_select"] = s.plid_select;

    if (trace) {
      fs::path p(s.read_iolog);
      if (p.is_relative() && !fs::exists(p)) p = fs::path(s.file).parent_path() / p;
      c["pattern"] = "trace";
      c["trace_path"] = p.string();
      c["trace_format"] = "fio_iolog";
      c["trace_timing"] = s.replay_no_stall ? "closed" : "open";
      c["trace_time_scale"] = 100.0 / s.replay_time_scale;
      c["percentage_random"] = "100";
    } else {
      c["pattern"] = random ? "random" : "sequential";
      // fio's modifier: for a random rw, a new random offset every <nr> I/Os (sequential in between, or the same
      // offset with rw_sequencer=identical); for a sequential one, a hole of <size> bytes after each I/O.
      if (!modifier.empty() && random) {
        const uint64_t n = in_.size_value(s.rw_at, modifier, s.kb_base);
        if (n < 1) fail(s.rw_at, "expected at least 1 I/O between random offsets");
        c["random_run"] = n;
        c["random_run_repeat"] = s.rw_sequencer == "identical";
      } else if (!modifier.empty()) {  // a negative size goes backwards (fio's ddir_seq_add < 0)
        const bool back = modifier[0] == '-';
        const int64_t skip = int64_t(in_.size_value(s.rw_at, back ? modifier.substr(1) : modifier, s.kb_base));
        if (skip >= int64_t(size)) fail(s.rw_at, "a skip of the job's whole range or more");
        c["sequential_skip"] = back ? -skip : skip;
      }
      // fio's percentage_random: the share of the random offsets that are random (per direction).
      const auto& pr = s.percentage_random;
      const bool partly = pr[0] < 100 || pr[1] < 100 || pr[2] < 100;
      c["percentage_random"] = random && partly ? std::to_string(pr[0]) + "," + std::to_string(pr[1]) + "," +
                                                      std::to_string(pr[2])
                                                : "100";
      if (!random && k == 0 && partly)
        in_.note(s.percentage_random_at.file + ":" + std::to_string(s.percentage_random_at.line) +
                 ": percentage_random has no effect on sequential I/O (rw=" + rw + ")");
      c["read_fraction"] = rf;
      c["trim_fraction"] = tf;
    }
    jobs.push_back(std::move(c));
  }
  return jobs;
}

}  // namespace fio
}  // namespace ssdtlm
