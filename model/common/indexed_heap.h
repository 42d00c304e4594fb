// IndexedMinHeap: a 4-ary min-heap of ids in [0, n), each with a key, addressable by id: push, change a key,
// erase any id, read the least. O(log n) per change, O(1) to read the least, no allocation after construction
// (the entries sit in one array with their keys, so a sift compares neighbouring memory). Key needs a strict
// total order (operator<): the least is then the same as a std::set<Key>'s first element, whatever the history.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ssdtlm {

template <class Key>
class IndexedMinHeap {
 public:
  static constexpr uint32_t kAbsent = ~uint32_t(0);

  explicit IndexedMinHeap(size_t ids = 0) : pos_(ids, kAbsent) { heap_.reserve(ids < 1024 ? ids : 1024); }

  bool empty() const { return heap_.empty(); }
  size_t size() const { return heap_.size(); }
  bool contains(uint32_t id) const { return pos_[id] != kAbsent; }
  uint32_t top_id() const { return heap_.front().id; }
  const Key& top_key() const { return heap_.front().key; }
  const Key& key(uint32_t id) const { return heap_[pos_[id]].key; }

  void push(uint32_t id, const Key& k) {
    heap_.push_back(Entry{k, id});
    pos_[id] = uint32_t(heap_.size() - 1);
    up(pos_[id]);
  }

  // id's key becomes k (id is in the heap).
  void update(uint32_t id, const Key& k) {
    const uint32_t i = pos_[id];
    const bool smaller = k < heap_[i].key;
    heap_[i].key = k;
    if (smaller)
      up(i);
    else
      down(i);
  }

  void erase(uint32_t id) {
    const uint32_t i = pos_[id];
    pos_[id] = kAbsent;
    Entry last = heap_.back();
    heap_.pop_back();
    if (i == heap_.size()) return;
    const bool smaller = last.key < heap_[i].key;
    heap_[i] = last;
    pos_[last.id] = i;
    if (smaller)
      up(i);
    else
      down(i);
  }

  size_t memory_bytes() const { return heap_.capacity() * sizeof(Entry) + pos_.capacity() * sizeof(uint32_t); }

 private:
  struct Entry {
    Key key;
    uint32_t id;
  };
  static constexpr uint32_t kArity = 4;

  void up(uint32_t i) {
    Entry e = heap_[i];
    while (i > 0) {
      const uint32_t p = (i - 1) / kArity;
      if (!(e.key < heap_[p].key)) break;
      heap_[i] = heap_[p];
      pos_[heap_[i].id] = i;
      i = p;
    }
    heap_[i] = e;
    pos_[e.id] = i;
  }

  void down(uint32_t i) {
    Entry e = heap_[i];
    const uint32_t n = uint32_t(heap_.size());
    for (;;) {
      const uint32_t first = i * kArity + 1;
      if (first >= n) break;
      const uint32_t last = first + kArity < n ? first + kArity : n;
      uint32_t c = first;
      for (uint32_t k = first + 1; k < last; ++k)
        if (heap_[k].key < heap_[c].key) c = k;
      if (!(heap_[c].key < e.key)) break;
      heap_[i] = heap_[c];
      pos_[heap_[i].id] = i;
      i = c;
    }
    heap_[i] = e;
    pos_[e.id] = i;
  }

  std::vector<Entry> heap_;
  std::vector<uint32_t> pos_;  // per id: its index in heap_, kAbsent when not in it
};

}  // namespace ssdtlm
