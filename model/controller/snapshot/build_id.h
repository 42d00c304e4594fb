// The identity of the running executable, for snapshot keys: a snapshot is only loaded by the build that saved
// it (the preconditioning code is part of what made it).
#pragma once
#include <string>

namespace ssdtlm {

// "gnu:<hex>", the executable's GNU build id (the study cache's build id, scripts/studylib/task.py), or
// "size:<bytes>,fnv:<hex>" of /proc/self/exe when it has none.
const std::string& snapshot_build_id();

}  // namespace ssdtlm
