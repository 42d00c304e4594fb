// Buffered I/O through the block device's page cache (buffered_io.h).
#include "workload/filesystem/buffered_io.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace ssdtlm {

namespace {
constexpr uint32_t kDevice = 0;  // the block device's inode: the one file of the cache

uint64_t roundup_pow2(uint64_t v) {
  uint64_t p = 1;
  while (p < v) p <<= 1;
  return p;
}
// mm/readahead.c get_init_ra_size: the first window for a request of `req` pages.
uint64_t init_ra_size(uint64_t req, uint64_t max) {
  const uint64_t n = roundup_pow2(req);
  if (n <= max / 32) return n * 4;
  if (n <= max / 4) return n * 2;
  return max;
}
// get_next_ra_size: the window after one of `cur` pages.
uint64_t next_ra_size(uint64_t cur, uint64_t max) {
  if (cur < max / 16) return 4 * cur;
  if (cur <= max / 2) return 2 * cur;
  return max;
}
}  // namespace

DirtyLimits dirty_limits(const BufferedParams& p) {
  constexpr uint64_t kPage = BufferedWorkload::kPageBytes;
  const uint64_t memory_pages = p.memory_bytes / kPage;
  auto pages = [&](uint64_t bytes, uint64_t ratio) {
    return bytes ? (bytes + kPage - 1) / kPage : ratio * kPage / 100 * memory_pages / kPage;
  };
  DirtyLimits d;
  d.limit_pages = pages(p.dirty_bytes, p.dirty_ratio);
  d.background_pages = pages(p.background_bytes, p.background_ratio);
  if (d.background_pages >= d.limit_pages) d.background_pages = d.limit_pages / 2;
  return d;
}

BufferedWorkload::BufferedWorkload(std::unique_ptr<Workload> inner, const BufferedParams& p, uint64_t range_offset,
                                   uint64_t range_bytes, uint64_t device_bytes)
    : inner_(std::move(inner)), p_(p), first_page_(range_offset / kPageBytes), device_pages_(device_bytes / kPageBytes) {
  set_pacing(inner_->pacing());
  limits_ = dirty_limits(p_);
  clean_.assign((range_offset + range_bytes + kPageBytes - 1) / kPageBytes - first_page_, false);
  idle_limit_ = std::max<uint64_t>(4 * clean_.size(), kWritebackChunkPages);
}

bool BufferedWorkload::cached(uint64_t page) const {
  if (cache_.is_dirty(kDevice, page)) return true;
  return page >= first_page_ && page - first_page_ < clean_.size() && clean_[page - first_page_];
}

void BufferedWorkload::set_cached(uint64_t page, bool on) {
  if (page >= first_page_ && page - first_page_ < clean_.size()) clean_[page - first_page_] = on;
}

void BufferedWorkload::push(IoOp op, uint64_t page, uint64_t pages, Sent kind) {
  const uint64_t max_pages = op == IoOp::Flush ? 1 : std::max<uint64_t>(1, p_.max_io_bytes / kPageBytes);
  for (uint64_t done = 0; done < pages || (op == IoOp::Flush && done == 0);) {
    const uint64_t n = std::min(max_pages, pages - done);
    IoRequest r;
    r.op = op;
    if (op != IoOp::Flush) {
      r.offset = (page + done) * kPageBytes;
      r.bytes = uint32_t(n * kPageBytes);
    }
    done += op == IoOp::Flush ? 1 : n;
    if (op == IoOp::Write && (kind == Sent::Flusher || kind == Sent::Expired)) {  // the flusher's own requests
      (kind == Sent::Flusher ? c_.flusher_bytes : c_.expired_bytes) += n * kPageBytes;
      writeback_pages_ += n;
      bg_out_.push_back(r);
      continue;
    }
    r.quiesce = quiesce_next_ || op == IoOp::Flush;  // a Flush follows the writeback it syncs
    quiesce_next_ = false;
    r.after_end = closing_ && !p_.flush_at_end;  // the close after the runtime: not the job's
    if (op == IoOp::Write) c_.sync_bytes += n * kPageBytes;
    if (op == IoOp::Read) c_.drive_read_bytes += n * kPageBytes;
    if (op == IoOp::Read && kind == Sent::Rmw) c_.rmw_read_bytes += n * kPageBytes;
    out_.push_back(r);
  }
}

