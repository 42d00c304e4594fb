#include "controller/gc/gc_unit.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, GcUnit>& units() {
  static const std::map<std::string, GcUnit> t = {
      {"block", GcUnit{false}},
      {"superblock", GcUnit{true}},
  };
  return t;
}
}  // namespace

const GcUnit& find_gc_unit(const std::string& name, const std::string& key) {
  return registry_find(units(), name, key, "GC unit");
}
std::vector<std::string> gc_unit_names() { return registry_names(units()); }

}  // namespace ssdtlm
