// fio job files, read as fio reads them and turned into ssdtlm jobs (the "jobs" array of the configuration).
//
// Syntax (fio HOWTO, "Job file format"): ini sections; [global] (any section whose name starts with
// "global") sets defaults for the jobs below it, every other section is a job that starts from the globals
// seen so far; "key=value" or a bare "key" (a flag) per line; ';' or '#' start a comment anywhere on a line;
// "include FILE" pulls in options (relative to the including file when not found as given; no sections);
// ${VAR} in a value is the environment variable (empty when unset); "(expr)" evaluates + - * / % ^ with
// units on the numbers. Sizes follow fio's kb_base (k = 1024 by default; with kb_base=1024 fio reads
// KiB/MiB/... as powers of 1000, and so do we, with a note), times fio's defaults (seconds for runtime,
// ramp_time, startdelay; microseconds for thinktime).
//
// Each job becomes numjobs ssdtlm jobs, each on one queue pair of depth iodepth. What is modelled:
//   rw/readwrite, rwmixread/rwmixwrite, bs/blocksize, bsrange, bssplit, blockalign, random_distribution
//   (random, zipf, pareto, normal, zoned, zoned_abs), norandommap, randrepeat, randseed, iodepth, numjobs,
//   size, filesize, offset, offset_increment, offset_align, io_size/io_limit, number_ios, loops, runtime,
//   time_based, ramp_time, startdelay, stonewall/wait_for_previous, new_group, group_reporting, thinktime,
//   thinktime_blocks, rate_iops, rate, zonemode=strided with zonerange/zonesize/zoneskip, kb_base,
//   read_iolog (fio iolog v2/v3 replay) with replay_no_stall and replay_time_scale, name.
// Options that do not concern the device (ioengine, direct, filename, logging, CPU placement, ...) are
// accepted and listed in FioJobFile::ignored. Options that would change the I/O but are not modelled
// (wait_for, trimwrite, per-direction sizes that differ, zonemode=zbd, ...) are errors saying so, and so is
// any option fio does not have. Every error is a ConfigError "FILE:LINE: ...".
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ssdtlm {

// Options in order, each by fio's canonical name (parse.c add_to_dump_list writes o->name, not the alias) with its
// value as written.
using FioOptions = std::vector<std::pair<std::string, std::string>>;

// What fio puts in a job's report (fio-json): percentile_list, clat/lat/slat_percentiles, unified_rw_reporting.
struct FioReportOptions {
  std::vector<double> percentiles;  // percentile_list; empty = fio's default list
  bool clat_percentiles = true, lat_percentiles = false, slat_percentiles = false;
  std::string unified = "none";     // unified_rw_reporting: none, mixed (one "mixed" direction) or both
};

struct FioJob {
  std::string name;        // fio's jobname (the section, or its name= option)
  size_t clone = 0;        // 0 .. numjobs - 1
  int group = 0;           // fio reporting group (new after a stonewall or new_group)
  bool group_reporting = false;
  FioOptions options;      // the job section's own options, by fio's canonical names (fio-json "job options")
  bool disk_util = true;   // fio gathers the disk's statistics for it (fio-json "disk_util"): not with disk_util=0 or
                           // an engine that bypasses the kernel's block layer (diskutil.c: FIO_DISKLESSIO, FIO_NODISKUTIL)
  FioReportOptions report;
  nlohmann::json config;   // the ssdtlm job object, an entry of "jobs"
};

struct FioJobFile {
  std::string path;
  std::vector<FioJob> jobs;
  FioOptions global_options;          // every [global] option, in order (fio-json "global options", when any)
  nlohmann::json config;              // merge this: {"jobs": [...]} and, with randseed, {"sim": {"seed": N}}
  std::vector<std::string> ignored;   // options accepted without effect on the device, each once
  std::vector<std::string> notes;     // how a value was read, when fio's reading is surprising
  // The host's CPU cost per I/O that the jobs' ioengine (and hipri) imply (fio_host_engine.h): host_engine, a
  // host.engine value ("" = no cited cost), host_engine_basis why; host_engine_conflict an error "FILE:LINE: ..."
  // when jobs imply different costs (host.engine is one per run). The run applies it unless the configuration sets
  // the host's cost itself (sim/command_line.cpp, apply_fio_host_engine).
  std::string host_engine, host_engine_basis, host_engine_conflict;
};

// Reads `path`. device_bytes is the device's logical capacity: the default size, and what percentages
// (size=20%, offset=10%) refer to; zone_bytes the zoned namespace's zone size (0: not zoned), what fio's zone
// suffix (size=8z, offset=524z) counts in. Throws ConfigError naming file, line and option.
FioJobFile read_fio_job_file(const std::string& path, uint64_t device_bytes, uint64_t zone_bytes = 0);
// The same from text; `path` names it in messages and anchors relative include/read_iolog paths.
FioJobFile parse_fio_job_text(const std::string& text, const std::string& path, uint64_t device_bytes,
                              uint64_t zone_bytes = 0);

}  // namespace ssdtlm