// Reads the pages of [first, last) that are not cached, in runs; pages from `req_last` on are read ahead.
void BufferedWorkload::read_missing(uint64_t first, uint64_t last, uint64_t req_last) {
  uint64_t run = 0, len = 0;
  for (uint64_t p = first; p <= last; ++p) {
    const bool miss = p < last && !cached(p);
    if (miss && len && run + len == p) {
      ++len;
    } else {
      if (len) push(IoOp::Read, run, len, Sent::Miss);
      run = p, len = miss ? 1 : 0;
    }
    if (miss) {
      set_cached(p, true);
      if (p >= req_last) c_.readahead_bytes += kPageBytes;
    }
  }
}

// A read that misses at `page` (the request's pages end at `last`): Linux's page_cache_sync_ra. A read at page 0,
// right after the previous read, or at the window's end starts or grows the readahead window; any other is read
// as it is.
void BufferedWorkload::sync_readahead(uint64_t page, uint64_t last) {
  const uint64_t max = p_.readahead_bytes / kPageBytes, req = last - page;
  const bool sequential = page == 0 || (prev_page_ != ~uint64_t(0) && page >= prev_page_ && page - prev_page_ <= 1);
  if (max == 0 || (!sequential && !(ra_size_ && page == ra_start_ + ra_size_))) {
    read_missing(page, last, last);
    return;
  }
  if (ra_size_ && page == ra_start_ + ra_size_) {
    ra_start_ = page;
    ra_size_ = next_ra_size(ra_size_, max);
    ra_async_ = ra_size_;
  } else {
    ra_start_ = page;
    ra_size_ = std::max(init_ra_size(req, max), req);
    ra_async_ = ra_size_ > req ? ra_size_ - req : ra_size_;
  }
  read_missing(page, std::min(ra_start_ + ra_size_, device_pages_), last);
}

void BufferedWorkload::read(const IoRequest& a) {
  ++c_.reads;
  c_.read_bytes += a.bytes;
  const uint64_t first = a.offset / kPageBytes, last = (a.offset + a.bytes + kPageBytes - 1) / kPageBytes;
  std::vector<bool> hit(last - first);
  for (uint64_t p = first; p < last; ++p) hit[p - first] = cached(p);
  for (uint64_t p = first; p < last; ++p) {
    if (hit[p - first]) {
      const uint64_t in_page = std::min((p + 1) * kPageBytes, a.offset + a.bytes) - std::max(p * kPageBytes, a.offset);
      c_.cache_read_bytes += in_page;
      // The window's marked page reached: the next window is read ahead (page_cache_async_ra).
      if (ra_size_ && p == ra_start_ + ra_size_ - ra_async_) {
        const uint64_t max = p_.readahead_bytes / kPageBytes;
        ra_start_ += ra_size_;
        ra_size_ = next_ra_size(ra_size_, max);
        ra_async_ = ra_size_;
        if (ra_start_ < device_pages_) read_missing(ra_start_, std::min(ra_start_ + ra_size_, device_pages_), 0);
      }
    } else if (!cached(p)) {
      sync_readahead(p, last);
    }
  }
  prev_page_ = (a.offset + a.bytes) / kPageBytes;
}

