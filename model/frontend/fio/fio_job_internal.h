// The parts of the fio job file reader (fio_job.h) and how they hand over: Reader (fio_job_reader.cpp) turns the
// text into sections of option lines; Interpreter applies a job's lines to a Spec, fio's view of the job
// (fio_job_options*.cpp: which options there are; fio_job_values.cpp: how their values read); Builder turns a Spec
// into ssdtlm job objects (fio_job_config.cpp); parse_fio_job_text (fio_job.cpp) runs them over the sections.
// Internal to model/frontend/fio.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/text.h"
#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "host/completion_log.h"
#include "workload/placement/placement_workload.h"

namespace ssdtlm {
namespace fio {

// One option line: where it stands, its key (lower case) and its value.
struct Line {
  std::string file;
  int line = 0;
  std::string key, value;
  bool has_value = false;
  std::string unset_vars;  // ${VAR}s in the value that the environment does not set (read as empty, as fio does)
};

[[noreturn]] inline void fail_at(const std::string& file, int line, const std::string& what) {
  throw ConfigError(file + ":" + std::to_string(line) + ": " + what);
}
[[noreturn]] inline void fail(const Line& l, const std::string& what) {
  const std::string v = l.value.size() > 120 ? l.value.substr(0, 120) + "..." : l.value;
  fail_at(l.file, l.line, "option '" + escape_text(l.key) + (l.has_value ? "=" + escape_text(v) : "") + "': " + what +
                              (l.unset_vars.empty() ? "" : " (" + l.unset_vars + " not set in the environment: fio reads it as empty)"));
}
[[noreturn]] inline void not_modelled(const Line& l, const std::string& what) {
  fail(l, "not modelled by ssdtlm: " + what);
}

// ---------------------------------------------------------------------------------------------------------
// fio's option table and engines (fio_option_table.cpp)

enum class OptionClass { NoEffect, Refused, Unknown };  // modelled options are Interpreter::apply's own
std::string canonical_option(const std::string& key);   // fio's alias -> its option; others unchanged
OptionClass classify_option(const std::string& canonical, std::string& why);
bool engine_runs_as_block_io(const std::string& engine, std::string& why);
// Whether fio gathers disk statistics for a job on this (block) engine (fio-json "disk_util").
bool engine_has_disk_util(const std::string& engine);
// Whether fio's direct=0 goes through the kernel's page cache with this engine (fio_option_table.cpp).
bool engine_uses_page_cache(const std::string& engine);

// Errors of one job file, gathered so that one run reports them all (up to kMaxErrors), each once.
class Errors {
 public:
  static constexpr size_t kMaxErrors = 20;
  void add(const std::string& message);
  bool empty() const { return list_.empty(); }
  [[noreturn]] void raise() const;  // one ConfigError listing them, a line each

 private:
  std::vector<std::string> list_;
  size_t dropped_ = 0;
};

// ---------------------------------------------------------------------------------------------------------
// Reading: sections, options, comments, include, ${VAR} (fio_job_reader.cpp)

struct Section {
  std::string name, file;
  int line = 0;
  bool global = false;
  std::vector<Line> options;
};

// The sections of a job file and the files it includes, in order.
class Reader {
 public:
  std::vector<Section> sections;
  Errors* errors = nullptr;  // where a bad line goes (then the next line is read); null: thrown at once

  // Appends the sections and options of `text` (from `path`); nested = an included file (no sections).
  void read_text(const std::string& text, const std::string& path, bool nested, int depth);

