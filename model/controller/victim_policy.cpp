#include "controller/victim_policy.h"

#include <map>

#include "common/config.h"

namespace ssdtlm {
namespace {
const std::map<std::string, VictimFactory>& table() {
  static const std::map<std::string, VictimFactory> t = {
      {"greedy", make_greedy_victim},
      {"fifo", make_fifo_victim},
  };
  return t;
}
}  // namespace

std::vector<std::string> victim_policy_names() {
  std::vector<std::string> names;
  for (auto& [n, f] : table()) names.push_back(n);
  return names;
}

std::unique_ptr<VictimPolicy> make_victim_policy(const std::string& name, const Geometry& g, const std::string& key) {
  auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    for (auto& n : victim_policy_names()) known += " " + n;
    throw ConfigError("key '" + key + "': unknown victim policy '" + name + "', expected one of" + known);
  }
  return it->second(g);
}

}  // namespace ssdtlm
