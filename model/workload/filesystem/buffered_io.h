// Buffered I/O on a raw block device, as Linux does it for fio's direct=0 (fio's default) with an engine that goes
// through the kernel's files (sync, psync, libaio, io_uring, ...): the job's reads and writes go to the block
// device's page cache (4 KiB pages, the device's own inode), and what reaches the drive is what the cache sends.
//
//  * Writes dirty whole pages (page_cache.h). A write that covers part of a page neither dirty nor cached reads the
//    page first (block_write_begin: the block device's blocks are its 4 KiB pages). The dirty pages reach the drive
//    as runs of consecutive pages (requests of at most max_io_bytes, the block layer's max_sectors_kb):
//    - above the background threshold (vm.dirty_background_bytes, or dirty_background_ratio of the host's
//      dirtyable memory, dirty_limits below), the flusher writes chunks of at least 1,024 pages
//      (MIN_WRITEBACK_PAGES, 4 MiB) in page order from where its last chunk ended (write_cache_pages from
//      writeback_index, cyclic), until back under the threshold;
//    - every `fsync_every` writes (fio's fsync=N/fdatasync=N, and sync=1: O_SYNC) every dirty page, then an NVMe
//      Flush once they have completed (blkdev_fsync: filemap_write_and_wait, then blkdev_issue_flush);
//    - when the job's I/O is done: every dirty page, then a Flush with `flush_at_end` (end_fsync, fsync_on_close),
//      else none (the file's last close: blkdev_put -> sync_blockdev writes the pages and sends no Flush).
//  * Reads of dirty or cached pages are served by the cache. A miss reads the missing pages with readahead
//    (mm/readahead.c, read_ahead_kb = readahead_bytes): a read at page 0 or right after the previous one starts a
//    window of get_init_ra_size pages, and reaching the window's marked page fetches the next, growing 4x / 2x up to
//    readahead_bytes (get_next_ra_size); any other miss reads the request's missing pages as they are.
//  * Trims (fio's BLKDISCARD) drop the range's pages from the cache (truncate_bdev_range) and go to the drive.
//  * In simulated time (the host's clock, Workload::wake_period_ns/wake/clock): the flusher wakes every
//    writeback_ns (vm.dirty_writeback_centisecs = 500: 5 s, on the run's clock) and writes every page of the
//    device's inode when the inode became dirty expire_ns or more ago (vm.dirty_expire_centisecs = 3000: 30 s;
//    the kernel's Documentation/admin-guide/sysctl/vm.rst; fs/fs-writeback.c wb_check_old_data_flush: a kupdate
//    writeback of the inodes dirtied before now - expire, all their pages). The inode's dirtied_when is when it
//    went from clean to dirty (PageCache::dirty), the time the host gave before the write was drawn.
//  * A job stopped by its runtime (fio's time_based, or a runtime shorter than its I/O) closes the device after it:
//    close() writes every dirty page (the last close, blkdev_put -> sync_blockdev), then a Flush with
//    `flush_at_end`: fio's end_fsync/fsync_on_close fsync before the close. Nothing dirty is left behind.
//    The close's writes are not the job's (IoRequest::after_end): fio's runtime ends at the cut, before the close,
//    so they are on the drive but not in the job's statistics; with `flush_at_end` they are fio's fsync, which
//    its runtime includes, and count.
//  * The flusher's writes (above the background threshold, and at expiry) are its own requests, not the job's:
//    Workload::next_background, issued on the job's queues in none of its slots. The block layer's writeback
//    throttling bounds them (block/blk-wbt.c, on by default for SSDs: rq_depth RWB_DEF_DEPTH = 16; get_limit
//    gives background writeback, REQ_BACKGROUND, wb_background = (16 + 3) / 4 = 4 requests in flight, and the
//    whole depth within a second of a writer being throttled, wb_recent_wait): `writeback_depth`.
//  * A writer is throttled at the dirty limit (balance_dirty_pages, mm/page-writeback.c): while the dirty pages
//    plus those under writeback exceed it (vm.dirty_bytes, or dirty_ratio of the dirtyable memory: 20 %), the job
//    issues nothing (Workload::waiting) until the flusher's writes complete; reads wait too, the thread being
//    asleep in write(). Linux's pacing between the freerun point ((background + limit) / 2) and the limit, which
//    settles the dirty pages around (background + 3 x limit) / 4, is not modelled: the writer runs freely to the
//    limit, then at the flusher's speed.
// The cache starts empty (fio's invalidate=1, its default: BLKFLSBUF when it opens the device). Clean pages stay
// cached for the job (no memory limit).
// A job without an end of its own (fio's time_based) whose last 4 x (its range's pages) requests (at least 1,024) all
// stayed in memory ends there, its dirty pages written as at its end: Linux would serve it from memory until its
// runtime (fio would report memory-speed calls; a cached request takes no simulated time here, so it would never
// reach it), and nothing of it would reach the drive but the flusher's writebacks.
// Deterministic: a function of the inner workload's requests, the times the host gives and the parameters.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "host/io_request.h"
#include "workload/filesystem/page_cache.h"

