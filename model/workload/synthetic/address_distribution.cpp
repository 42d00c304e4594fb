#include "workload/synthetic/address_distribution.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "common/text.h"

namespace ssdtlm {
namespace {

std::string num(double v) { return format_number(v); }

constexpr uint64_t kGoldenRatio64 = 0x61C8864680B583EBull;

[[noreturn]] void bad_spec(const std::string& spec, const std::string& expected) {
  throw std::invalid_argument("random distribution '" + spec + "': expected " + expected);
}

// Parses a whole string as a finite double; false on any trailing garbage.
bool parse_double(const std::string& s, double& out) {
  if (s.empty()) return false;
  errno = 0;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return errno == 0 && end == s.c_str() + s.size() && std::isfinite(out);
}

uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// ---------------------------------------------------------------------------------------------
// Uniform, independent picks.
class UniformDistribution final : public AddressDistribution {
 public:
  explicit UniformDistribution(uint64_t n) : n_(n) {}
  uint64_t next(Rng& rng) override { return rng.below(n_); }
  uint64_t blocks() const override { return n_; }

 private:
  uint64_t n_;
};

// Uniform without repetition: each pass is a keyed bijection P of [0, 2^k) (2^k = the next power
// of two >= n) walked in counter order, P(0), P(1), ..., skipping outputs >= n (cycle-walking).
// Every block comes out exactly once per pass of n calls, with O(1) memory; on average fewer than
// two evaluations of P per call since 2^k < 2n. P is a chain of steps that are each bijective on
// k-bit words: xor with a key, multiply by an odd constant mod 2^k, add a key mod 2^k, and
// x ^= x >> s. New keys are drawn from the caller's Rng at the start of every pass.
class PermutedDistribution final : public AddressDistribution {
 public:
  explicit PermutedDistribution(uint64_t n) : n_(n) {
    int bits = 0;
    while (bits < 64 && (uint64_t(1) << bits) < n) ++bits;
    mask_ = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    shift_ = bits < 2 ? 1 : (bits + 1) / 2;
  }

  uint64_t next(Rng& rng) override {
    for (;;) {
      if (pos_ == 0) rekey(rng);
      const uint64_t x = mix(pos_);
      pos_ = (pos_ + 1) & mask_;  // back to 0 at the end of a pass
      if (x < n_) return x;
    }
  }
  uint64_t blocks() const override { return n_; }

 private:
  void rekey(Rng& rng) {
    k0_ = rng.next_u64() & mask_;
    k1_ = rng.next_u64() & mask_;
    for (auto& m : m_) m = (rng.next_u64() | 1) & mask_;
  }
  uint64_t mix(uint64_t x) const {
    x ^= k0_;
    x = (x * m_[0]) & mask_;
    x ^= x >> shift_;
    x = (x + k1_) & mask_;
    x = (x * m_[1]) & mask_;
    x ^= x >> shift_;
    x = (x * m_[2]) & mask_;
    x ^= x >> shift_;
    return x;
  }

  uint64_t n_;
  uint64_t mask_ = 0;
  int shift_ = 1;
  uint64_t pos_ = 0;
  uint64_t k0_ = 0, k1_ = 0;
  uint64_t m_[3] = {1, 1, 1};
};

std::unique_ptr<AddressDistribution> make_uniform(uint64_t n, bool random_map) {
  if (random_map) return std::make_unique<PermutedDistribution>(n);
  return std::make_unique<UniformDistribution>(n);
}

// Maps a rank to a block index, scattered or not.
class RankMapper {
 public:
  RankMapper(uint64_t n, bool scatter, uint64_t offset) : n_(n), scatter_(scatter), off_(offset) {}
  uint64_t operator()(uint64_t rank) const {
    return scatter_ ? scatter_index(rank, off_, n_) : rank % n_;
  }

