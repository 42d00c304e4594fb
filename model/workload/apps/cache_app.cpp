#include "workload/apps/cache_app.h"

#include <algorithm>
#include <stdexcept>

#include "flash/geometry.h"

namespace ssdtlm {

CacheApp::CacheApp(AppIo& io, const AppParams& p, uint64_t seed)
    : io_(io), p_(p), rng_(seed ^ 0xCAC4Eull), proc_(io.new_proc()), slot_(io.new_slots(1)) {
  const uint64_t cache = uint64_t(p.cache_fraction * double(io.fs.total_units()));
  soc_units_ = std::max<uint64_t>(1, uint64_t(p.cache_soc_fraction * double(cache)));
  region_units_ = std::max<uint64_t>(1, p.cache_region_bytes / kUnitBytes);
  regions_ = cache > soc_units_ ? (cache - soc_units_) / region_units_ : 0;
  if (regions_ < 2)
    throw FileLayerFull("cache: the large-object cache needs at least 2 regions of " + std::to_string(p.cache_region_bytes) +
                            " bytes", 2 * region_units_, cache > soc_units_ ? cache - soc_units_ : 0);
  // Initial layout (the precondition writes it): both engines full, the regions written in order.
  soc_ = io_.layout_file(soc_units_, origin(kPcSoc, kHintSoc));
  loc_ = io_.layout_file(regions_ * region_units_, origin(kPcLoc, kHintLoc));
  last_use_.assign(regions_, 0);
  for (uint64_t r = 1; r < regions_; ++r) {
    last_use_[r] = ++clock_;
    lru_[{last_use_[r], r}] = true;
  }
  region_ = 0;  // the oldest region is reclaimed first
  fifo_next_ = 1;
}

uint64_t CacheApp::next_region() {
  if (!p_.cache_lru) {
    const uint64_t r = fifo_next_;
    fifo_next_ = (fifo_next_ + 1) % regions_;
    return r;
  }
  // LRU: the region read least recently; the region just written goes in as the most recent.
  lru_[{last_use_[region_] = ++clock_, region_}] = true;
  auto it = lru_.begin();
  const uint64_t r = it->first.second;
  lru_.erase(it);
  return r;
}

bool CacheApp::step() {
  // The engine furthest behind its share of the inserted bytes inserts next.
  const double s = p_.cache_soc_write_share;
  if (s > 0 && (s >= 1 || soc_bytes_ * (1 - s) <= loc_bytes_ * s)) soc_insert();
  else loc_chunk();
  read_credit_ += p_.cache_reads_per_write;
  while (read_credit_ >= 1.0) {
    random_get();
    read_credit_ -= 1.0;
  }
  return true;
}

void CacheApp::soc_insert() {
  const uint64_t b = rng_.below(soc_units_);
  io_.read(soc_, b, 1, origin(0, 0));
  io_.write(soc_, b, 1, origin(kPcSoc, kHintSoc));
  soc_bytes_ += 1;
  ++stats_.soc_inserts;
  ++stats_.soc_units;
  read_credit_ -= 1.0;  // the bucket's read is its own get
}

void CacheApp::loc_chunk() {
  const uint64_t n = std::min<uint64_t>(io_.max_io_units(), region_units_ - region_off_);
  io_.write(loc_, region_ * region_units_ + region_off_, n, origin(kPcLoc, kHintLoc));
  region_off_ += n;
  loc_bytes_ += double(n);
  stats_.loc_units += n;
  read_credit_ += p_.cache_reads_per_write * double(n - 1);
  if (region_off_ == region_units_) {
    ++stats_.regions_written;
    region_ = next_region();
    region_off_ = 0;
  }
}

void CacheApp::random_get() {
  ++stats_.reads;
  if (rng_.uniform() < p_.cache_soc_write_share) {
    io_.read(soc_, rng_.below(soc_units_), 1, origin(0, 0));
    return;
  }
  const uint64_t r = rng_.below(regions_);
  if (r == region_) return;  // the region being filled is served from memory
  io_.read(loc_, r * region_units_ + rng_.below(region_units_), 1, origin(0, 0));
  if (p_.cache_lru) {
    lru_.erase({last_use_[r], r});
    lru_[{last_use_[r] = ++clock_, r}] = true;
  }
}

std::unique_ptr<AppModel> make_cache_app(AppIo& io, const AppParams& p, uint64_t seed) {
  return std::make_unique<CacheApp>(io, p, seed);
}

}  // namespace ssdtlm
