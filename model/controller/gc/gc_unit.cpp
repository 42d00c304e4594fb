#include "controller/gc/gc_unit.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, GcUnitEntry>& units() {
  static const std::map<std::string, GcUnitEntry> t = {
      {"block", {make_block_unit, false}},
      {"superblock", {make_superblock_unit, true}},
  };
  return t;
}
}  // namespace

const GcUnitEntry& find_gc_unit(const std::string& name, const std::string& key) {
  return registry_find(units(), name, key, "GC unit");
}
std::vector<std::string> gc_unit_names() { return registry_names(units()); }

}  // namespace ssdtlm
