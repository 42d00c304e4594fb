// AutoStream MQ (see autostream.h).
#include "controller/streams/autostream.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace ssdtlm {

AutoStream::AutoStream(uint32_t streams, uint64_t logical_units, uint32_t chunk_units)
    : chunk_units_(chunk_units),
      chunks_(size_t((logical_units + chunk_units - 1) / std::max<uint32_t>(1, chunk_units))),
      queues_(std::max<uint32_t>(1, streams)) {
  if (chunk_units == 0 || chunks_.empty()) throw std::logic_error("autostream: no chunk");
}

void AutoStream::unlink(uint32_t c) {
  Chunk& ch = chunks_[c];
  if (ch.queue == 0) return;
  Queue& q = queues_[ch.queue];
  (ch.prev == kNone ? q.head : chunks_[ch.prev].next) = ch.next;
  (ch.next == kNone ? q.tail : chunks_[ch.next].prev) = ch.prev;
  ch.prev = ch.next = kNone;
}

void AutoStream::push(uint32_t c, uint32_t q) {
  Chunk& ch = chunks_[c];
  ch.queue = q;
  if (q == 0) return;
  Queue& Q = queues_[q];
  ch.prev = Q.tail;
  ch.next = kNone;
  (Q.tail == kNone ? Q.head : chunks_[Q.tail].next) = c;
  Q.tail = c;
}

void AutoStream::demote(uint32_t c) {
  Chunk& ch = chunks_[c];
  const uint32_t q = ch.queue;  // >= 1
  unlink(c);
  ch.count = std::min<uint32_t>(ch.count / 2, (1u << std::min<uint32_t>(q, 31)) - 1);  // in [2^(q-1), 2^q)
  ch.expire = now_ + lifetime_;
  push(c, q - 1);
  if (c == hottest_) max_count_ = ch.count;  // the next chunk to exceed it re-measures the lifetime
  ++demotions_;
}

uint32_t AutoStream::write(uint32_t c) {
  Chunk& ch = chunks_[c];
  ++now_;
  if (ch.count != ~uint32_t(0)) ++ch.count;
  if (ch.count > max_count_) {  // a new hottest chunk: its write interval is the lifetime
    max_count_ = ch.count;
    hottest_ = c;
    lifetime_ = now_ - ch.last;
  }
  ch.last = now_;
  ch.expire = now_ + lifetime_;
  const uint32_t level = 31 - uint32_t(__builtin_clz(ch.count));
  const uint32_t q = std::min<uint32_t>(level, uint32_t(queues_.size()) - 1);
  unlink(c);
  push(c, q);
  // Expiry: the least recently written chunk of every queue above the first.
  for (uint32_t k = uint32_t(queues_.size()) - 1; k >= 1; --k) {
    const uint32_t h = queues_[k].head;
    if (h != kNone && chunks_[h].expire < now_) demote(h);
  }
  return chunks_[c].queue;
}

void AutoStream::assign(uint32_t lpn, uint32_t units, const WriteTag&, uint8_t* out) {
  std::memset(out, int(write(lpn / chunk_units_)), units);
}

std::unique_ptr<StreamPolicy> make_autostream(const StreamContext& c) {
  return std::make_unique<AutoStream>(c.streams, c.logical_units, c.chunk_units);
}

}  // namespace ssdtlm