namespace ssdtlm {

struct BufferedParams {
  // The dirty thresholds as Linux's sysctls set them (Documentation/admin-guide/sysctl/vm.rst): a *_bytes other
  // than 0 wins over its *_ratio, which is a percentage of memory_bytes (dirty_limits).
  uint64_t memory_bytes = 17179869184ull;  // workload.dirty_memory_bytes: the host's dirtyable memory (16 GiB)
  uint32_t background_ratio = 10;          // workload.dirty_background_ratio (vm.dirty_background_ratio)
  uint64_t background_bytes = 0;           // workload.dirty_background_bytes (vm.dirty_background_bytes)
  uint32_t dirty_ratio = 20;               // workload.dirty_ratio (vm.dirty_ratio)
  uint64_t dirty_bytes = 0;                // workload.dirty_bytes (vm.dirty_bytes)
  uint32_t writeback_depth = 16;           // workload.writeback_depth (blk-wbt's RWB_DEF_DEPTH)
  uint64_t max_io_bytes = 512 << 10;       // workload.page_cache_max_io_bytes (max_sectors_kb)
  uint64_t readahead_bytes = 128 << 10;    // workload.readahead_bytes (read_ahead_kb; 0 = none)
  uint64_t fsync_every = 0;                // workload.fsync: write back and Flush after every N writes
  bool flush_at_end = false;               // workload.fsync_end
  uint64_t expire_ns = 30000000000ull;     // workload.dirty_expire_ms (vm.dirty_expire_centisecs)
  uint64_t writeback_ns = 5000000000ull;   // workload.dirty_writeback_ms (vm.dirty_writeback_centisecs; 0 = never)
};

// The dirty limit and the background threshold in pages (mm/page-writeback.c domain_dirty_limits): a byte
// setting rounded up to pages, else ratio * 4096 / 100 (per page size, an integer) x the memory's pages / 4096;
// a background threshold at or above the limit becomes half the limit.
struct DirtyLimits {
  uint64_t limit_pages = 0, background_pages = 0;
};
DirtyLimits dirty_limits(const BufferedParams& p);

struct BufferedCounters {
  uint64_t reads = 0, read_bytes = 0, writes = 0, write_bytes = 0, trims = 0;  // the job's calls
  uint64_t cache_read_bytes = 0;    // read bytes served by the cache
  uint64_t drive_read_bytes = 0;    // pages read from the drive: misses and readahead
  uint64_t readahead_bytes = 0;     //   of which read ahead of the job's requests
  uint64_t rmw_read_bytes = 0;      //   of which read before a partial write of the page
  uint64_t flusher_bytes = 0;       // pages written back above the dirty threshold
  uint64_t sync_bytes = 0;          // pages written back by fsync or the job's end
  uint64_t expired_bytes = 0;       // pages the periodic flusher wrote, their inode dirty for expire_ns
  uint64_t close_bytes = 0;         // pages written at the close after a runtime cut (in sync_bytes too)
  uint64_t flusher_wakes = 0;       // periodic wakes that found expired pages
  uint64_t flushes = 0;
  uint64_t max_dirty_bytes = 0;
  uint64_t max_dirty_writeback_bytes = 0;  // dirty + under the flusher's writeback: what the dirty limit bounds
  uint64_t throttle_waits = 0;    // times the writer waited at the dirty limit
  uint64_t throttle_ns = 0;       //   the simulated time it waited
  uint64_t max_writeback_inflight = 0;  // the flusher's requests in flight at once
  bool ended_in_memory = false;     // an endless job ended when its requests stopped reaching the drive
};

class BufferedWorkload : public Workload {
 public:
  static constexpr uint64_t kPageBytes = 4096;
  static constexpr uint64_t kWritebackChunkPages = 1024;  // MIN_WRITEBACK_PAGES (fs/fs-writeback.c)

