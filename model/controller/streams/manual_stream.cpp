// streams.assign=manual: the host's stream id on each write command (NVMe streams directive, a CSV trace's
// stream column, workload.stream_hint), clamped to the highest stream; id 0 (no directive) is stream 0.
#include <algorithm>
#include <cstring>

#include "controller/streams/stream_policy.h"

namespace ssdtlm {
namespace {

class ManualStream : public StreamPolicy {
 public:
  explicit ManualStream(uint32_t streams) : last_(streams - 1) {}
  void assign(uint32_t, uint32_t units, const WriteTag& tag, uint8_t* out) override {
    std::memset(out, int(std::min(tag.hint, last_)), units);
  }

  void snapshot(SnapshotArchive&) override {}  // nothing learnt

 private:
  uint32_t last_;
};

}  // namespace

std::unique_ptr<StreamPolicy> make_manual_stream(const StreamContext& c) {
  return std::make_unique<ManualStream>(c.streams);
}

}  // namespace ssdtlm
