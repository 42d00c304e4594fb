// AutoStream, the multi-queue (MQ) variant (Yang et al., "AutoStream: Automatic Stream Management for
// Multi-streamed SSDs", SYSTOR'17), as streams.assign=autostream. Declared here (not only in its .cpp)
// so the unit tests can look at a chunk's queue and count.
//
// The logical space is cut into chunks of streams.autostream_chunk_bytes. Time is logical: one tick per
// host write command. Each chunk keeps an update count, the tick of its last write and an expiry tick.
// Queue q (0 .. streams-1) holds the chunks whose count is in [2^q, 2^(q+1)) (the last queue everything
// above), and a write to a chunk goes to the stream of its queue after the update:
//   * promotion: a write adds one to the chunk's count, moves it to the most-recent end of queue
//     floor(log2(count)) and sets its expiry to now + lifetime;
//   * lifetime: the interval between the last two writes of the hottest chunk, re-measured whenever a
//     chunk's count exceeds the highest count seen (the paper's adaptive expiry);
//   * demotion and expiry: after every write, the least recently written chunk of each queue q >= 1 is
//     demoted one queue if its expiry has passed (expiry < now), and gets a new expiry;
//   * decay: a demoted chunk's count is halved (at most the top of its new queue), so a chunk that
//     turned cold must earn its way back. (The reference code keeps the count and moves the chunk back
//     at its next write; halving makes the update counts decay, as stream temperatures should.)
// A command's units all go to the stream of the chunk of its first unit (the paper's driver decides per
// request). The SFR variant (sequentiality, frequency, recency) is not modelled.
// Cost: O(streams) per write command (one expiry check per queue); 32 bytes per chunk.
#pragma once
#include <cstdint>
#include <vector>

#include "controller/streams/stream_policy.h"

namespace ssdtlm {

class AutoStream : public StreamPolicy {
 public:
  AutoStream(uint32_t streams, uint64_t logical_units, uint32_t chunk_units);

  void assign(uint32_t lpn, uint32_t units, const WriteTag& tag, uint8_t* out) override;
  size_t memory_bytes() const override { return chunks_.capacity() * sizeof(Chunk) + queues_.capacity() * sizeof(Queue); }

  // One write to `chunk`: returns its stream after the update.
  uint32_t write(uint32_t chunk);
  uint32_t queue_of(uint32_t chunk) const { return chunks_[chunk].queue; }
  uint32_t count_of(uint32_t chunk) const { return chunks_[chunk].count; }
  uint64_t expiry_of(uint32_t chunk) const { return chunks_[chunk].expire; }
  uint64_t lifetime() const { return lifetime_; }
  uint64_t now() const { return now_; }
  uint32_t chunks() const { return uint32_t(chunks_.size()); }
  uint64_t demotions() const { return demotions_; }

 private:
  static constexpr uint32_t kNone = ~uint32_t(0);
  struct Chunk {
    uint32_t count = 0;
    uint32_t prev = kNone, next = kNone;  // LRU list of its queue (queues >= 1 only)
    uint32_t queue = 0;
    uint64_t last = 0, expire = 0;
  };
  struct Queue {
    uint32_t head = kNone, tail = kNone;  // least and most recently written
  };
  void unlink(uint32_t c);
  void push(uint32_t c, uint32_t q);  // most recent end of queue q (queue 0 keeps no list)
  void demote(uint32_t c);

  uint32_t chunk_units_;
  std::vector<Chunk> chunks_;
  std::vector<Queue> queues_;
  uint64_t now_ = 0, lifetime_ = 0;
  uint32_t max_count_ = 0, hottest_ = kNone;
  uint64_t demotions_ = 0;
};

}  // namespace ssdtlm
