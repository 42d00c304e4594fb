#include "controller/mapping/gc_update.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, GcUpdate>& updates() {
  static const std::map<std::string, GcUpdate> t = {
      {"victim", GcUpdate{true, false}},  // DFTL's batch update (Gupta et al., ASPLOS'09)
      {"page", GcUpdate{false, false}},   // each GC page's moves through the cache, as a write
      {"free", GcUpdate{false, true}},    // an experiment: GC's map updates cost nothing
  };
  return t;
}
}  // namespace

const GcUpdate& find_gc_update(const std::string& name, const std::string& key) {
  return registry_find(updates(), name, key, "GC map update");
}
std::vector<std::string> gc_update_names() { return registry_names(updates()); }

std::string gc_update_name(const GcUpdate& u) {
  for (const auto& [name, entry] : updates())
    if (entry.batch == u.batch && entry.free == u.free) return name;
  return "?";  // (no entry does both)
}

}  // namespace ssdtlm
