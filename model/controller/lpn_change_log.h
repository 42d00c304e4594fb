// The LPNs whose map entry or acknowledged version changed since the last power loss: a bit per LPN and the
// list of those set. The recovery check (controller/power_loss/) compares only these (and the buffered ones)
// after the first loss: every other LPN recovers to what the previous loss verified. Armed by the first loss (the
// preconditioning's writes are not logged); the FTL's map updates and the integrity checker's version changes
// note into it.
#pragma once
#include <cstdint>
#include <vector>

namespace ssdtlm {

class LpnChangeLog {
 public:
  void arm(uint64_t logical_units) {
    bits_.assign((logical_units + 63) / 64, 0);
    list_.clear();
    armed_ = true;
  }
  bool armed() const { return armed_; }
  void note(uint32_t lpn) {
    uint64_t& word = bits_[lpn >> 6];
    const uint64_t bit = uint64_t(1) << (lpn & 63);
    if (word & bit) return;
    word |= bit;
    list_.push_back(lpn);
  }
  const std::vector<uint32_t>& lpns() const { return list_; }
  void clear() {
    for (uint32_t lpn : list_) bits_[lpn >> 6] = 0;
    list_.clear();
  }
  size_t memory_bytes() const { return bits_.capacity() * 8 + list_.capacity() * 4; }

 private:
  bool armed_ = false;
  std::vector<uint64_t> bits_;
  std::vector<uint32_t> list_;
};

}  // namespace ssdtlm