 private:
  uint64_t n_;
  bool scatter_;
  uint64_t off_;
};

// ---------------------------------------------------------------------------------------------
// Zipf by Gray et al., "Quickly generating billion-record synthetic databases" (SIGMOD 1994),
// exactly as fio lib/zipf.c: with zeta_n = zeta(n, theta), zeta_2 = 1 + 0.5^theta,
//   alpha = 1 / (1 - theta),  eta = (1 - (2/n)^(1-theta)) / (1 - zeta_2 / zeta_n),
// draw u in [0,1) and
//   u*zeta_n < 1                 -> rank 1
//   u*zeta_n < 1 + 0.5^theta     -> rank 2
//   otherwise                    -> rank 1 + floor(n * (eta*u - eta + 1)^alpha)
// (ranks 1-based here, 0-based on output). Ranks 1 and 2 are exact; beyond, the inverse of the
// continuous approximation of the CDF. zeta_n is computed once in O(1) by zipf_zeta().
class ZipfDistribution final : public AddressDistribution {
 public:
  ZipfDistribution(uint64_t n, double theta, RankMapper map) : n_(n), map_(map) {
    zetan_ = zipf_zeta(n, theta);
    half_pow_ = std::pow(0.5, theta);
    alpha_ = 1.0 / (1.0 - theta);
    if (n > 2) {
      const double zeta2 = 1.0 + half_pow_;
      eta_ = (1.0 - std::pow(2.0 / double(n), 1.0 - theta)) / (1.0 - zeta2 / zetan_);
    }
  }

  uint64_t next(Rng& rng) override {
    const double u = rng.uniform();
    const double uz = u * zetan_;
    uint64_t rank;  // 0-based
    if (uz < 1.0) {
      rank = 0;
    } else if (uz < 1.0 + half_pow_) {
      rank = 1;
    } else {
      const double r = double(n_) * std::pow(eta_ * u - eta_ + 1.0, alpha_);
      rank = r >= double(n_ - 1) ? n_ - 1 : uint64_t(r);
    }
    return map_(rank);
  }
  uint64_t blocks() const override { return n_; }

 private:
  uint64_t n_;
  RankMapper map_;
  double zetan_ = 1, half_pow_ = 0.5, alpha_ = 0, eta_ = 0;
};

// ---------------------------------------------------------------------------------------------
// Pareto as fio lib/zipf.c: rank = floor((n-1) * u^p), p = ln h / ln(1-h).
// P(rank < h*(n-1)) = P(u < h^(1/p)) = h^(ln(1-h)/ln h) = 1-h: the "1-h / h" rule.
class ParetoDistribution final : public AddressDistribution {
 public:
  ParetoDistribution(uint64_t n, double h, RankMapper map)
      : n_(n), map_(map), pow_(std::log(h) / std::log(1.0 - h)) {}

  uint64_t next(Rng& rng) override {
    const double r = double(n_ - 1) * std::pow(rng.uniform(), pow_);
    const uint64_t rank = r >= double(n_ - 1) ? n_ - 1 : uint64_t(r);
    return map_(rank);
  }
  uint64_t blocks() const override { return n_; }

 private:
  uint64_t n_;
  RankMapper map_;
  double pow_;
};

// ---------------------------------------------------------------------------------------------
// normal:dev, as fio lib/gauss.c (gauss_init/gauss_next):
//  * s = ceil(mean of 12 draws, each uniform over the integers [0, n]). By the central limit
//    theorem s is close to normal with mean n/2 and std dev sqrt(n^2/12 / 12) = n/12.
//  * dev (a percentage, 0 <= dev < 100) sets W = ceil(n * dev / 100), capped at n/2. When W > 0
//    a jitter j = floor(W * u) - floor(W / 2), uniform over about [-W/2, W/2), is added; while
//    s + j falls outside [0, n) the jitter is halved (C integer division, toward 0). The jitter
//    adds W^2/12 to the variance: std dev = sqrt((n/12)^2 + W^2/12), e.g. n/6 for dev = 50.
//    So `dev` widens the bell by a uniform spread; it is not the std dev itself.
//  * The rank s (in [0, n]) is scattered like the others, offset 0 (fio's default centre), or
//    taken mod n without scatter (so the bell stays centred on the middle of the range).
// One guard fio lacks: when the jitter has been halved to 0 and s == n, we stop (fio would loop).
class NormalDistribution final : public AddressDistribution {
 public:
  NormalDistribution(uint64_t n, double dev, RankMapper map) : n_(n), map_(map) {
    if (dev > 0.0) {
      width_ = uint64_t(std::ceil(double(n) * dev / 100.0));
      if (width_ > n / 2) width_ = n / 2;
    }
  }

  uint64_t next(Rng& rng) override {
    constexpr int kIters = 12;
    unsigned __int128 sum = 0;
    const uint64_t span = n_ == ~uint64_t(0) ? n_ : n_ + 1;  // draws over [0, n]
    for (int i = 0; i < kIters; ++i) sum += rng.below(span);
    uint64_t s = uint64_t((sum + kIters - 1) / kIters);
    if (width_ > 0) {
      int64_t j = int64_t(double(width_) * rng.uniform()) - int64_t(width_ / 2);
      auto out_of_range = [&](int64_t jj) {
        return jj < 0 ? uint64_t(-jj) > s : s + uint64_t(jj) >= n_;
      };
      while (j != 0 && out_of_range(j)) j /= 2;
      s = j < 0 ? s - uint64_t(-j) : s + uint64_t(j);
    }
    return map_(s);
  }
  uint64_t blocks() const override { return n_; }

