#include "frontend/fio/fio_job.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "common/input_file.h"
#include "config/config.h"
#include "frontend/fio/fio_host_engine.h"
#include "frontend/fio/fio_job_internal.h"

namespace ssdtlm {

using fio::Builder;
using fio::Errors;
using fio::fail;
using fio::fail_at;
using fio::Interpreter;
using fio::Line;
using fio::Reader;
using fio::Section;
using fio::Spec;

namespace fio {

void Errors::add(const std::string& message) {
  if (std::find(list_.begin(), list_.end(), message) != list_.end()) return;  // a [global] line, met per job
  if (list_.size() < kMaxErrors)
    list_.push_back(message);
  else
    ++dropped_;
}

void Errors::raise() const {
  if (list_.size() == 1) throw ConfigError(list_[0]);
  std::string all = std::to_string(list_.size() + dropped_) + " errors in the fio job file:";
  for (const std::string& e : list_) all += "\n  " + e;
  if (dropped_) all += "\n  ... and " + std::to_string(dropped_) + " more";
  throw ConfigError(all);
}

}  // namespace fio

namespace {

// A job section's Spec: the [global] lines, then its own, applied in order; an error of a line is gathered and
// clears job_ok.
Spec interpret_section(Interpreter& in, const Section& sec, const std::vector<const Line*>& globals, Errors& errors,
                       bool& job_ok) {
  std::vector<const Line*> lines = globals;
  for (const Line& l : sec.options) lines.push_back(&l);
  Spec s;
  s.section = s.name = sec.name;
  s.file = sec.file;
  s.line = sec.line;
  try {
    s.kb_base = in.kb_base_of(lines);
  } catch (const ConfigError& e) {
    errors.add(e.what());
    job_ok = false;
  }
  for (const Line* l : lines) {
    try {
      in.apply(s, *l);
    } catch (const ConfigError& e) {
      errors.add(e.what());
      job_ok = false;
    }
  }
  for (const Line& l : sec.options) s.own.emplace_back(fio::canonical_option(l.key), l.value);
  return s;
}

// randseed: one run seed (sim.seed) for the whole file, >= 0.
void take_seed(const Spec& s, std::optional<int64_t>& seed) {
  if (!s.randseed) return;
  if (seed && *seed != *s.randseed)
    fail(s.randseed_at, "jobs with different randseed values (ssdtlm has one run seed, sim.seed, and "
                        "offsets every job's streams by its index)");
  if (*s.randseed < 0) fail(s.randseed_at, "expected a seed >= 0");
  seed = s.randseed;
}

// The host's cost per I/O of the job's engine (fio_host_engine.h): the first job's, and a conflict (an error if the
// configuration does not set the cost itself) at the first job whose engine implies another.
void take_host_engine(const Spec& s, bool& seen, FioJobFile& out) {
  const fio::HostEngineChoice c = fio::host_engine_for(s.ioengine, s.hipri);
  if (!seen) {
    seen = true;
    out.host_engine = c.engine;
    out.host_engine_basis = c.basis;
    return;
  }
  if (c.engine == out.host_engine || !out.host_engine_conflict.empty()) return;
  const Line& at = s.ioengine_at.line ? s.ioengine_at : Line{s.file, s.line, "ioengine", s.ioengine, true, ""};
  out.host_engine_conflict =
      at.file + ":" + std::to_string(at.line) + ": job '" + s.name + "': " + c.basis + ", but an earlier job's " +
      out.host_engine_basis + ": ssdtlm has one host cost per run (host.engine); split the job file, or set " +
      "host.engine (or host.submit_ns and host.complete_ns) in the configuration, which then applies to every job";
}

// fio's flow weight of each job clone, as fio stores it (unsigned int: a negative flow wraps), with its line.
struct FlowWeight {
  uint64_t weight = 0, flow_id = 0;
  Line at;
};

// A negative flow (fio's older signed counter, 'flow=-3' beside 'flow=7') is, in fio 3.42, the weight 2^32 - 3,
// and the flow's total_weight (an unsigned int) wraps: flow.c holds a job when its share of the flow's I/Os
// exceeds weight / total_weight, so a job whose weight is at least the wrapped total is never held. When that
// is so of every job of the flow, fio runs them without flow control, and so does ssdtlm (their flow is 0);
// otherwise fio's holds follow the wrapped sum, which is not modelled.
void resolve_wrapped_flows(const std::vector<FlowWeight>& weights, Interpreter& in, Errors& errors,
                           nlohmann::json& jobs, FioJobFile& out) {
  std::map<uint64_t, std::vector<const FlowWeight*>> flows;
  for (const FlowWeight& w : weights)
    if (w.weight) flows[w.flow_id].push_back(&w);
  const auto no_flow = [&](uint64_t id) {
    for (size_t k = 0; k < weights.size(); ++k)
      if (weights[k].weight && weights[k].flow_id == id) jobs[k]["flow"] = out.jobs[k].config["flow"] = 0;
  };
  for (const auto& [id, members] : flows) {
    const auto wrapped = std::find_if(members.begin(), members.end(), [](const FlowWeight* w) { return w->weight > 1000; });
    if (wrapped == members.end()) continue;
    uint32_t total = 0;
    for (const FlowWeight* w : members) total += uint32_t(w->weight);
    const Line& at = (*wrapped)->at;
    if (std::all_of(members.begin(), members.end(), [&](const FlowWeight* w) { return w->weight >= total; })) {
      in.note(at.file + ":" + std::to_string(at.line) + ": flow=" + at.value + ": fio 3.42 stores it as the weight " +
              std::to_string((*wrapped)->weight) + " and flow_id " + std::to_string(id) +
              "'s total weight wraps to " + std::to_string(total) + ", so fio holds none of its jobs: they run "
              "without flow control (write weights, flow=1 and flow=3, for a ratio)");
      no_flow(id);
      continue;
    }
    errors.add(at.file + ":" + std::to_string(at.line) + ": option 'flow=" + at.value + "': not modelled by ssdtlm: "
               "fio 3.42 stores a negative flow as the weight " + std::to_string((*wrapped)->weight) +
               ", and holds the jobs of flow_id " + std::to_string(id) + " by a total weight that wraps (" +
               std::to_string(total) + "); write weights (flow=1 and flow=3) for a ratio");
  }
}

// The job's clones (built) as FioJobs of report group `group`, each validated against the schema now, so that a
// bad value names the job's section.
void add_clones(const Spec& s, int group, std::vector<nlohmann::json>& built, const std::string& path, Errors& errors,
                nlohmann::json& jobs, FioJobFile& out, std::vector<FlowWeight>& weights) {
  for (size_t k = 0; k < built.size(); ++k) {
    FioJob job;
    job.name = s.name;
    job.clone = k;
    job.group = group;
    job.group_reporting = s.group_reporting;
    job.options = s.own;
    job.disk_util = s.disk_util && fio::engine_has_disk_util(s.ioengine);
    job.report = s.report;
    built[k]["name"] = s.numjobs > 1 ? s.name + "." + std::to_string(k) : s.name;
    built[k]["report_group"] = s.group_reporting ? group : -1;
    try {
      Config probe;
      probe.merge(nlohmann::json{{"jobs", nlohmann::json::array({built[k]})}}, path);
    } catch (const ConfigError& e) {
      errors.add(s.file + ":" + std::to_string(s.line) + ": job '" + s.section + "': " + e.what());
      break;
    }
    job.config = built[k];
    weights.push_back({s.flow, s.flow_id, s.flow_at});
    jobs.push_back(built[k]);
    out.jobs.push_back(std::move(job));
  }
}

}  // namespace

namespace {

// SPDK's nvme plugin attaches the controller once, with the first job's options (probe_cb: CC.AMS, and
// nvme_ctrlr_set_arbitration_feature's Set Features Arbitration, sent only when arbitration_burst is 1-7: with 0
// the controller keeps its reset values, AB and every weight 0, one command each); each job's queue pair takes
// its wrr_priority when the job sets enable_wrr, else SPDK's default, urgent. As nvme.arbitration, its burst and
// weights (in commands: the 0's based fields + 1) and each job's host.sq_priority.
struct SpdkArbitration {
  bool seen = false, wrr = false;
  std::string job;
  nlohmann::json keys;
};

// The nvme.* keys of a job's enable_wrr, arbitration_burst and weights (null without enable_wrr).
nlohmann::json spdk_arbitration_keys(const Spec::SpdkWrr& w) {
  if (!w.enable) return nullptr;
  const bool sent = w.burst != 0;
  return {{"arbitration", "wrr"},
          {"arbitration_burst", !sent ? 1u : w.burst == 7 ? 0u : 1u << w.burst},
          {"wrr_high_weight", sent ? w.high + 1 : 1},
          {"wrr_medium_weight", sent ? w.medium + 1 : 1},
          {"wrr_low_weight", sent ? w.low + 1 : 1}};
}

void take_spdk_arbitration(const Spec& s, SpdkArbitration& a, Interpreter& in, std::vector<nlohmann::json>& built) {
  const Spec::SpdkWrr& w = s.spdk_wrr;
  if (s.ioengine != "spdk") {  // fio knows these options only from SPDK's nvme plugin
    if (w.set) fail(w.at, "an option of SPDK's fio plugin (ioengine=spdk); fio refuses it with ioengine=" + s.ioengine);
    return;
  }
  const std::string at = w.at.file + ":" + std::to_string(w.at.line) + ": ";
  if (!a.seen) {
    a.seen = true, a.wrr = w.enable, a.job = s.name, a.keys = spdk_arbitration_keys(w);
    if (w.enable && !w.burst && (w.high || w.medium || w.low))
      in.note(at + "SPDK's plugin sends Set Features Arbitration only with arbitration_burst 1-7: with 0 the "
                   "weights keep their reset value (one command each)");
  } else if (w.set && spdk_arbitration_keys(w) != a.keys) {
    in.note(at + "job '" + s.name + "': SPDK's plugin configures the controller once, with the first job's options "
                 "(job '" + a.job + "'): this job's enable_wrr, arbitration_burst and weights do not apply");
  }
  static const char* const kQprio[] = {"urgent", "high", "medium", "low"};
  if (a.wrr)
    for (nlohmann::json& j : built) j["sq_priority"] = kQprio[w.enable ? w.priority : 0];
}

}  // namespace

// Every error of the file is gathered (a bad line, a bad job) and reported together.
FioJobFile parse_fio_job_text(const std::string& text, const std::string& path, uint64_t device_bytes,
                              uint64_t zone_bytes) {
  FioJobFile out;
  out.path = path;
  Errors errors;
  Reader reader;
  reader.errors = &errors;
  reader.read_text(text, path, false, 0);
  Interpreter in(out, device_bytes);
  Builder builder(in, device_bytes, zone_bytes);

  std::vector<const Line*> globals;
  nlohmann::json jobs = nlohmann::json::array();
  std::optional<int64_t> seed;
  int group = -1;
  std::vector<std::string> names;  // the jobs read so far (what wait_for may name)
  std::vector<FlowWeight> weights;  // fio's flow weight of each clone
  SpdkArbitration arbitration;      // SPDK's nvme plugin: the controller's arbitration, from the first job
  bool engine_seen = false;         // the host's cost per I/O (take_host_engine)
  for (const Section& sec : reader.sections) {
    if (sec.global) {
      for (const Line& l : sec.options) {
        globals.push_back(&l);
        out.global_options.emplace_back(fio::canonical_option(l.key), l.value);
      }
      continue;
    }
    bool job_ok = true;
    const Spec s = interpret_section(in, sec, globals, errors, job_ok);
    if (group < 0 || s.stonewall || s.new_group) ++group;
    // An earlier job of that name, even one with errors of its own (those are reported; this is not one more).
    if (!s.wait_for.empty() && std::find(names.begin(), names.end(), s.wait_for) == names.end()) {
      errors.add(s.wait_for_at.file + ":" + std::to_string(s.wait_for_at.line) + ": option 'wait_for=" + s.wait_for +
                 "': expected the name of an earlier job");
      job_ok = false;
    }
    names.push_back(s.name);
    std::vector<nlohmann::json> built;
    try {
      take_seed(s, seed);
      built = builder.build(s);  // also with a bad option: its own checks may find more
      take_spdk_arbitration(s, arbitration, in, built);
    } catch (const ConfigError& e) {
      errors.add(e.what());
      continue;
    }
    if (!job_ok) continue;
    add_clones(s, group, built, path, errors, jobs, out, weights);
    take_host_engine(s, engine_seen, out);
  }
  resolve_wrapped_flows(weights, in, errors, jobs, out);
  if (!errors.empty()) errors.raise();
  if (out.jobs.empty()) fail_at(path, 0, "no job section (only [global], or empty)");
  out.config = nlohmann::json{{"jobs", jobs}};
  if (seed) out.config["sim"] = {{"seed", *seed}};
  if (arbitration.wrr) out.config["nvme"] = arbitration.keys;
  return out;
}

FioJobFile read_fio_job_file(const std::string& path, uint64_t device_bytes, uint64_t zone_bytes) {
  return parse_fio_job_text(read_input_file(path, "--fio"), path, device_bytes, zone_bytes);
}

}  // namespace ssdtlm
