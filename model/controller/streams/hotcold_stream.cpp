// streams.assign=hotcold (seed 004): each unit by its LPN's host-write count, this write included. A count
// above streams.hot_threshold is hot (stream 1), else cold (stream 0); with more streams the hot side is
// split by powers of two (hotcold_stream in stream_policy.h). With streams.count = 1, threshold 0 sends
// every write to stream 1: no separation (seed 004's baseline).
#include <stdexcept>

#include "controller/streams/stream_policy.h"

namespace ssdtlm {
namespace {

class HotColdStream : public StreamPolicy {
 public:
  explicit HotColdStream(const StreamContext& c) : counts_(*c.counts), threshold_(c.hot_threshold), streams_(c.streams) {}
  void assign(uint32_t lpn, uint32_t units, const WriteTag&, uint8_t* out) override {
    for (uint32_t i = 0; i < units; ++i) out[i] = uint8_t(hotcold_stream(counts_[lpn + i], threshold_, streams_));
  }

  void snapshot(SnapshotArchive&) override {}  // the counts are Streams' (saved there)

 private:
  const WriteCounts& counts_;
  uint32_t threshold_, streams_;
};

}  // namespace

std::unique_ptr<StreamPolicy> make_hotcold_stream(const StreamContext& c) {
  if (!c.counts) throw std::logic_error("hotcold stream assignment without per-LPN write counts");
  return std::make_unique<HotColdStream>(c);
}

}  // namespace ssdtlm
