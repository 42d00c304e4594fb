// Block-index distributions for random workloads, spelled like fio's `random_distribution`.
//
//   random         uniform over [0, n). With random_map, every block is returned exactly once
//                  per pass of n calls (a fresh keyed permutation each pass, O(1) memory).
//   zipf[:theta]   Zipf law p(rank k) = k^-theta / zeta(n, theta), theta > 0, theta != 1
//                  (fio's default theta is 1.1). Gray et al.'s generator, as fio lib/zipf.c.
//   pareto[:h]     rank = (n-1) * u^(ln h / ln(1-h)), 0 < h < 1 (fio's default h = 0.2):
//                  a fraction 1-h of the accesses hit the first fraction h of the ranks.
//   normal[:dev]   fio lib/gauss.c: mean of 12 uniform draws over [0, n] (bell centred on n/2,
//                  std dev ~ n/12), plus, when dev > 0, a uniform jitter of width dev% of n.
//                  0 <= dev < 100 (default 0). See normal_next() in the .cpp for the details.
//   zoned:a/s:b/t:... a% of the accesses go uniformly to the first s% of the range, b% to the
//                  next t%, and so on. Both columns must sum to 100 (an empty access or size
//                  field takes an equal share of what the others leave, as in fio).
//
// zipf, pareto and normal produce a "rank"; with scatter it is spread over the range as fio
// does (unless fio's hash is disabled): idx = (rank * 0x61C8864680B583EB mod 2^64 + offset) mod n.
// Without scatter idx = rank, so the hot blocks are the lowest addresses (normal: the middle).
// random_map only affects `random` and the uniform pick inside each `zoned` zone; fio also
// ignores its random map for zipf/pareto/normal (they bypass __get_next_rand_offset).
#pragma once
#include <cstdint>
#include <memory>
#include <string>

#include "common/rng.h"

namespace ssdtlm {

class AddressDistribution {
 public:
  virtual ~AddressDistribution() = default;
  // Next block index in [0, blocks()). O(1) per call (amortised for the random map).
  virtual uint64_t next(Rng& rng) = 0;
  virtual uint64_t blocks() const = 0;
  // zoned: the zone (0-based, in the order the spec lists them) the last next() drew from; 0 otherwise.
  virtual uint32_t last_zone() const { return 0; }
};

// Builds a distribution from fio's spelling (see above) over nblocks blocks.
// scatter_seed picks the scatter offset of zipf/pareto (fio draws it from its RNG; normal
// uses offset 0 like fio when no centre is given). Throws std::invalid_argument naming the
// spec and what was expected when the spec is malformed or nblocks == 0.
std::unique_ptr<AddressDistribution> make_distribution(const std::string& spec, uint64_t nblocks,
                                                       bool random_map, bool scatter,
                                                       uint64_t scatter_seed = 0);

// fio's rank scattering: (rank * 0x61C8864680B583EB mod 2^64 + offset) mod n.
uint64_t scatter_index(uint64_t rank, uint64_t offset, uint64_t n);

// Generalised harmonic number zeta(n, theta) = sum_{i=1..n} i^-theta. Exact summation of the
// first 10,000 terms plus an Euler-Maclaurin tail, so O(1) for any n (fio sums at most 10M
// terms and truncates the rest).
double zipf_zeta(uint64_t n, double theta);

}  // namespace ssdtlm
