// Preconditioned-drive snapshots for a run (controller/snapshot/README.md): the drive state after
// preconditioning saved to precondition.snapshot_dir/<key hash>.ssnap, and loaded instead of preconditioning by
// a later run whose snapshot key (config/snapshot_key.cpp) is the same.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <string>

#include "config/params.h"
#include "controller/precondition.h"
#include "sim/platform.h"

namespace ssdtlm {

// What a run did with its snapshot (summary.json: precondition.snapshot, when precondition.snapshot_dir is set).
struct SnapshotOutcome {
  std::string action = "off";  // loaded, saved, not saved (a component it cannot save), off
  std::string file, note;      // the snapshot file; why it was not loaded or saved
  std::string lock;            // the lock file this run holds while it preconditions (auto mode), if any
  double seconds = 0;          // wall time of the load or save
  double cpu_seconds = 0;      // CPU time of the process during it (steadier than wall time on a busy machine)
  uint64_t bytes = 0;          // file size
  nlohmann::json report() const;  // summary.json's precondition.snapshot
};

// The snapshot file of a configuration: dir/<16 hex digits of the key's hash>.ssnap.
std::string snapshot_path(const PreconditionParams& pp);

// Loads the configuration's snapshot into the freshly built platform p if there is one (modes auto and load);
// fills pre as the preconditioning that made it reported it. False (nothing changed) when there is none to load:
// missing (mode load: SnapshotError), or made by another configuration (mode auto: logged, rebuilt). In mode auto
// the first run of a configuration takes <file>.lock and preconditions; a run finding the lock waits for the
// file (no two runs precondition the same drive at once); a lock left by a dead process is broken.
// A corrupt file throws SnapshotError (the platform is then unusable).
bool load_snapshot(Platform& p, const PreconditionParams& pp, PreconditionResult& pre, SnapshotOutcome& out);

// Saves p's state after preconditioning (modes auto and save), through a temporary file renamed into place, so
// concurrent runs of one configuration never see a partial file. A component whose state cannot be saved leaves
// no file (out.action "not saved", out.note why); the run goes on.
void save_snapshot(Platform& p, const PreconditionParams& pp, const PreconditionResult& pre, SnapshotOutcome& out);

}  // namespace ssdtlm
