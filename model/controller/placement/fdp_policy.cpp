// streams.assign=fdp (set by fdp.enabled): the placement identifier on each write. A write with directive
// type FDP and a valid PID goes to its (RG, RUH) stream; a write without one takes the default placement,
// placement handle 0 in a reclaim group the controller picks (round robin over the RGs, per command); a
// write whose PID names no RG or handle of the namespace is placed as a write without one and counted as
// an "invalid placement identifier" FDP event (the event the FDP events log records for it).
#include <cstring>

#include "controller/placement/fdp.h"
#include "controller/streams/stream_policy.h"

namespace ssdtlm {
namespace {

class FdpPolicy : public StreamPolicy {
 public:
  explicit FdpPolicy(const StreamContext& c) : layout_{c.fdp_rgs, c.fdp_ruhs} {}
  void assign(uint32_t, uint32_t units, const WriteTag& tag, uint8_t* out) override {
    uint32_t s = 0;
    if (tag.dtype == kDirectiveFdp && layout_.stream_of(tag.dspec, &s)) {
      ++placed_;
    } else {
      if (tag.dtype == kDirectiveFdp) ++invalid_;
      ++defaulted_;
      s = (next_rg_ % layout_.rgs) * layout_.ruhs;
      if (++next_rg_ == layout_.rgs) next_rg_ = 0;
    }
    std::memset(out, int(s), units);
  }
  PolicyCounters counters() const override {
    return {{"placed_commands", placed_}, {"default_placement_commands", defaulted_},
            {"invalid_placement_identifier", invalid_}};
  }
  void reset_stats() override { placed_ = defaulted_ = invalid_ = 0; }

 private:
  FdpLayout layout_;
  uint32_t next_rg_ = 0;
  uint64_t placed_ = 0, defaulted_ = 0, invalid_ = 0;
};

}  // namespace

std::unique_ptr<StreamPolicy> make_fdp_stream(const StreamContext& c) { return std::make_unique<FdpPolicy>(c); }

}  // namespace ssdtlm
