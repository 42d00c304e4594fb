#include "controller/gc/victim_policy.h"

#include "common/registry.h"
#include "controller/snapshot/snapshot_archive.h"

namespace ssdtlm {

void VictimPolicy::snapshot(SnapshotArchive&) {
  throw SnapshotUnsupported("this GC victim policy cannot be saved in a snapshot");
}

namespace {
const std::map<std::string, VictimFactory>& table() {
  static const std::map<std::string, VictimFactory> t = {
      {"greedy", make_greedy_victim},
      {"fifo", make_fifo_victim},
  };
  return t;
}
}  // namespace

std::vector<std::string> victim_policy_names() { return registry_names(table()); }

std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name, const Geometry& g, const std::string& key) {
  return registry_find(table(), name, key, "victim policy")(g);
}

}  // namespace ssdtlm
