#include "controller/buffer/flush_policy.h"

#include "common/registry.h"

namespace ssdtlm {
namespace {
const std::map<std::string, FlushPolicyEntry>& table() {
  static const std::map<std::string, FlushPolicyEntry> t = {
      {"fifo", {make_fifo_flush, false, 4}},
      {"hexa", {make_hexa_flush, true, 24}},
      {"hexa_always", {make_hexa_always_flush, true, 24}},
  };
  return t;
}
}  // namespace

std::vector<std::string> flush_policy_names() { return registry_names(table()); }

const FlushPolicyEntry& find_flush_policy(const std::string& name, const std::string& key) {
  return registry_find(table(), name, key, "buffer policy");
}

std::unique_ptr<FlushPolicy> make_flush_policy(const std::string& name, const FlushContext& c, const std::string& key) {
  return find_flush_policy(name, key).make(c);
}

}  // namespace ssdtlm
