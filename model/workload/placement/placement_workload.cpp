#include "workload/placement/placement_workload.h"

#include <stdexcept>

#include "controller/placement/fdp.h"

namespace ssdtlm {

std::vector<uint32_t> parse_id_list(const std::string& text) {
  std::vector<uint32_t> ids;
  size_t pos = 0;
  auto number = [&](const std::string& t) -> uint32_t {
    if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos || t.size() > 5)
      throw std::invalid_argument("expected a list of ids or ranges like 0,1,2 or 0-3,6, got \"" + text + "\"");
    return uint32_t(std::stoul(t));
  };
  while (pos < text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    const size_t dash = item.find('-');
    const uint32_t lo = number(item.substr(0, dash));
    const uint32_t hi = dash == std::string::npos ? lo : number(item.substr(dash + 1));
    if (hi < lo) throw std::invalid_argument("range " + item + " runs backwards in \"" + text + "\"");
    for (uint32_t i = lo; i <= hi; ++i) ids.push_back(i);
    if (ids.size() > 128) throw std::invalid_argument("at most 128 ids (fio's FIO_MAX_DP_IDS), got more in \"" + text + "\"");
    pos = comma + 1;
  }
  return ids;
}

PlacementWorkload::PlacementWorkload(std::unique_ptr<Workload> inner, const PlacementParams& p, uint64_t seed)
    : inner_(std::move(inner)), p_(p), rng_(seed ^ 0x9e3779b97f4a7c15ull) {
  set_pacing(inner_->pacing());
  const FdpLayout layout{p.rgs, p.ruhs};
  if (p.kind == DataPlacement::Fdp) {
    // No list: every PID of the RUH status list (fio takes them all, up to 128).
    if (p.ids.empty())
      for (uint32_t i = 0; i < p.rgs * p.ruhs && i < 128; ++i) ids_.push_back(layout.pid_of_index(i));
    for (uint32_t i : p.ids) ids_.push_back(layout.pid_of_index(i));
  } else {
    for (uint32_t i : p.ids) ids_.push_back(uint16_t(i));
  }
}

bool PlacementWorkload::next(IoRequest& r) {
  if (!inner_->next(r)) return false;
  if (r.op != IoOp::Write || ids_.empty()) {
    r.dtype = 0;
    r.dspec = 0;
    return true;
  }
  uint16_t id;
  if (p_.random) {
    id = ids_[size_t(rng_.below(ids_.size()))];
  } else {
    id = ids_[next_];
    if (++next_ == ids_.size()) next_ = 0;
  }
  if (p_.kind == DataPlacement::Fdp) {
    r.dtype = kDirectiveFdp;
    r.dspec = id;
  } else {
    r.stream = id;
  }
  return true;
}

}  // namespace ssdtlm
