#include "controller/gc/write_pointer.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, WritePointerEntry>& table() {
  static const std::map<std::string, WritePointerEntry> t = {
      {"per_die", {make_per_die_pointer, false}},
      {"striped", {make_striped_pointer, true}},
  };
  return t;
}
}  // namespace

const WritePointerEntry& find_write_pointer(const std::string& name, const std::string& key) {
  return registry_find(table(), name, key, "write pointer");
}
std::vector<std::string> write_pointer_names() { return registry_names(table()); }

}  // namespace ssdtlm
