#include "controller/sched/sched_policy.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {
namespace {
using SchedFactory = std::unique_ptr<SchedPolicy> (*)();
const std::map<std::string, SchedFactory>& table() {
  static const std::map<std::string, SchedFactory> t = {
      {"fifo", make_fifo_sched},
      {"read_priority", make_read_priority_sched},
  };
  return t;
}
}  // namespace

std::vector<std::string> sched_policy_names() { return registry_names(table()); }

std::unique_ptr<SchedPolicy> make_sched_policy(const std::string& name, const std::string& key) {
  return registry_find(table(), name, key, "scheduling policy")();
}

}  // namespace ssdtlm