void BufferedWorkload::write(const IoRequest& a) {
  ++c_.writes;
  c_.write_bytes += a.bytes;
  const uint64_t end = a.offset + a.bytes;
  const uint64_t first = a.offset / kPageBytes, last = (end + kPageBytes - 1) / kPageBytes;
  // block_write_begin: a page the write covers in part is read first unless cached.
  const bool head = a.offset % kPageBytes != 0, tail = end % kPageBytes != 0;
  for (uint64_t p : {first, last - 1}) {
    const bool partial = (p == first && head) || (p == last - 1 && tail);
    if (partial && !cached(p)) {
      push(IoOp::Read, p, 1, Sent::Rmw);
      set_cached(p, true);
      quiesce_next_ = true;  // the copy into the page waits for its read
    }
    if (first == last - 1) break;
  }
  cache_.dirty(kDevice, first, last - first, now_ns_, PageOrigin());
  for (uint64_t p = first; p < last; ++p) set_cached(p, true);
  c_.max_dirty_bytes = std::max(c_.max_dirty_bytes, dirty_bytes());
  c_.max_dirty_writeback_bytes =
      std::max(c_.max_dirty_writeback_bytes, (cache_.dirty_pages() + writeback_pages_) * kPageBytes);
  if (p_.fsync_every && ++writes_since_sync_ >= p_.fsync_every) {
    writes_since_sync_ = 0;
    sync_all(true);
    return;
  }
  // The flusher above the background threshold: chunks from where the last one ended, wrapping at the end.
  const uint64_t limit = limits_.background_pages;
  std::vector<DirtyPage> pages;
  while (cache_.dirty_pages() > limit) {
    const uint64_t chunk = std::max<uint64_t>(kWritebackChunkPages, cache_.dirty_pages() - limit);
    const uint64_t after = cache_.take_pages(kDevice, cursor_, chunk, pages);
    if (pages.empty()) {
      cursor_ = 0;
      continue;
    }
    cursor_ = after;
    write_back(pages, Sent::Flusher);
  }
}

// BLKDISCARD: the range's whole pages leave the cache (truncate_bdev_range: dirty ones are not written).
void BufferedWorkload::trim(const IoRequest& a) {
  ++c_.trims;
  const uint64_t first = (a.offset + kPageBytes - 1) / kPageBytes, last = (a.offset + a.bytes) / kPageBytes;
  if (last > first) {
    cache_.drop_range(kDevice, first, last - first);
    for (uint64_t p = first; p < last; ++p) set_cached(p, false);
  }
  IoRequest r = a;
  r.quiesce = r.quiesce || quiesce_next_;
  quiesce_next_ = false;
  out_.push_back(r);
}

// Runs of consecutive pages, each a write (split at max_io_bytes).
void BufferedWorkload::write_back(std::vector<DirtyPage>& pages, Sent kind) {
  size_t i = 0;
  while (i < pages.size()) {
    size_t j = i + 1;
    while (j < pages.size() && pages[j].page == pages[j - 1].page + 1) ++j;
    push(IoOp::Write, pages[i].page, j - i, kind);
    i = j;
  }
  pages.clear();
}

// fsync (flush: an NVMe Flush once the pages are written) or the last close (no Flush).
void BufferedWorkload::sync_all(bool flush) {
  std::vector<DirtyPage> pages;
  cache_.take_all(pages);
  write_back(pages, Sent::Sync);
  if (!flush) return;
  push(IoOp::Flush, 0, 0, Sent::Sync);
  ++c_.flushes;
  quiesce_next_ = true;  // the job goes on when its fsync has returned
}

// The flusher's periodic wake (wb_check_old_data_flush): the inode dirty for expire_ns or more is written whole.
void BufferedWorkload::wake(uint64_t now_ns) {
  now_ns_ = now_ns;
  if (done_) return;
  std::vector<DirtyPage> pages;
  cache_.take_expired(now_ns, p_.expire_ns, 0, pages);
  if (pages.empty()) return;
  ++c_.flusher_wakes;
  write_back(pages, Sent::Expired);
}

// The file's close after a runtime cut: the dirty pages (and fio's end_fsync) go out, as at the job's end.
bool BufferedWorkload::close() {
  if (done_) return !out_.empty();
  done_ = true;
  if (waiting_) c_.throttle_ns += now_ns_ - wait_since_ns_;  // throttled until the cut
  waiting_ = false;
  const uint64_t before = c_.sync_bytes;
  closing_ = true;
  for (IoRequest& r : bg_out_) r.after_end = !p_.flush_at_end;  // the flusher's not yet sent: after the cut too
  sync_all(p_.flush_at_end);
  closing_ = false;
  c_.close_bytes += c_.sync_bytes - before;
  return !out_.empty();
}

