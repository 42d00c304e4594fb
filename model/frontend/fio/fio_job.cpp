#include "frontend/fio/fio_job.h"

#include <fstream>
#include <optional>
#include <sstream>

#include "common/input_file.h"
#include "config/config.h"
#include "frontend/fio/fio_job_internal.h"

namespace ssdtlm {

using fio::Builder;
using fio::fail;
using fio::fail_at;
using fio::Interpreter;
using fio::Line;
using fio::Reader;
using fio::Section;
using fio::Spec;

FioJobFile parse_fio_job_text(const std::string& text, const std::string& path, uint64_t device_bytes) {
  FioJobFile out;
  out.path = path;
  Reader reader;
  reader.read_text(text, path, false, 0);
  Interpreter in(out, device_bytes);
  Builder builder(in, device_bytes);

  std::vector<const Line*> globals;
  nlohmann::json jobs = nlohmann::json::array();
  std::optional<int64_t> seed;
  Line seed_at;
  int group = -1;
  for (const Section& sec : reader.sections) {
    if (sec.global) {
      for (const Line& l : sec.options) {
        globals.push_back(&l);
        out.global_options.emplace_back(l.key, l.value);
      }
      continue;
    }
    std::vector<const Line*> lines = globals;
    for (const Line& l : sec.options) lines.push_back(&l);
    Spec s;
    s.section = s.name = sec.name;
    s.file = sec.file;
    s.line = sec.line;
    s.kb_base = in.kb_base_of(lines);
    for (const Line* l : lines) in.apply(s, *l);
    for (const Line& l : sec.options) s.own.emplace_back(l.key, l.value);
    if (s.randseed) {
      if (seed && *seed != *s.randseed)
        fail(s.randseed_at, "jobs with different randseed values (ssdtlm has one run seed, sim.seed, and offsets "
                            "every job's streams by its index)");
      if (*s.randseed < 0) fail(s.randseed_at, "expected a seed >= 0");
      seed = s.randseed;
      seed_at = s.randseed_at;
    }
    if (group < 0 || s.stonewall || s.new_group) ++group;
    std::vector<nlohmann::json> built;
    built = builder.build(s);
    for (size_t k = 0; k < built.size(); ++k) {
      FioJob job;
      job.name = s.name;
      job.clone = k;
      job.group = group;
      job.group_reporting = s.group_reporting;
      job.options = s.own;
      built[k]["name"] = s.numjobs > 1 ? s.name + "." + std::to_string(k) : s.name;
      built[k]["report_group"] = s.group_reporting ? group : -1;
      // Validate against the schema now, so a bad value names the job's section.
      try {
        Config probe;
        probe.merge(nlohmann::json{{"jobs", nlohmann::json::array({built[k]})}}, path);
      } catch (const ConfigError& e) {
        fail_at(s.file, s.line, "job '" + s.section + "': " + e.what());
      }
      job.config = built[k];
      jobs.push_back(built[k]);
      out.jobs.push_back(std::move(job));
    }
  }
  if (out.jobs.empty()) fail_at(path, 0, "no job section (only [global], or empty)");
  out.config = nlohmann::json{{"jobs", jobs}};
  if (seed) out.config["sim"] = {{"seed", *seed}};
  return out;
}

FioJobFile read_fio_job_file(const std::string& path, uint64_t device_bytes) {
  return parse_fio_job_text(read_input_file(path, "--fio"), path, device_bytes);
}

}  // namespace ssdtlm
