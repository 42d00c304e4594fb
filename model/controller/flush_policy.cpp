#include "controller/flush_policy.h"

#include <map>

#include "common/config.h"

namespace ssdtlm {
namespace {
const std::map<std::string, FlushFactory>& table() {
  static const std::map<std::string, FlushFactory> t = {
      {"fifo", make_fifo_flush},
  };
  return t;
}
}  // namespace

std::vector<std::string> flush_policy_names() {
  std::vector<std::string> names;
  for (auto& [n, f] : table()) names.push_back(n);
  return names;
}

std::unique_ptr<FlushPolicy> make_flush_policy(const std::string& name, uint32_t capacity, const std::string& key) {
  auto it = table().find(name);
  if (it == table().end()) {
    std::string known;
    for (auto& n : flush_policy_names()) known += " " + n;
    throw ConfigError("key '" + key + "': unknown buffer policy '" + name + "', expected one of" + known);
  }
  return it->second(capacity);
}

}  // namespace ssdtlm
