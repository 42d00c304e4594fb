#include "controller/mapping/dirty_order.h"

#include <map>

#include "common/registry.h"

namespace ssdtlm {

namespace {
const std::map<std::string, DirtyOrderFactory>& table() {
  static const std::map<std::string, DirtyOrderFactory> t = {
      {"greedy", make_dirty_order_greedy},
      {"lru", make_dirty_order_lru},
  };
  return t;
}
}  // namespace

std::vector<std::string> dirty_order_names() { return registry_names(table()); }

std::unique_ptr<DirtyOrder> make_dirty_order(const std::string& name, uint32_t segments, uint32_t entries_per_segment) {
  return registry_find(table(), name, "map.dirty_victim", "dirty-area victim order")(segments, entries_per_segment);
}

}  // namespace ssdtlm
