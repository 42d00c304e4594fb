// PCStream's bounded PC-stream table (see pc_stream_table.h).
#include "controller/streams/pc_stream_table.h"

#include <algorithm>

namespace ssdtlm {

PcStreamTable::PcStreamTable(uint64_t bytes)
    : capacity_(uint32_t(std::min<uint64_t>(bytes / kEntryBytes, 1u << 24))), lru_(capacity_) {
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
      if (touch) lru_.touch(i);
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
    i = lru_.back();
    lru_.remove(i);
    unlink_chain(i);
    ++evictions_;
  }
  e_[i] = Entry();
  e_[i].pc = pc;
  uint32_t& head = heads_[bucket(pc)];
  e_[i].chain = head;
  head = i;
  lru_.push_front(i);
  return &e_[i];
}

void PcStreamTable::clear() {
  while (!lru_.empty()) lru_.remove(lru_.back());
  std::fill(heads_.begin(), heads_.end(), kNone);
  e_.clear();
  size_ = 0;
}

std::vector<uint32_t> PcStreamTable::pcs_by_recency() const {
  std::vector<uint32_t> out;
  for (uint32_t i = lru_.back(); i != kInvalid; i = lru_.next_toward_front(i)) out.push_back(e_[i].pc);
  std::reverse(out.begin(), out.end());  // most recently used first
  return out;
}

}  // namespace ssdtlm
