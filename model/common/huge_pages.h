// Large arrays read at random (the map, the dies' out-of-band data): backed by transparent huge pages where the
// kernel offers them on request (/sys/kernel/mm/transparent_hugepage/enabled = madvise or always), so that a
// random access, or its prefetch, costs its cache miss without a TLB miss and page walk on top (a nested walk
// under a hypervisor). Simulator speed only: contents, sizes and capacities are those of plain vectors; where
// huge pages are not offered nothing changes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ssdtlm {

constexpr size_t kHugePageBytes = size_t(2) << 20;

// Asks for huge pages over the 2 MiB-aligned part of [p, p + bytes) (memory not yet touched gets them as it is
// first written). A no-op below 2 MiB.
inline void advise_huge_pages(const void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  const uintptr_t from = (uintptr_t(p) + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1),
                  to = (uintptr_t(p) + bytes) & ~uintptr_t(kHugePageBytes - 1);
  if (to > from) madvise(reinterpret_cast<void*>(from), to - from, MADV_HUGEPAGE);
#else
  (void)p;
  (void)bytes;
#endif
}

// v = n copies of value, in memory advised for huge pages before it is first written.
template <class T>
void assign_huge(std::vector<T>& v, size_t n, const T& value) {
  std::vector<T>().swap(v);
  v.reserve(n);
  advise_huge_pages(v.data(), n * sizeof(T));
  v.assign(n, value);
}

// One region of huge-page-advised memory carved into the arrays of many small owners (each die's out-of-band
// data is a few hundred KiB: alone, none would fill a huge page). Memory is given out in order and returned only
// when the arena goes; the owners must not outlive it. Pages never written cost nothing.
class HugeArena {
 public:
  explicit HugeArena(size_t bytes) {
    size_ = (bytes + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    if (size_ == 0) return;
    raw_ = new (std::nothrow) char[size_ + kHugePageBytes];
    if (!raw_) return;
    base_ = reinterpret_cast<char*>((uintptr_t(raw_) + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1));
    advise_huge_pages(base_, size_);
  }
  ~HugeArena() { delete[] raw_; }
  HugeArena(const HugeArena&) = delete;
  HugeArena& operator=(const HugeArena&) = delete;
  // bytes at a 64-byte boundary, or null when the arena is full.
  void* take(size_t bytes) {
    const size_t at = (used_ + 63) & ~size_t(63);
    if (!base_ || at + bytes > size_) return nullptr;
    used_ = at + bytes;
    return base_ + at;
  }
  bool owns(const void* p) const { return base_ && p >= base_ && p < base_ + size_; }
  // What `n` arrays of these sizes take, 64-byte alignment included.
  static size_t need(size_t bytes, size_t n = 1) { return n * ((bytes + 63) & ~size_t(63)); }

 private:
  char* raw_ = nullptr;
  char* base_ = nullptr;
  size_t size_ = 0, used_ = 0;
};

// A vector allocator drawing from a HugeArena (the ordinary heap without one, or once it is full).
template <class T>
struct ArenaAllocator {
  using value_type = T;
  HugeArena* arena = nullptr;
  ArenaAllocator() = default;
  explicit ArenaAllocator(HugeArena* a) : arena(a) {}
  template <class U>
  ArenaAllocator(const ArenaAllocator<U>& o) : arena(o.arena) {}
  T* allocate(size_t n) {
    if (arena)
      if (void* p = arena->take(n * sizeof(T))) return static_cast<T*>(p);
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, size_t n) {
    if (arena && arena->owns(p)) return;  // returned with the arena
    std::allocator<T>().deallocate(p, n);
  }
  template <class U>
  bool operator==(const ArenaAllocator<U>& o) const { return arena == o.arena; }
  template <class U>
  bool operator!=(const ArenaAllocator<U>& o) const { return arena != o.arena; }
};

template <class T>
using ArenaVector = std::vector<T, ArenaAllocator<T>>;

}  // namespace ssdtlm
