// The key of a preconditioned-drive snapshot (controller/snapshot): every configuration key the preconditioning
// reads (KeySpec::precondition in config_schema.cpp), one "key=value" line each in schema order, plus the
// content of the trace files it replays and the build that made it. Runs with equal keys precondition
// identically, so a snapshot saved by one is loaded by the other.
#include <cstdio>
#include <string>

#include "common/input_file.h"
#include "config/params.h"

namespace ssdtlm {

std::string precondition_snapshot_key(const Config& c, const Params& p, const std::string& build) {
  std::string key = "build=" + build + "\n";
  const bool overwriting = p.precondition.drive_writes > 0;
  for (const KeySpec& k : config_schema()) {
    const auto use = k.precondition;
    if (use == KeySpec::Precondition::Never || (use == KeySpec::Precondition::Overwriting && !overwriting)) continue;
    std::string pointer = "/" + k.path;
    for (char& ch : pointer)
      if (ch == '.') ch = '/';
    const nlohmann::json::json_pointer where(pointer);
    const nlohmann::json* v = c.json().contains(where) ? &c.json().at(where) : nullptr;
    key += k.path + "=" + (v ? v->dump() : std::string("(unset)")) + "\n";
  }
  if (overwriting)
    for (const WorkloadParams& w : p.precondition_workloads)
      if (!w.trace_path.empty()) key += "trace " + w.trace_path + "=" + file_digest(w.trace_path, "missing") + "\n";
  // The effective preconditioning (zns turns it off; validation may adjust): what actually runs.
  key += "effective fill=" + std::to_string(p.precondition.fill) +
         ", drive_writes=" + nlohmann::json(p.precondition.drive_writes).dump() + "\n";
  return key;
}

}  // namespace ssdtlm
