// PCStream's bounded PC-stream table (see pc_stream_table.h).
#include "controller/streams/pc_stream_table.h"

#include <algorithm>

namespace ssdtlm {

PcStreamTable::PcStreamTable(uint64_t bytes) : capacity_(uint32_t(std::min<uint64_t>(bytes / kEntryBytes, 1u << 24))) {
  if (capacity_ == 0) return;
  uint32_t buckets = 2, bits = 1;
  while (buckets < capacity_) {
    buckets *= 2;
    ++bits;
  }
  shift_ = 32 - bits;
  heads_.assign(buckets, kNone);
  e_.reserve(capacity_);
}

void PcStreamTable::unlink_lru(uint32_t i) {
  Entry& x = e_[i];
  (x.prev == kNone ? mru_ : e_[x.prev].next) = x.next;
  (x.next == kNone ? lru_ : e_[x.next].prev) = x.prev;
  x.prev = x.next = kNone;
}

void PcStreamTable::push_front(uint32_t i) {
  Entry& x = e_[i];
  x.prev = kNone;
  x.next = mru_;
  (mru_ == kNone ? lru_ : e_[mru_].prev) = i;
  mru_ = i;
}

void PcStreamTable::unlink_chain(uint32_t i) {
  uint32_t* link = &heads_[bucket(e_[i].pc)];
  while (*link != i) link = &e_[*link].chain;
  *link = e_[i].chain;
  e_[i].chain = kNone;
}

PcStreamTable::Entry* PcStreamTable::find(uint32_t pc, bool touch) {
  if (capacity_ == 0) return nullptr;
  for (uint32_t i = heads_[bucket(pc)]; i != kNone; i = e_[i].chain)
    if (e_[i].pc == pc) {
      if (touch && mru_ != i) {
        unlink_lru(i);
        push_front(i);
      }
      return &e_[i];
    }
  return nullptr;
}

PcStreamTable::Entry* PcStreamTable::upsert(uint32_t pc) {
  if (capacity_ == 0) return nullptr;
  if (Entry* e = find(pc, true)) return e;
  uint32_t i;
  if (size_ < capacity_) {
    i = size_++;
    e_.emplace_back();
  } else {  // full: the least recently used entry makes room
    i = lru_;
    unlink_lru(i);
    unlink_chain(i);
    ++evictions_;
  }
  e_[i] = Entry();
  e_[i].pc = pc;
  uint32_t& head = heads_[bucket(pc)];
  e_[i].chain = head;
  head = i;
  push_front(i);
  return &e_[i];
}

std::vector<uint32_t> PcStreamTable::pcs_by_recency() const {
  std::vector<uint32_t> out;
  for (uint32_t i = mru_; i != kNone; i = e_[i].next) out.push_back(e_[i].pc);
  return out;
}

}  // namespace ssdtlm
