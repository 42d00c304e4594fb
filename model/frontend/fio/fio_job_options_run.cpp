// The fio options of how a job runs and what it reports, a table each (Interpreter::apply, fio_job_options.cpp):
// timing, groups, verify, pacing (flow, think time, rates, latency target, steady state), logs and reporting.
#include "frontend/fio/fio_job_internal.h"

#include <cstdlib>

#include "common/text.h"
#include "host/steady_state.h"

namespace ssdtlm {
namespace fio {

namespace {
// write_bw_log, write_lat_log, write_iops_log, write_hist_log: the name (empty: the job's, checked when the job
// is built) and where it was given.
void set_log_name(Spec& s, const std::string& key, const Line& l) {
  const bool bw = key == "write_bw_log", lat = key == "write_lat_log", iops = key == "write_iops_log";
  (bw ? s.bw_log : lat ? s.lat_log : iops ? s.iops_log : s.hist_log) = l.value;
  (bw ? s.bw_log_at : lat ? s.lat_log_at : iops ? s.iops_log_at : s.hist_log_at) = l;
}
}  // namespace

// When and how long: runtime, start, stonewall groups, exits, the verify phase, errors.
const OptionTable& job_timing_options() {
  static const OptionTable table = {
    {"runtime", [](Interpreter& in, Spec& s, const Line& l) { s.runtime_ns = in.time_value(l, 1e9); }},
    {"time_based", [](Interpreter& in, Spec& s, const Line& l) {
       s.time_based = in.flag(l);
       s.time_based_at = l;
     }},
    {"ramp_time", [](Interpreter& in, Spec& s, const Line& l) { s.ramp_ns = in.time_value(l, 1e9); }},
    {"startdelay", [](Interpreter& in, Spec& s, const Line& l) {
       if (l.value.find_first_of(":-") != std::string::npos && l.value.find_first_of(":-") > 0)
         not_modelled(l, "a random start delay from a range (give one value)");
       s.startdelay_ns = in.time_value(l, 1e9);
     }},
    {"stonewall", [](Interpreter& in, Spec& s, const Line& l) { s.stonewall = in.flag(l); }},
    {"wait_for", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.wait_for = l.value;
       s.wait_for_at = l;
     }},
    {"exitall", [](Interpreter& in, Spec& s, const Line& l) { s.exitall = in.flag(l); }},
    {"exit_what", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.exit_what = lower(l.value);
       if (s.exit_what != "group" && s.exit_what != "stonewall" && s.exit_what != "all")
         fail(l, "expected group, stonewall or all");
     }},
    {"new_group", [](Interpreter& in, Spec& s, const Line& l) { s.new_group = in.flag(l); }},
    {"group_reporting", [](Interpreter& in, Spec& s, const Line& l) { s.group_reporting = in.flag(l); }},
    {"verify", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.verify = lower(l.value);
     }},
    {"do_verify", [](Interpreter& in, Spec& s, const Line& l) { s.do_verify = in.flag(l); }},
    {"verify_only", [](Interpreter& in, Spec& s, const Line& l) {
       s.verify_only = in.flag(l);
       s.verify_only_at = l;
     }},
    {"verify_backlog", [](Interpreter& in, Spec& s, const Line& l) { s.verify_backlog = in.count(l, s.kb_base); }},
    // options.c: none/0 (fio's default: stop), write, read, io, verify, all/1
    {"continue_on_error", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const std::string v = lower(l.value);
       if (v != "none" && v != "0" && v != "false" && v != "write" && v != "read" && v != "io" && v != "verify" &&
           v != "all" && v != "1" && v != "true")
         fail(l, "expected none, write, read, io, verify or all (or 0, 1)");
       s.continue_on_error = v != "none" && v != "0" && v != "false";
     }},
  };
  return table;
}

