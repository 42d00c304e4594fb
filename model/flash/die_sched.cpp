#include <map>

#include "common/registry.h"
#include "flash/flash_params.h"

namespace ssdtlm {

namespace {
const std::map<std::string, DieSched>& scheds() {
  static const std::map<std::string, DieSched> t = {
      {"fifo", DieSched::Fifo},            // arrival order
      {"read_first", DieSched::ReadFirst},  // a queued read overtakes queued programs and erases (DieQueue)
  };
  return t;
}
}  // namespace

DieSched find_die_sched(const std::string& name, const std::string& key) {
  return registry_find(scheds(), name, key, "die scheduling");
}
std::vector<std::string> die_sched_names() { return registry_names(scheds()); }

}  // namespace ssdtlm
