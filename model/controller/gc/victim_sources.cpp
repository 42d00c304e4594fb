// The victim-source chain, in the order GcVictims::pick_victim asks it: one line per source.
#include <utility>

#include "controller/gc/victim_source.h"

#include "controller/drive_state.h"

namespace ssdtlm {

namespace {
const std::vector<std::pair<const char*, VictimSourceFactory>>& table() {
  static const std::vector<std::pair<const char*, VictimSourceFactory>> t = {
      {"read_reclaim", make_read_reclaim_source},  // reliability.*: blocks read too often or too hard
      {"wear_level", make_wear_level_source},      // ftl.wear_level_spread: a die's least-erased full block
      {"slc_fold", make_slc_fold_source},          // slc.*: the oldest full SLC block, into TLC/QLC
  };
  return t;
}
}  // namespace

VictimSources::VictimSources(const VictimSourceContext& ctx) {
  for (const auto& [name, make] : table()) sources_.push_back(make(ctx));
}

bool VictimSourceContext::gc_needed(uint32_t die) const { return state.blocks().free_blocks(die) < gc_free_blocks; }

std::vector<std::string> VictimSources::names() {
  std::vector<std::string> out;
  for (const auto& entry : table()) out.push_back(entry.first);
  return out;
}

}  // namespace ssdtlm