  // range_offset/range_bytes: the job's area (clean pages are tracked over it); device_bytes: where readahead stops.
  BufferedWorkload(std::unique_ptr<Workload> inner, const BufferedParams& p, uint64_t range_offset, uint64_t range_bytes,
                   uint64_t device_bytes);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return inner_->progress(); }
  uint64_t wake_period_ns() const override { return p_.writeback_ns; }
  void wake(uint64_t now_ns) override;
  void clock(uint64_t now_ns) override { now_ns_ = now_ns; }
  bool close() override;
  bool writes_back() const override { return true; }
  bool next_background(IoRequest& r) override;
  void background_done(uint32_t bytes) override;
  bool waiting() const override { return waiting_ && !done_; }
  // "page_cache": what the job asked of the page cache and what it sent to the drive (and the inner's objects).
  void report(nlohmann::json& into) const override;
  const BufferedCounters& counters() const { return c_; }
  uint64_t dirty_bytes() const { return cache_.dirty_pages() * kPageBytes; }

 private:
  enum class Sent : uint8_t { Miss, Readahead, Rmw, Flusher, Expired, Sync };
  void read(const IoRequest& a);
  void write(const IoRequest& a);
  void trim(const IoRequest& a);
  void sync_readahead(uint64_t page, uint64_t last);
  void read_missing(uint64_t first, uint64_t last, uint64_t req_last);
  void write_back(std::vector<DirtyPage>& pages, Sent kind);
  void sync_all(bool flush);
  void push(IoOp op, uint64_t page, uint64_t pages, Sent kind);
  bool throttled();  // balance_dirty_pages: the writer waits (and the wait is counted)
  bool cached(uint64_t page) const;
  void set_cached(uint64_t page, bool on);

  std::unique_ptr<Workload> inner_;
  BufferedParams p_;
  PageCache cache_;
  uint64_t first_page_ = 0, device_pages_ = 0;
  std::vector<bool> clean_;  // per page of the range: cached (clean or dirty)
  DirtyLimits limits_;
  std::deque<IoRequest> out_;
  std::deque<IoRequest> bg_out_;     // the flusher's writes not yet issued (next_background)
  uint64_t writeback_pages_ = 0;     // pages the flusher took and whose writes have not completed
  uint64_t bg_inflight_ = 0;         // the flusher's writes in flight
  bool waiting_ = false;             // the writer is throttled
  bool waited_ = false;              //   it has been once; last_wait_ns_: when it last was
  uint64_t wait_since_ns_ = 0, last_wait_ns_ = 0;
  bool closing_ = false;             // close() after a runtime cut is sending its writes
  uint64_t cursor_ = 0;  // the flusher's next page (writeback_index)
  uint64_t writes_since_sync_ = 0;
  uint64_t ra_start_ = 0, ra_size_ = 0, ra_async_ = 0;  // the readahead window (pages), its marked tail
  uint64_t prev_page_ = ~uint64_t(0);                  // the last page the job read
  uint64_t idle_ = 0;        // the job's requests in a row that sent nothing to the drive
  uint64_t idle_limit_ = 0;  //   after which a job without an end ends (4 x the range's pages, at least 1,024)
  bool quiesce_next_ = false, done_ = false;
  uint64_t now_ns_ = 0;  // the host's time before the current draw (clock)
  BufferedCounters c_;
};

}  // namespace ssdtlm
