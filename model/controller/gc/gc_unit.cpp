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

const std::map<std::string, WritePointer>& write_pointers() {
  static const std::map<std::string, WritePointer> t = {
      {"per_die", WritePointer{false}},
      {"striped", WritePointer{true}},
  };
  return t;
}
}  // namespace

const GcUnit& find_gc_unit(const std::string& name, const std::string& key) {
  return registry_find(units(), name, key, "GC unit");
}
std::vector<std::string> gc_unit_names() { return registry_names(units()); }

const WritePointer& find_write_pointer(const std::string& name, const std::string& key) {
  return registry_find(write_pointers(), name, key, "write pointer");
}
std::vector<std::string> write_pointer_names() { return registry_names(write_pointers()); }

}  // namespace ssdtlm
