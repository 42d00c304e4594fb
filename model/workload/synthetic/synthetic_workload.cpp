#include "workload/synthetic/synthetic_workload.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include "common/text.h"

namespace ssdtlm {
namespace {

std::string num(double v) { return format_number(v); }

[[noreturn]] void bad_field(const char* field, const std::string& why) {
  throw std::invalid_argument(std::string("SyntheticSpec.") + field + ": " + why);
}

// Independent stream k of a seed (splitmix64 of the seed xor a per-stream constant).
uint64_t stream_seed(uint64_t seed, uint64_t k) {
  uint64_t x = seed ^ (k * 0xD1B54A32D192ED03ull);
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

void check_fraction(const char* field, double v) {
  if (!(v >= 0.0 && v <= 1.0)) bad_field(field, "expected a fraction in [0, 1], got " + num(v));
}

}  // namespace

SyntheticWorkload::SyntheticWorkload(const SyntheticSpec& spec)
    : spec_(spec),
      addr_rng_(stream_seed(spec.seed, 1)),
      size_rng_(stream_seed(spec.seed, 2)),
      op_rng_(stream_seed(spec.seed, 3)),
      seq_rand_rng_(stream_seed(spec.seed, 4)) {
  const bool random = spec_.pattern == "random";
  if (!random && spec_.pattern != "sequential")
    bad_field("pattern", "expected 'random' or 'sequential', got '" + spec_.pattern + "'");
  check_fraction("read_fraction", spec_.read_fraction);
  check_fraction("trim_fraction", spec_.trim_fraction);
  for (uint8_t p : spec_.percentage_random)
    if (p > 100) bad_field("percentage_random", "expected a percentage in [0, 100], got " + std::to_string(p));
  if (spec_.read_fraction + spec_.trim_fraction > 1.0 + 1e-12)
    bad_field("trim_fraction", "read_fraction + trim_fraction must not exceed 1");

  if (spec_.bssplit.empty()) {
    if (spec_.block_bytes == 0) bad_field("block_bytes", "must be > 0 when bssplit is empty");
    sizes_ = SizeMix::fixed(spec_.block_bytes);
  } else {
    try {
      sizes_ = parse_bssplit(spec_.bssplit);
    } catch (const std::invalid_argument& e) {
      bad_field("bssplit", e.what());
    }
  }

  // Alignment: block_align, or the block size (the smallest transfer, fio's default), and
  // optionally a finer one for the transfers shorter than that.
  align_.align = spec_.block_align ? spec_.block_align : sizes_.min_bytes();
  align_.small_align = spec_.small_align;
  if (spec_.small_align != 0 && (spec_.small_align > align_.align || align_.align % spec_.small_align != 0))
    bad_field("small_align", std::to_string(spec_.small_align) + " does not divide the block alignment " +
                                 std::to_string(align_.align));
  unit_ = (spec_.small_align != 0 && sizes_.min_bytes() < align_.align) ? spec_.small_align : align_.align;

  if (spec_.range_bytes == 0) bad_field("range_bytes", "must be > 0");
  if (spec_.range_offset + spec_.range_bytes < spec_.range_offset)
    bad_field("range_bytes", "range_offset + range_bytes overflows 64 bits");
  if (spec_.range_bytes < sizes_.max_bytes())
    bad_field("range_bytes", std::to_string(spec_.range_bytes) + " is smaller than the largest transfer (" +
                                 std::to_string(sizes_.max_bytes()) + " bytes)");

  span_ = spec_.range_bytes;
  if (spec_.zone_range) {
    if (spec_.zone_range > spec_.range_bytes)
      bad_field("zone_range", std::to_string(spec_.zone_range) + " exceeds the range of " +
                                  std::to_string(spec_.range_bytes) + " bytes");
    if (spec_.zone_range < sizes_.max_bytes())
      bad_field("zone_range", std::to_string(spec_.zone_range) + " is smaller than the largest transfer (" +
                                  std::to_string(sizes_.max_bytes()) + " bytes)");
    span_ = spec_.zone_range;
    if (spec_.zone_size == 0) spec_.zone_size = spec_.zone_range;
  } else if (spec_.zone_size || spec_.zone_skip) {
    bad_field("zone_size", "zone_size and zone_skip need zone_range > 0");
  }

  if (random) {
    if (spec_.range_offset % align_.align != 0)
      bad_field("range_offset", std::to_string(spec_.range_offset) + " is not a multiple of the block alignment " +
                                    std::to_string(align_.align));
    if (spec_.zone_range && (spec_.zone_range % align_.align || spec_.zone_skip % align_.align))
      bad_field("zone_range", "zone_range and zone_skip must be multiples of the block alignment " +
                                  std::to_string(align_.align));
    if (span_ / unit_ == 0)
      bad_field("range_bytes", std::to_string(span_) + " is smaller than the alignment unit " + std::to_string(unit_));
    try {
      make_dist();
    } catch (const std::invalid_argument& e) {
      bad_field("distribution", e.what());
    }
  } else if (!spec_.distribution.empty() && spec_.distribution != "random") {
    bad_field("distribution", "'" + spec_.distribution + "' needs pattern 'random' (sequential has none)");
  }
  if (spec_.zone_streams && (!random || spec_.distribution.rfind("zoned:", 0) != 0))
    bad_field("zone_streams", "needs pattern 'random' with a zoned: distribution, got " + spec_.pattern + " " +
                                  spec_.distribution);
}

void SyntheticWorkload::make_dist() {
  // Every zone draws from a fresh distribution (fio resets its random map per zone); the first keeps the seed.
  dist_ = make_distribution(spec_.distribution, span_ / unit_, spec_.random_map, spec_.scatter,
                            spec_.seed + zones_visited_ * 0x9E3779B97F4A7C15ull);
}

void SyntheticWorkload::next_zone() {
  zone_bytes_ = 0;
  cursor_ = 0;
  ++zones_visited_;
  zone_start_ += spec_.zone_range + spec_.zone_skip;
  if (zone_start_ + spec_.zone_range > spec_.range_bytes) zone_start_ = 0;  // a partial last zone is skipped
  if (dist_ && spec_.random_map) make_dist();
}

uint64_t SyntheticWorkload::next_offset(uint32_t bytes, int dir) {
  if (spec_.zone_range && zone_bytes_ >= spec_.zone_size) next_zone();
  const uint64_t base = spec_.range_offset + zone_start_;
  uint64_t off;
  if (!dist_) {  // sequential, wrapping at the end of the range (or zone)
    if (cursor_ + bytes > span_) cursor_ = 0;
    off = cursor_;
    const int64_t next = int64_t(off + bytes) + spec_.sequential_skip;
    cursor_ = next >= 0 ? uint64_t(next) : uint64_t(std::max<int64_t>(0, int64_t(span_) + spec_.sequential_skip));
  } else {
    // fio's rw=rand*:N: between two random offsets the I/Os go on from the direction's last (or repeat it); where
    // a random offset is due, percentage_random makes it sequential (from the direction's last) with the rest of
    // the probability. One that would cross the end of the range is drawn at random (and starts a new run).
    const bool between = run_left_ > 0;
    bool sequential = between;
    if (!between) {
      const uint8_t pct = spec_.percentage_random[dir];
      sequential = pct < 100 && seq_rand_rng_.below(100) + 1 > pct;  // fio: rand_between(1, 100) <= pct is random
    }
    off = between && spec_.random_run_repeat ? run_off_[dir] : run_end_[dir];
    if (sequential && off + bytes <= span_) {
      if (between) --run_left_;
      else run_left_ = spec_.random_run - 1;
    } else {
      off = align_.align_down(dist_->next(addr_rng_) * unit_, bytes);
      if (off + bytes > span_) off = align_.align_down(span_ - bytes, bytes);
      run_left_ = spec_.random_run - 1;
    }
  }
  run_off_[dir] = off;
  run_end_[dir] = off + bytes;
  zone_bytes_ += bytes;
  return base + off;
}

WorkProgress SyntheticWorkload::progress() const {
  if (spec_.io_count) return {issued_, spec_.io_count, "I/Os"};
  if (spec_.io_bytes) return {issued_bytes_, spec_.io_bytes, "bytes"};
  return {issued_, 0, "I/Os"};
}

bool SyntheticWorkload::next(IoRequest& r) {
  if (spec_.io_count != 0 && issued_ >= spec_.io_count) return false;
  if (spec_.io_bytes != 0 && issued_bytes_ >= spec_.io_bytes) return false;
  const uint32_t bytes = sizes_.sample(size_rng_);
  // Only a mix of operations draws (the op stream is its own, so pure mixes change no other draw).
  const double mixed = spec_.trim_fraction + spec_.read_fraction;
  const double u = mixed <= 0 ? 1.0 : spec_.trim_fraction == 0 && spec_.read_fraction >= 1 ? 0.0 : op_rng_.uniform();
  r.op = u < spec_.trim_fraction                          ? IoOp::Trim
         : u < spec_.trim_fraction + spec_.read_fraction ? IoOp::Read
                                                           : IoOp::Write;
  r.offset = next_offset(bytes, int(r.op));
  r.bytes = bytes;
  r.time_ns = 0;
  r.stream = spec_.zone_streams ? uint16_t(dist_->last_zone() + 1) : spec_.stream;
  r.pc = 0;
  ++issued_;
  issued_bytes_ += bytes;
  return true;
}

}  // namespace ssdtlm