// How fast: flow control, think time, rates, the latency target, steady state.
const OptionTable& job_pacing_options() {
  static const OptionTable table = {
    {"flow", [](Interpreter& in, Spec& s, const Line& l) {
       // fio 3.42 reads flow as an int and stores it in an unsigned weight: -3 (fio's older signed flow counter)
       // passes its FLOW_MAX_WEIGHT check and becomes 2^32 - 3; resolve_wrapped_flows decides what that does.
       const std::string v(trim(l.value));
       if (!v.empty() && v[0] == '-') {
         Line magnitude = l;
         magnitude.value = v.substr(1);
         const uint64_t n = in.count(magnitude, s.kb_base, 1);
         if (n > (1ull << 31)) fail(l, "expected a weight of at most 1000 (fio's FLOW_MAX_WEIGHT)");
         s.flow = (1ull << 32) - n;
       } else {
         s.flow = in.count(l, s.kb_base);
         if (s.flow > 1000) fail(l, "expected a weight of at most 1000 (fio's FLOW_MAX_WEIGHT)");
       }
       s.flow_at = l;
     }},
    {"flow_id", [](Interpreter& in, Spec& s, const Line& l) { s.flow_id = in.count(l, s.kb_base); }},
    {"flow_sleep", [](Interpreter& in, Spec& s, const Line& l) { s.flow_sleep_ns = in.time_value(l, 1e3); }},
    {"thinktime", [](Interpreter& in, Spec& s, const Line& l) { s.think_ns = in.time_value(l, 1e3); }},
    {"thinktime_blocks", [](Interpreter& in, Spec& s, const Line& l) { s.think_blocks = in.count(l, s.kb_base, 1); }},
    {"thinktime_blocks_type", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       if (lower(l.value) != "complete") not_modelled(l, "think time counted at issue (ssdtlm counts completions)");
     }},
    {"rate_iops", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.rate_iops = per_direction(l);
       s.rate_iops_at = l;
     }},
    {"rate", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.rate = per_direction(l);
       s.rate_at = l;
     }},
    {"rate_process", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.rate_process = lower(l.value);
       if (s.rate_process != "linear" && s.rate_process != "poisson") fail(l, "expected linear or poisson");
     }},
    {"latency_target", [](Interpreter& in, Spec& s, const Line& l) { s.latency_target_ns = in.time_value(l, 1e3); }},
    {"latency_window", [](Interpreter& in, Spec& s, const Line& l) { s.latency_window_ns = in.time_value(l, 1e3); }},
    {"latency_percentile", [](Interpreter& in, Spec& s, const Line& l) { s.latency_percentile = in.percent(l); }},
    {"latency_run", [](Interpreter& in, Spec& s, const Line& l) { s.latency_run = in.flag(l); }},
    {"steadystate", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       try {
         parse_steady_state(lower(l.value));
       } catch (const std::invalid_argument& e) {
         fail(l, e.what());
       }
       s.ss = lower(l.value);
     }},
    {"steadystate_duration", [](Interpreter& in, Spec& s, const Line& l) {
       s.ss_dur_ns = in.time_value(l, 1e9);
       s.ss_dur_at = l;
     }},
    {"steadystate_ramp_time", [](Interpreter& in, Spec& s, const Line& l) { s.ss_ramp_ns = in.time_value(l, 1e9); }},
    {"steadystate_check_interval", [](Interpreter& in, Spec& s, const Line& l) {
       s.ss_interval_ns = in.time_value(l, 1e9);
       if (s.ss_interval_ns < 1000000) fail(l, "expected at least 1 ms");
     }},
  };
  return table;
}

