#include "controller/buffer/flush_policy.h"

#include "common/registry.h"

namespace ssdtlm {
namespace {
const std::map<std::string, FlushFactory>& table() {
  static const std::map<std::string, FlushFactory> t = {
      {"fifo", make_fifo_flush},
      {"hexa", make_hexa_flush},
      {"hexa_always", make_hexa_always_flush},
  };
  return t;
}
}  // namespace

std::vector<std::string> flush_policy_names() { return registry_names(table()); }

bool orders_by_map_segment(const std::string& policy) { return policy == "hexa" || policy == "hexa_always"; }

std::unique_ptr<FlushPolicy> make_flush_policy(const std::string& name, const FlushContext& c, const std::string& key) {
  return registry_find(table(), name, key, "buffer policy")(c);
}

}  // namespace ssdtlm
