// Division of 32-bit values by a divisor fixed at run time, without a divide instruction: a shift when
// the divisor is a power of two, else one 64x64->128 multiply by ceil(2^64 / d), which is exact for
// every 32-bit dividend (Lemire, Kaser and Kurz, "Faster remainder by direct computation", 2019).
// Address decoding (ppa -> block, page, die) runs several times per simulated unit write.
#pragma once
#include <cstdint>

namespace ssdtlm {

class FastDiv {
 public:
  FastDiv() = default;
  explicit FastDiv(uint32_t d) : d_(d) {
    if ((d & (d - 1)) == 0) {
      while ((uint32_t(1) << shift_) < d) ++shift_;
    } else {
      m_ = ~uint64_t(0) / d + 1;
    }
  }
  uint32_t div(uint32_t n) const {
    return m_ ? uint32_t((static_cast<unsigned __int128>(m_) * n) >> 64) : n >> shift_;
  }
  uint32_t mod(uint32_t n) const { return n - div(n) * d_; }
  uint32_t divisor() const { return d_; }

 private:
  uint64_t m_ = 0;  // 0: power of two, use shift_
  uint32_t d_ = 1;
  uint32_t shift_ = 0;
};

}  // namespace ssdtlm