// What the job reports: bandwidth and IOPS averaging, the logs, latencies and percentiles, disk statistics.
const OptionTable& job_output_options() {
  static const OptionTable table = {
    {"bwavgtime", [](Interpreter& in, Spec& s, const Line& l) { s.bwavgtime_ms = in.count(l, s.kb_base); }},
    {"iopsavgtime", [](Interpreter& in, Spec& s, const Line& l) { s.iopsavgtime_ms = in.count(l, s.kb_base); }},
    {"write_bw_log", [](Interpreter& in, Spec& s, const Line& l) { set_log_name(s, "write_bw_log", l); }},
    {"write_lat_log", [](Interpreter& in, Spec& s, const Line& l) { set_log_name(s, "write_lat_log", l); }},
    {"write_iops_log", [](Interpreter& in, Spec& s, const Line& l) { set_log_name(s, "write_iops_log", l); }},
    {"write_hist_log", [](Interpreter& in, Spec& s, const Line& l) { set_log_name(s, "write_hist_log", l); }},
    {"log_avg_msec", [](Interpreter& in, Spec& s, const Line& l) { s.log.avg_ms = in.count(l, s.kb_base); }},
    {"log_hist_msec", [](Interpreter& in, Spec& s, const Line& l) { s.log.hist_ms = in.count(l, s.kb_base); }},
    {"log_hist_coarseness", [](Interpreter& in, Spec& s, const Line& l) {
       s.log.hist_coarseness = uint32_t(in.count(l, s.kb_base));
       if (s.log.hist_coarseness > 6) fail(l, "expected 0 to 6");
     }},
    {"log_window_value", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const std::string v = lower(l.value);
       s.log_window = v == "0" ? "avg" : v == "1" ? "max" : v;  // fio's backward-compatible aliases
       if (s.log_window != "avg" && s.log_window != "max" && s.log_window != "both")
         fail(l, "expected avg, max or both (or 0, 1)");
     }},
    {"log_offset", [](Interpreter& in, Spec& s, const Line& l) { s.log.offset = in.flag(l); }},
    {"log_issue_time", [](Interpreter& in, Spec& s, const Line& l) {
       s.log.issue_time = in.flag(l);
       s.log_issue_time_at = l;
     }},
    {"log_prio", [](Interpreter& in, Spec& s, const Line& l) { s.log.prio = in.flag(l); }},
    {"per_job_logs", [](Interpreter& in, Spec& s, const Line& l) { s.log.per_job = in.flag(l); }},
    {"disable_lat", [](Interpreter& in, Spec& s, const Line& l) { s.log.no_lat = in.flag(l); }},
    {"disable_clat", [](Interpreter& in, Spec& s, const Line& l) { s.log.no_clat = in.flag(l); }},
    {"disable_slat", [](Interpreter& in, Spec& s, const Line& l) { s.log.no_slat = in.flag(l); }},
    // fio: disables the latencies (and bandwidth sampling, not modelled)
    {"gtod_reduce", [](Interpreter& in, Spec& s, const Line& l) {
       if (in.flag(l)) s.log.no_lat = s.log.no_clat = s.log.no_slat = true;
     }},
    {"log_store_compressed", [](Interpreter& in, Spec& s, const Line& l) {
       if (in.flag(l)) not_modelled(l, "compressed logs (.fz): ssdtlm writes fio's plain text logs");
     }},
    {"log_alternate_epoch", [](Interpreter& in, Spec& s, const Line& l) {
       if (in.flag(l))
         not_modelled(l, "log times from the wall clock's epoch: the logs are in simulated time from the job's start");
     }},
    {"percentile_list", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.report.percentiles.clear();
       for (const auto& v : ssdtlm::split(l.value, ':')) {
         char* end = nullptr;
         const std::string t(trim(v));
         const double q = std::strtod(t.c_str(), &end);
         if (t.empty() || *end || !(q > 0) || q > 100) fail(l, "expected percentiles in (0, 100] separated by ':'");
         s.report.percentiles.push_back(q);
       }
       if (s.report.percentiles.size() > 20) fail(l, "at most 20 percentiles (fio's FIO_IO_U_LIST_MAX_LEN)");
     }},
    {"clat_percentiles", [](Interpreter& in, Spec& s, const Line& l) { s.report.clat_percentiles = in.flag(l); }},
    {"lat_percentiles", [](Interpreter& in, Spec& s, const Line& l) { s.report.lat_percentiles = in.flag(l); }},
    {"slat_percentiles", [](Interpreter& in, Spec& s, const Line& l) { s.report.slat_percentiles = in.flag(l); }},
    {"unified_rw_reporting", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const std::string v = lower(l.value);
       s.report.unified = v == "0" || v == "none" ? "none" : v == "1" || v == "mixed" ? "mixed"
                          : v == "2" || v == "both" ? "both" : "";
       if (s.report.unified.empty()) fail(l, "expected none, mixed or both (or 0, 1, 2)");
     }},
    {"disk_util", [](Interpreter& in, Spec& s, const Line& l) {  // whether fio.json has "disk_util" (fio_json.cpp)
       s.disk_util = in.flag(l);
       in.ignore(l.key);
     }},
  };
  return table;
}

}  // namespace fio
}  // namespace ssdtlm
