// Large arrays read at random (the map, per-LPN counters): backed by transparent huge pages where the kernel
// offers them on request (/sys/kernel/mm/transparent_hugepage/enabled = madvise or always), so that a random
// access costs its cache miss without a TLB miss and page walk on top. Simulator speed only: the contents, size
// and capacity are those of the plain vector; elsewhere (other systems, THP off) nothing changes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace ssdtlm {

// Asks for huge pages over the 2 MiB-aligned part of [p, p + bytes) (memory not yet touched gets them as it is
// first written). A no-op below 2 MiB.
inline void advise_huge_pages(const void* p, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHuge = uintptr_t(2) << 20;
  const uintptr_t from = (uintptr_t(p) + kHuge - 1) & ~(kHuge - 1), to = (uintptr_t(p) + bytes) & ~(kHuge - 1);
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

}  // namespace ssdtlm
