// Name-keyed policy registries: each policy axis keeps a table name -> factory; a new policy is one new
// file plus one line in its table.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "config/config.h"

namespace ssdtlm {

template <class Factory>
std::vector<std::string> registry_names(const std::map<std::string, Factory>& table) {
  std::vector<std::string> names;
  for (auto& entry : table) names.push_back(entry.first);
  return names;
}

// The factory registered as `name`; a ConfigError naming `key` and the known names otherwise.
template <class Factory>
const Factory& registry_find(const std::map<std::string, Factory>& table, const std::string& name,
                             const std::string& key, const std::string& what) {
  auto it = table.find(name);
  if (it == table.end()) {
    std::string known;
    for (auto& n : registry_names(table)) known += " " + n;
    throw ConfigError("key '" + key + "': unknown " + what + " '" + name + "', expected one of" + known);
  }
  return it->second;
}

}  // namespace ssdtlm
