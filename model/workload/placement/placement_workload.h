// The host's data placement on write commands, as fio's dataplacement options give it (fio's
// dataplacement.c): dataplacement=fdp puts a placement identifier (PID) on every write (directive type FDP),
// dataplacement=streams a stream id (streams directive). The identifiers come from a list (fio's
// fdp_pli/plids: indices into the device's reclaim unit handle status list for FDP, stream ids for streams;
// empty = every PID of the device, for FDP), chosen per write round robin or uniformly at random
// (fdp_pli_select/plid_select). A decorator over any workload: reads and trims carry no placement.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/rng.h"
#include "host/io_request.h"

namespace ssdtlm {

// workload.dataplacement: no identifiers, FDP placement identifiers, or stream ids.
enum class DataPlacement : uint8_t { None, Fdp, Streams };

struct PlacementParams {
  DataPlacement kind = DataPlacement::None;  // workload.dataplacement
  std::vector<uint32_t> ids;       // workload.plids (FDP: RUH status list indices; streams: stream ids)
  bool random = false;             // workload.plid_select=random (else roundrobin)
  uint32_t rgs = 1, ruhs = 1;      // the device's FDP layout (fdp.reclaim_groups, fdp.ruhs): its RUH status list
};

// "0,1,2,3", "0-3,6": the ids of a plids list; throws std::invalid_argument saying what is wrong.
std::vector<uint32_t> parse_id_list(const std::string& text);

class PlacementWorkload : public Workload {
 public:
  PlacementWorkload(std::unique_ptr<Workload> inner, const PlacementParams& p, uint64_t seed);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return inner_->progress(); }
  bool has_setup() const override { return inner_->has_setup(); }
  uint64_t last_arrival_ns() const override { return inner_->last_arrival_ns(); }
  void report(nlohmann::json& into) const override { inner_->report(into); }

 private:
  std::unique_ptr<Workload> inner_;
  PlacementParams p_;
  std::vector<uint16_t> ids_;  // FDP: PIDs; streams: stream ids
  size_t next_ = 0;
  Rng rng_;
};

}  // namespace ssdtlm