 private:
  uint64_t n_;
  RankMapper map_;
  uint64_t width_ = 0;
};

// ---------------------------------------------------------------------------------------------
// zoned: pick a zone with probability access%/100, then a uniform block inside it (through a
// per-zone permutation with random_map, like fio's axmap inside __get_next_rand_offset).
class ZonedDistribution final : public AddressDistribution {
 public:
  struct Zone {
    double cum_access;  // cumulative access share in [0, 1] up to and including this zone
    uint64_t start;
    std::unique_ptr<AddressDistribution> pick;
    uint32_t index;     // position in the spec (zones with no access are left out of zones_)
  };
  ZonedDistribution(uint64_t n, std::vector<Zone> zones) : n_(n), zones_(std::move(zones)) {}

  uint64_t next(Rng& rng) override {
    const double u = rng.uniform();
    for (auto& z : zones_)
      if (u < z.cum_access) return draw(z, rng);
    return draw(zones_.back(), rng);  // rounding: u >= the last cumulative share
  }
  uint64_t blocks() const override { return n_; }
  uint32_t last_zone() const override { return last_; }

 private:
  uint64_t draw(Zone& z, Rng& rng) {
    last_ = z.index;
    return z.start + z.pick->next(rng);
  }
  uint64_t n_;
  std::vector<Zone> zones_;
  uint32_t last_ = 0;
};

std::unique_ptr<AddressDistribution> make_zoned(const std::string& spec, const std::string& body,
                                                uint64_t n, bool random_map) {
  const std::string expected =
      "zoned:<access%>/<size%>[:<access%>/<size%>...] with the access and the size "
      "percentages each summing to 100";
  if (body.empty()) bad_spec(spec, expected);
  struct Field {
    double v = 0;
    bool missing = true;
  };
  std::vector<Field> access, size;
  for (const auto& tok : split(body, ':')) {
    const auto parts = split(tok, '/');
    if (parts.size() != 2) bad_spec(spec, expected + "; bad zone '" + tok + "'");
    Field f[2];
    for (int i = 0; i < 2; ++i) {
      if (parts[i].empty()) continue;
      if (!parse_double(parts[i], f[i].v) || f[i].v < 0 || f[i].v > 100)
        bad_spec(spec, expected + "; bad percentage '" + parts[i] + "' in zone '" + tok + "'");
      f[i].missing = false;
    }
    access.push_back(f[0]);
    size.push_back(f[1]);
  }
  // Missing fields share what the explicit ones leave, as fio does.
  auto complete = [&](std::vector<Field>& col, const char* what) {
    double sum = 0;
    int missing = 0;
    for (auto& f : col) {
      if (f.missing)
        ++missing;
      else
        sum += f.v;
    }
    if (sum > 100.0 + 1e-9)
      bad_spec(spec, expected + "; the " + what + " percentages add up to more than 100");
    if (missing)
      for (auto& f : col)
        if (f.missing) f.v = (100.0 - sum) / missing;
    double total = 0;
    for (auto& f : col) total += f.v;
    if (std::fabs(total - 100.0) > 1e-6)
      bad_spec(spec, expected + "; the " + what + " percentages add up to " +
                         num(total));
  };
  complete(access, "access");
  complete(size, "size");

  std::vector<ZonedDistribution::Zone> zones;
  double cum_access = 0, cum_size = 0;
  for (size_t i = 0; i < access.size(); ++i) {
    const auto start = uint64_t((long double)n * cum_size / 100.0L);
    cum_size += size[i].v;
    const bool last = i + 1 == access.size();
    const uint64_t end = last ? n : uint64_t((long double)n * cum_size / 100.0L);
    cum_access += access[i].v;
    if (access[i].v <= 0) continue;
    if (end <= start)
      bad_spec(spec, expected + "; zone " + std::to_string(i + 1) + " covers no block of a " +
                         std::to_string(n) + "-block range");
    zones.push_back({cum_access / 100.0, start, make_uniform(end - start, random_map), uint32_t(i)});
  }
  return std::make_unique<ZonedDistribution>(n, std::move(zones));
}

}  // namespace

uint64_t scatter_index(uint64_t rank, uint64_t offset, uint64_t n) {
  return (rank * kGoldenRatio64 + offset) % n;  // both operations wrap mod 2^64, as in fio
}

double zipf_zeta(uint64_t n, double theta) {
  constexpr uint64_t kExact = 10000;
  auto f = [theta](double x) { return std::pow(x, -theta); };
  if (n <= kExact) {
    double s = 0;
    for (uint64_t i = n; i >= 1; --i) s += f(double(i));  // smallest terms first
    return s;
  }
  double s = 0;
  for (uint64_t i = kExact - 1; i >= 1; --i) s += f(double(i));
  // Tail sum_{i=m..n} f(i) by Euler-Maclaurin with f(x) = x^-theta:
  //   integral_m^n f + (f(m) + f(n))/2 + B2/2! (f'(n) - f'(m)) + B4/4! (f'''(n) - f'''(m))
  //   + B6/6! (f5(n) - f5(m)),  B2/2! = 1/12, B4/4! = -1/720, B6/6! = 1/30240,
  //   f'(x) = -t x^(-t-1), f'''(x) = -t(t+1)(t+2) x^(-t-3), f5(x) = -t(t+1)(t+2)(t+3)(t+4) x^(-t-5).
  // With m = 10^4 the remainder is below 1e-20 of the sum.
  const double m = double(kExact), x = double(n), t = theta;
  const double one_minus = 1.0 - t;
  // integral = (x^(1-t) - m^(1-t)) / (1-t), written with expm1 to stay exact near t = 1.
  const double integral = std::pow(m, one_minus) * std::expm1(one_minus * std::log(x / m)) / one_minus;
  auto d1 = [t](double y) { return -t * std::pow(y, -t - 1); };
  auto d3 = [t](double y) { return -t * (t + 1) * (t + 2) * std::pow(y, -t - 3); };
  auto d5 = [t](double y) { return -t * (t + 1) * (t + 2) * (t + 3) * (t + 4) * std::pow(y, -t - 5); };
  const double tail = integral + (f(m) + f(x)) / 2 + (d1(x) - d1(m)) / 12.0 -
                      (d3(x) - d3(m)) / 720.0 + (d5(x) - d5(m)) / 30240.0;
  return s + tail;
}

std::unique_ptr<AddressDistribution> make_distribution(const std::string& spec, uint64_t nblocks,
                                                       bool random_map, bool scatter,
                                                       uint64_t scatter_seed) {
  if (nblocks == 0)
    throw std::invalid_argument("random distribution '" + spec + "': the range has no block");
  const size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const bool has_arg = colon != std::string::npos;
  const std::string arg = has_arg ? spec.substr(colon + 1) : std::string();
  // fio draws the zipf/pareto offset from its RNG; we derive it from the seed.
  const uint64_t offset = splitmix64(scatter_seed);

  if (name == "random") {
    if (has_arg) bad_spec(spec, "'random' without a parameter");
    return make_uniform(nblocks, random_map);
  }
  if (name == "zipf") {
    double theta = 1.1;  // fio's FIO_DEF_ZIPF
    if (has_arg && (!parse_double(arg, theta) || theta <= 0.0 || theta == 1.0))
      bad_spec(spec, "zipf:<theta> with theta > 0 and != 1");
    return std::make_unique<ZipfDistribution>(nblocks, theta, RankMapper(nblocks, scatter, offset));
  }
  if (name == "pareto") {
    double h = 0.2;  // fio's FIO_DEF_PARETO
    if (has_arg && (!parse_double(arg, h) || h <= 0.0 || h >= 1.0))
      bad_spec(spec, "pareto:<h> with 0 < h < 1");
    return std::make_unique<ParetoDistribution>(nblocks, h, RankMapper(nblocks, scatter, offset));
  }
  if (name == "normal") {
    double dev = 0.0;
    if (has_arg && (!parse_double(arg, dev) || dev < 0.0 || dev >= 100.0))
      bad_spec(spec, "normal:<dev> with dev a percentage, 0 <= dev < 100");
    return std::make_unique<NormalDistribution>(nblocks, dev, RankMapper(nblocks, scatter, 0));
  }
  if (name == "zoned") return make_zoned(spec, arg, nblocks, random_map);
  bad_spec(spec, "one of random, zipf[:theta], pareto[:h], normal[:dev], zoned:a/s[:b/t...]");
}

}  // namespace ssdtlm