 private:
  void read_line(const std::string& raw, const std::string& path, int lineno, bool nested, int depth);
};

// ---------------------------------------------------------------------------------------------------------
// A job's options (fio_job_options.cpp, fio_job_values.cpp)

// "a,b,c" per direction (read, write, trim): a value not ending in a comma applies to the directions after it.
std::array<std::optional<std::string>, 3> per_direction(const Line& l);

struct Amount {
  bool set = false, percent = false, zones = false;  // zones: fio's 'z' suffix, bytes counts zones
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
  std::string wait_for;                 // wait_for=NAME
  Line wait_for_at;
  bool exitall = false;
  std::string exit_what = "group";
  std::string verify = "0";             // fio's verify method; "0" = no verify phase
  bool do_verify = true;
  bool verify_only = false;  // fio verify_only: a dry run of the job's I/O, then the verify phase
  Line verify_only_at;
  uint64_t verify_backlog = 0;
  uint64_t bwavgtime_ms = 500, iopsavgtime_ms = 500;
  // fio's logs: write_*_log's names (set without a value = the job's name), the other log_* options.
  std::optional<std::string> bw_log, lat_log, iops_log, hist_log;
  Line bw_log_at, lat_log_at, iops_log_at, hist_log_at;
  IoLogParams log;                      // log.window unused: log_window holds workload.log_window_value
  std::string log_window = "avg";
  Line log_issue_time_at;
  FioReportOptions report;
  uint64_t latency_target_ns = 0, latency_window_ns = 0;  // fio's latency-target depth search
  double latency_percentile = 100;
  bool latency_run = false;
  std::string ss = "iops_slope:0.01%";  // fio's steady state (active with ss_dur)
  uint64_t ss_dur_ns = 0, ss_ramp_ns = 0, ss_interval_ns = 1000000000;
  Line ss_dur_at;
  std::string rate_process = "linear";
  std::string rw_sequencer = "sequential";
  std::array<uint64_t, 3> percentage_random = {100, 100, 100};  // read, write, trim
  Line percentage_random_at;
  // fio's flow control (flow.c): a weight (0 = none) within the jobs of one flow_id, and the sleep when held.
  uint64_t flow = 0, flow_id = 0, flow_sleep_ns = 0;
  bool fill_device = false;
  // Durability (fio's fsync, fdatasync, end_fsync, fsync_on_close, sync, direct/buffered, writefua).
  uint64_t fsync_blocks = 0;
  bool end_fsync = false, direct = false, writefua = false;
  bool disk_util = true;  // fio's disk_util option
  bool continue_on_error = false;  // fio's continue_on_error other than none: failed commands do not stop the job
  std::string sync_io = "none";  // none, sync (O_SYNC), dsync (O_DSYNC)
  std::string ioengine = "psync";  // fio's default engine
  Line ioengine_at;                // its line (none: fio's default)
  bool hipri = false;              // io_uring, io_uring_cmd, pvsync2: polled completions (the host's engine cost)
  Line flow_at;
  uint64_t think_ns = 0, think_blocks = 1;
  std::string zonemode;
  Line zonemode_at;
  uint64_t zonerange = 0, zonesize = 0, zoneskip = 0;
  uint64_t max_open_zones = 0, job_max_open_zones = 0;  // zonemode=zbd
  bool ignore_zone_limits = false;
  double zone_reset_threshold = 1.0, zone_reset_frequency = 0.0;
  bool zone_append = false;  // write_mode=zone_append
  bool initial_zone_reset = false;  // SPDK's plugins: reset the range's zones before the job
  // SPDK's nvme plugin (app/fio/nvme/fio_plugin.c): enable_wrr, arbitration_burst (2^n commands, 7 = no limit),
  // low_weight, medium_weight, high_weight (0's based, as Set Features Arbitration's fields) and wrr_priority (the
  // queues' QPRIO: 0 urgent, 1 high, 2 medium, 3 low); `at` the first of them in the job.
  struct SpdkWrr {
    bool enable = false;
    uint64_t burst = 0, low = 0, medium = 0, high = 0, priority = 0;
    Line at;
    bool set = false;
  } spdk_wrr;
  // Data placement (fio's dataplacement.c): fdp/dataplacement, fdp_pli/plids, fdp_pli_select/plid_select.
  DataPlacement dataplacement = DataPlacement::None;
  Line dataplacement_at;
  std::string plids, plid_select = "roundrobin";
  Line plids_at;
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

  // Values (fio_job_values.cpp).
  void ignore(const std::string& key);
  void note(const std::string& text);
  // cut: the value of a size option (bs, blockalign, size, offset, io_size, ...), which fio's parser reads up to a
  // separator (bs=4k-512k is 4k, with a note); the others refuse what follows the number.
  uint64_t size_value(const Line& l, const std::string& text, unsigned kb_base, bool cut = false);
  Amount amount(const Line& l, unsigned kb_base, bool allow_percent, bool zero_ok = false);
  uint64_t time_value(const Line& l, double default_unit_ns);
  uint64_t count(const Line& l, unsigned kb_base, uint64_t min = 0);
  bool flag(const Line& l);
  double percent(const Line& l);
  void need_value(const Line& l);

  // Options (fio_job_options.cpp): one option line applied to the job, and the kb_base its lines give.
  void apply(Spec& s, const Line& l);
  unsigned kb_base_of(const std::vector<const Line*>& lines);

 private:
  FioJobFile& out_;
  uint64_t device_;
};

// The modelled options, a table of {canonical name, handler} per concept (fio_job_options*.cpp); an option in none
// of them is classed by fio's option table (classify_option).
using OptionHandler = void (*)(Interpreter& in, Spec& s, const Line& l);
struct ModelledOption {
  const char* name;
  OptionHandler apply;
};
using OptionTable = std::vector<ModelledOption>;
const OptionTable& job_pattern_options();            // rw, block sizes, addresses, random sequences
const OptionTable& job_amount_options();             // depth, clones, region, amount
const OptionTable& job_timing_options();             // runtime, start, groups, exits, verify, errors
const OptionTable& job_pacing_options();             // flow, think time, rates, latency target, steady state
const OptionTable& job_output_options();             // averaging, logs, percentiles, disk statistics
const OptionTable& zone_and_placement_options();     // zonemode, zbd limits, data placement
const OptionTable& spdk_arbitration_options();       // SPDK's enable_wrr, arbitration_burst, weights, wrr_priority
const OptionTable& durability_and_engine_options();  // fsync, sync, direct, FUA, engines, iolog replay

// ---------------------------------------------------------------------------------------------------------
// Spec -> ssdtlm job objects (fio_job_config.cpp)

class Builder {
 public:
  Builder(Interpreter& in, uint64_t device, uint64_t zone_bytes) : in_(in), device_(device), zone_bytes_(zone_bytes) {}

  // The job objects for one fio job (numjobs of them).
  std::vector<nlohmann::json> build(const Spec& s);

 private:
  Interpreter& in_;
  uint64_t device_;
  uint64_t zone_bytes_;  // the zoned namespace's zone size, 0 = not zoned
};

}  // namespace fio
}  // namespace ssdtlm