// balance_dirty_pages: above the dirty limit (dirty pages + those under writeback) the writer sleeps until the
// flusher's completions bring it back under.
bool BufferedWorkload::throttled() {
  const bool over = cache_.dirty_pages() + writeback_pages_ > limits_.limit_pages;
  if (over && !waiting_) {
    waiting_ = true;
    ++c_.throttle_waits;
    wait_since_ns_ = now_ns_;
  } else if (!over && waiting_) {
    waiting_ = false;
    c_.throttle_ns += now_ns_ - wait_since_ns_;
  }
  if (over) waited_ = true, last_wait_ns_ = now_ns_;
  return over;
}

// blk-wbt's get_limit for background writeback: wb_background, or the whole depth within a second (HZ) of a
// throttled writer (wb_recent_wait).
bool BufferedWorkload::next_background(IoRequest& r) {
  const uint64_t depth = std::max<uint64_t>(1, p_.writeback_depth);
  const bool recent_wait = waited_ && now_ns_ < last_wait_ns_ + 1000000000ull;
  const uint64_t limit = recent_wait ? depth : depth <= 2 ? 1 : (depth + 3) / 4;
  if (bg_out_.empty() || bg_inflight_ >= limit) return false;
  r = bg_out_.front();
  bg_out_.pop_front();
  ++bg_inflight_;
  c_.max_writeback_inflight = std::max(c_.max_writeback_inflight, bg_inflight_);
  return true;
}

void BufferedWorkload::background_done(uint32_t bytes) {
  --bg_inflight_;
  writeback_pages_ -= bytes / kPageBytes;
}

bool BufferedWorkload::next(IoRequest& r) {
  while (out_.empty()) {
    if (done_) return false;
    if (throttled()) return false;  // waiting(): drawn again when the flusher's writes complete
    const size_t bg_before = bg_out_.size();
    IoRequest a;
    // A job without an end of its own (time_based) whose requests have all stayed in memory for a while would
    // go on without the drive (and without simulated time) until its runtime: it ends here, as at its runtime.
    const bool in_memory = idle_ >= idle_limit_ && inner_->progress().total == 0;
    if (in_memory || !inner_->next(a)) {
      done_ = true;
      c_.ended_in_memory = in_memory;
      sync_all(p_.flush_at_end);  // end_fsync, or the last close's sync_blockdev
      continue;
    }
    if (a.op == IoOp::Read) read(a);
    else if (a.op == IoOp::Write) write(a);
    else if (a.op == IoOp::Trim) trim(a);
    else out_.push_back(a);
    idle_ = out_.empty() && bg_out_.size() == bg_before ? idle_ + 1 : 0;
  }
  r = out_.front();
  out_.pop_front();
  return true;
}

void BufferedWorkload::report(nlohmann::json& into) const {
  inner_->report(into);
  const BufferedCounters& c = c_;
  into["page_cache"] = {{"reads", c.reads},
                        {"read_bytes", c.read_bytes},
                        {"writes", c.writes},
                        {"write_bytes", c.write_bytes},
                        {"trims", c.trims},
                        {"cache_read_bytes", c.cache_read_bytes},
                        {"drive_read_bytes", c.drive_read_bytes},
                        {"readahead_bytes", c.readahead_bytes},
                        {"rmw_read_bytes", c.rmw_read_bytes},
                        {"flusher_bytes", c.flusher_bytes},
                        {"sync_bytes", c.sync_bytes},
                        {"expired_bytes", c.expired_bytes},
                        {"flusher_wakes", c.flusher_wakes},
                        {"close_bytes", c.close_bytes},
                        {"flushes", c.flushes},
                        {"max_dirty_bytes", c.max_dirty_bytes},
                        {"max_dirty_writeback_bytes", c.max_dirty_writeback_bytes},
                        {"dirty_limit_bytes", limits_.limit_pages * kPageBytes},
                        {"dirty_background_bytes", limits_.background_pages * kPageBytes},
                        {"throttle_waits", c.throttle_waits},
                        {"throttle_ms", double(c.throttle_ns) / 1e6},
                        {"max_writeback_inflight", c.max_writeback_inflight},
                        {"dirty_bytes_left", (cache_.dirty_pages() + writeback_pages_) * kPageBytes},
                        {"ended_in_memory", c.ended_in_memory}};
}

}  // namespace ssdtlm
