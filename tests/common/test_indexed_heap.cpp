// IndexedMinHeap against std::set under random pushes, key changes (up and down) and erases of any id: the
// least entry, the size and membership agree after every operation.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <utility>

#include "common/indexed_heap.h"
#include "common/rng.h"

using ssdtlm::IndexedMinHeap;

TEST_CASE("IndexedMinHeap keeps the least key as a sorted set does", "[common][heap]") {
  for (uint32_t ids : {1u, 7u, 100u, 3000u}) {
    ssdtlm::Rng rng(ids);
    IndexedMinHeap<std::pair<uint64_t, uint32_t>> heap(ids);  // (key, id): a strict total order
    std::set<std::pair<uint64_t, uint32_t>> set;
    std::map<uint32_t, uint64_t> key_of;
    for (int step = 0; step < 20000; ++step) {
      const uint32_t id = uint32_t(rng.below(ids));
      const uint64_t k = rng.below(50);  // few distinct keys: ties broken by id
      INFO("ids " << ids << " step " << step << " id " << id);
      if (!heap.contains(id)) {
        REQUIRE(key_of.count(id) == 0);
        heap.push(id, {k, id});
        set.insert({k, id});
        key_of[id] = k;
      } else if (rng.below(3) == 0) {
        heap.erase(id);
        set.erase({key_of[id], id});
        key_of.erase(id);
      } else {
        heap.update(id, {k, id});
        set.erase({key_of[id], id});
        set.insert({k, id});
        key_of[id] = k;
        REQUIRE(heap.key(id) == std::make_pair(k, id));
      }
      REQUIRE(heap.size() == set.size());
      REQUIRE(heap.empty() == set.empty());
      if (!set.empty()) {
        REQUIRE(heap.top_id() == set.begin()->second);
        REQUIRE(heap.top_key() == *set.begin());
      }
    }
    while (!set.empty()) {  // drained by erasing the least: ascending order
      REQUIRE(heap.top_key() == *set.begin());
      heap.erase(heap.top_id());
      set.erase(set.begin());
    }
    CHECK(heap.empty());
  }
}
