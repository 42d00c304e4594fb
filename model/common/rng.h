// Fast, seedable pseudo-random generator (xoshiro256**, seeded by splitmix64).
// Deterministic across platforms: every random choice in the model draws from an Rng
// seeded from the run's seed, so a run reproduces bit for bit.
#pragma once
#include <cstdint>

namespace ssdtlm {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }

  void reseed(uint64_t seed) {
    for (auto& w : s_) w = splitmix(seed);
  }

  uint64_t next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  // Uniform double in [0, 1).
  double uniform() { return double(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n) without modulo bias worth measuring (Lemire's multiply-shift).
  uint64_t below(uint64_t n) {
    return uint64_t((static_cast<unsigned __int128>(next_u64()) * n) >> 64);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace ssdtlm
