#include "controller/gc/gc_pacing.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, GcPacingFactory>& table() {
  static const std::map<std::string, GcPacingFactory> t = {
      {"credit", make_credit_pacing},
      {"gc_first", make_gc_first_pacing},
  };
  return t;
}
}  // namespace

std::vector<std::string> gc_pacing_names() { return registry_names(table()); }

std::unique_ptr<GcPacing> make_gc_pacing(const std::string& name, uint32_t urgent_lines, const std::string& key) {
  return registry_find(table(), name, key, "GC pacing")(urgent_lines);
}

}  // namespace ssdtlm
