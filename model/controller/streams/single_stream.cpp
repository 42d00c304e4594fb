// streams.assign=single: every host write goes to the default stream 0 (a conventional SSD).
#include <cstring>

#include "controller/streams/stream_policy.h"

namespace ssdtlm {
namespace {

class SingleStream : public StreamPolicy {
 public:
  void assign(uint32_t, uint32_t units, const WriteTag&, uint8_t* out) override { std::memset(out, 0, units); }
  void snapshot(SnapshotArchive&) override {}  // nothing learnt
};

}  // namespace

std::unique_ptr<StreamPolicy> make_single_stream(const StreamContext&) { return std::make_unique<SingleStream>(); }

}  // namespace ssdtlm
