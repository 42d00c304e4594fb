// An intrusive doubly-linked list over small integer ids (map segments): O(1) insert, remove and
// move-to-front, no allocation after construction. Front = most recently used.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "flash/geometry.h"

namespace ssdtlm {

class LruList {
 public:
  explicit LruList(uint32_t ids = 0) : prev_(ids, kInvalid), next_(ids, kInvalid), in_(ids, 0) {}

  bool empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  bool contains(uint32_t id) const { return in_[id]; }
  uint32_t front() const { return head_; }
  uint32_t back() const { return tail_; }
  uint32_t next_toward_front(uint32_t id) const { return prev_[id]; }

  void push_front(uint32_t id) {
    prev_[id] = kInvalid;
    next_[id] = head_;
    (head_ == kInvalid ? tail_ : prev_[head_]) = id;
    head_ = id;
    in_[id] = 1;
    ++size_;
  }
  void push_back(uint32_t id) {
    next_[id] = kInvalid;
    prev_[id] = tail_;
    (tail_ == kInvalid ? head_ : next_[tail_]) = id;
    tail_ = id;
    in_[id] = 1;
    ++size_;
  }
  void remove(uint32_t id) {
    (prev_[id] == kInvalid ? head_ : next_[prev_[id]]) = next_[id];
    (next_[id] == kInvalid ? tail_ : prev_[next_[id]]) = prev_[id];
    in_[id] = 0;
    --size_;
  }
  void touch(uint32_t id) {
    if (head_ == id) return;
    remove(id);
    push_front(id);
  }
  // Saves or loads the list (controller/snapshot: SnapshotArchive).
  template <class Archive>
  void snapshot(Archive& a) {
    a.io_all(prev_, next_, in_, head_, tail_, size_);
  }
  size_t memory_bytes() const { return prev_.capacity() * 4 + next_.capacity() * 4 + in_.capacity(); }

 private:
  std::vector<uint32_t> prev_, next_;
  std::vector<uint8_t> in_;
  uint32_t head_ = kInvalid, tail_ = kInvalid, size_ = 0;
};

}  // namespace ssdtlm
