// The block device's page cache under a job (workload/filesystem/buffered_io.h): what reaches the drive for
// buffered writes, syncs, reads and trims.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "workload/filesystem/buffered_io.h"
#include "workload/listed_workload.h"

using namespace ssdtlm;
using ssdtlm::test::ListedWorkload;
using ssdtlm::test::req;

namespace {

constexpr uint64_t kDevice = 64ull << 20;

std::vector<IoRequest> drain(BufferedWorkload& w) {
  std::vector<IoRequest> out;
  IoRequest r;
  while (w.next(r)) out.push_back(r);
  return out;
}

// Everything the cache sends: the job's requests (next) and the flusher's (next_background, each completed at
// once), until the job's end.
struct Sent {
  std::vector<IoRequest> job, flusher;
};
Sent drain_all(BufferedWorkload& w) {
  Sent s;
  IoRequest r;
  while (true) {
    while (w.next_background(r)) {
      s.flusher.push_back(r);
      w.background_done(r.bytes);
    }
    if (w.next(r)) {
      s.job.push_back(r);
    } else if (!w.waiting()) {
      break;
    }
  }
  while (w.next_background(r)) s.flusher.push_back(r), w.background_done(r.bytes);
  return s;
}

std::unique_ptr<BufferedWorkload> make(std::vector<IoRequest> rs, BufferedParams p) {
  return std::make_unique<BufferedWorkload>(std::make_unique<ListedWorkload>(std::move(rs)), p, 0, kDevice, kDevice);
}

// etcd's fio recipe: sequential 2,300-byte writes.
std::vector<IoRequest> writes_of_2300(int n) {
  std::vector<IoRequest> rs;
  for (int i = 0; i < n; ++i) rs.push_back(req(IoOp::Write, uint64_t(i) * 2300, 2300));
  return rs;
}
}  // namespace

TEST_CASE("buffered I/O: 2,300-byte writes with fdatasync=1 reach the drive as whole pages, each followed by a Flush",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  p.fsync_every = 1;
  auto w = make(writes_of_2300(100), p);
  const auto out = drain(*w);
  uint64_t flushes = 0, writes = 0, reads = 0, written = 0;
  for (const IoRequest& r : out) {
    if (r.op == IoOp::Flush) {
      ++flushes;
      CHECK(r.quiesce);  // after the writeback it syncs
      continue;
    }
    CHECK(r.offset % 4096 == 0);
    CHECK(r.bytes % 4096 == 0);
    CHECK(r.bytes > 0);
    if (r.op == IoOp::Write) ++writes, written += r.bytes;
    if (r.op == IoOp::Read) ++reads;
  }
  CHECK(flushes == 100);
  CHECK(writes == 100);  // each fdatasync writes the dirty page(s) as one run
  // 230,000 bytes cover pages 0..56: every page but the first is first touched by a write that starts in the
  // page before and covers it only in part, and is read first (block_write_begin); page 0 is covered from its start
  // but not to its end: read too.
  CHECK(reads == 57);
  CHECK(w->counters().rmw_read_bytes == 57 * 4096);
  CHECK(w->counters().flushes == 100);
  CHECK(w->counters().write_bytes == 230000);
  CHECK(written == w->counters().sync_bytes);
  CHECK(written > 230000);  // each sync rewrites the page it shares with the previous write
}

TEST_CASE("buffered I/O: without a sync the writes merge into pages written when the job ends, with no Flush",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  auto w = make(writes_of_2300(100), p);
  const auto out = drain(*w);
  uint64_t written = 0;
  for (const IoRequest& r : out) {
    CHECK(r.op != IoOp::Flush);
    if (r.op == IoOp::Write) written += r.bytes;
  }
  CHECK(written == 57 * 4096);  // pages 0..56 once: one 233,472-byte request
  CHECK(out.back().op == IoOp::Write);
  CHECK(out.back().offset == 0);
  CHECK(out.back().bytes == 57 * 4096);
  CHECK(w->counters().max_dirty_bytes == 57 * 4096);
  CHECK(w->dirty_bytes() == 0);

  p.flush_at_end = true;  // end_fsync
  auto w2 = make(writes_of_2300(100), p);
  const auto out2 = drain(*w2);
  REQUIRE(out2.size() >= 2);
  CHECK(out2.back().op == IoOp::Flush);
  CHECK(out2[out2.size() - 2].bytes == 57 * 4096);
}

TEST_CASE("buffered I/O: above the background threshold the flusher writes chunks of at least 1,024 pages",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  p.background_bytes = 2048 * 4096;  // 8 MiB
  p.max_io_bytes = 128 << 10;
  std::vector<IoRequest> rs;
  for (uint64_t i = 0; i < 4096; ++i) rs.push_back(req(IoOp::Write, ((i * 7919) % 8192) * 4096, 4096));  // 16 MiB, random order
  auto w = make(rs, p);
  const Sent out = drain_all(*w);
  const BufferedCounters& c = w->counters();
  CHECK(c.max_dirty_bytes == 2049 * 4096);  // one page over, then the flusher
  CHECK(c.flusher_bytes % (1024 * 4096) == 0);
  CHECK(c.flusher_bytes == 2 * 1024 * 4096);  // 4,096 pages dirtied: two chunks of 1,024 above 2,048
  CHECK(c.flusher_bytes + c.sync_bytes == 4096ull * 4096);
  uint64_t flusher = 0, job = 0;
  for (const IoRequest& r : out.flusher) {
    CHECK(r.bytes <= (128u << 10));
    flusher += r.bytes;
  }
  for (const IoRequest& r : out.job) {
    CHECK(r.bytes <= (128u << 10));
    job += r.bytes;
  }
  CHECK(flusher == c.flusher_bytes);  // the flusher's writes are its own requests, not the job's
  CHECK(job == c.sync_bytes);
  CHECK(c.throttle_waits == 0);  // 16 MiB never reaches the default limit (20 % of 16 GiB)
}

TEST_CASE("buffered I/O: the dirty limits are Linux's domain_dirty_limits (bytes win, ratios per page of memory)",
          "[workload][filesystem][buffered]") {
  BufferedParams p;  // 16 GiB = 4,194,304 pages; 20 % and 10 % are 819 and 409 per 4,096 pages
  DirtyLimits d = dirty_limits(p);
  CHECK(d.limit_pages == 819ull * 4194304 / 4096);  // 838,656 pages (19.995 %)
  CHECK(d.background_pages == 409ull * 4194304 / 4096);
  p.dirty_bytes = 10000;  // rounded up to 3 pages; the 10 % background is above it: half the limit
  p.background_bytes = 0;
  d = dirty_limits(p);
  CHECK(d.limit_pages == 3);
  CHECK(d.background_pages == 1);
  p.dirty_bytes = 0;
  p.background_bytes = 8192;
  p.dirty_ratio = 1;  // 40 per 4,096 pages of 16 GiB: 40,960 pages
  d = dirty_limits(p);
  CHECK(d.limit_pages == 40960);
  CHECK(d.background_pages == 2);
}

TEST_CASE("buffered I/O: a writer above the dirty limit waits for the flusher's writes, its own requests, at most "
          "4 in flight, 16 within a second of a throttled writer",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  p.dirty_bytes = 2048 * 4096;       // limit 2,048 pages (8 MiB)
  p.background_bytes = 1024 * 4096;  // the flusher above 1,024
  p.max_io_bytes = 64 << 10;         // its chunks in 16-page requests
  std::vector<IoRequest> rs;
  for (uint64_t i = 0; i < 8192; ++i) rs.push_back(req(IoOp::Write, i * 4096, 4096));  // 32 MiB sequential
  auto w = make(rs, p);
  IoRequest r;
  // No completion yet: the writer dirties up to the limit and waits; the job has sent nothing of its own.
  w->clock(1000);
  CHECK_FALSE(w->next(r));
  CHECK(w->waiting());
  const BufferedCounters& c = w->counters();
  CHECK(c.throttle_waits == 1);
  CHECK(c.max_dirty_writeback_bytes == 2049 * 4096);  // the write that went over, then the wait
  // Its writeback: within a second of the wait the whole depth (16) goes out, no more.
  std::vector<IoRequest> inflight;
  while (w->next_background(r)) inflight.push_back(r);
  CHECK(inflight.size() == 16);
  CHECK(c.max_writeback_inflight == 16);
  // One completes 2 s later: the writer goes on (waited 2 s) until over the limit again.
  w->clock(2000001000);
  w->background_done(inflight.back().bytes);
  inflight.pop_back();
  CHECK_FALSE(w->next(r));
  CHECK(w->waiting());
  CHECK(c.throttle_waits == 2);
  CHECK(c.throttle_ns == 2000000000);
  CHECK(c.max_dirty_writeback_bytes == 2049 * 4096);  // never more than one page over
  // All complete, and nobody waited for 2 s: background writeback gets (16 + 3) / 4 = 4 in flight.
  w->clock(4000001000);
  for (const IoRequest& x : inflight) w->background_done(x.bytes);
  inflight.clear();
  CHECK_FALSE(w->next(r));  // the writer goes on, and is over the limit again
  w->clock(6000001000);
  size_t n = 0;
  while (w->next_background(r)) ++n;
  CHECK(n == 4);
  // A runtime cut while it waits: the wait counts until the close (2 + 2 + 3 s).
  w->clock(7000001000);
  REQUIRE(w->close());
  CHECK(c.throttle_ns == 7000000000);
  CHECK_FALSE(w->waiting());
}

TEST_CASE("buffered I/O: reads hit cached pages, sequential misses read ahead 4, 8, 16, 32 pages, random ones as they are",
          "[workload][filesystem][buffered]") {
  BufferedParams p;  // readahead 128 KiB = 32 pages
  std::vector<IoRequest> rs;
  rs.push_back(req(IoOp::Write, 40 << 20, 4096));          // dirties a page far away
  rs.push_back(req(IoOp::Read, 40 << 20, 4096));           // a hit
  for (uint64_t i = 0; i < 64; ++i) rs.push_back(req(IoOp::Read, i * 4096, 4096));  // sequential from 0
  rs.push_back(req(IoOp::Read, 20 << 20, 8192));           // a random read: as is
  auto w = make(rs, p);
  const auto out = drain(*w);
  std::vector<uint32_t> reads;
  for (const IoRequest& r : out)
    if (r.op == IoOp::Read) reads.push_back(r.bytes);
  // The first read at page 0: 4 pages (get_init_ra_size(1, 32), its last 3 marked ahead); each window's first
  // marked page fetches the next: 8, 16, 32 pages, then 32 (at pages 1, 4, 12, 28 and 60), up to page 124.
  const std::vector<uint32_t> expected = {4 * 4096, 8 * 4096, 16 * 4096, 32 * 4096, 32 * 4096, 32 * 4096, 8192};
  CHECK(reads == expected);
  const BufferedCounters& c = w->counters();
  CHECK(c.cache_read_bytes == 4096 + 63 * 4096);  // the dirty page and every sequential page after the first
  CHECK(c.drive_read_bytes == (124 + 2) * 4096);
  CHECK(c.readahead_bytes == 123 * 4096);  // every page read before the job asked for it
  // The write reaches the drive at the end (the last close), after every read.
  CHECK(out.back().op == IoOp::Write);
  CHECK(out.back().offset == (40u << 20));
}

TEST_CASE("buffered I/O: a trim drops the range's dirty pages, a later read of them reaches the drive",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  p.readahead_bytes = 0;
  auto w = make({req(IoOp::Write, 0, 16384), req(IoOp::Trim, 4096, 8192), req(IoOp::Read, 4096, 4096)}, p);
  const auto out = drain(*w);
  REQUIRE(out.size() == 4);
  CHECK(out[0].op == IoOp::Trim);
  CHECK(out[1].op == IoOp::Read);  // page 1 left the cache
  CHECK(out[1].offset == 4096);
  CHECK(out[2].op == IoOp::Write);  // pages 0 and 3 at the end, not the trimmed ones
  CHECK(out[2].offset == 0);
  CHECK(out[2].bytes == 4096);
  CHECK(out[3].offset == 12288);
  CHECK(out[3].bytes == 4096);
}

namespace {
class EndlessWrites : public Workload {  // fio's time_based: no end of its own (progress total 0)
 public:
  bool next(IoRequest& r) override {
    r = req(IoOp::Write, (n_++ % 8) * 4096, 4096);
    return true;
  }
  uint64_t n_ = 0;
};
}  // namespace

TEST_CASE("buffered I/O: an endless job whose writes stay in memory ends, its pages written once",
          "[workload][filesystem][buffered]") {
  auto inner = std::make_unique<EndlessWrites>();
  const EndlessWrites* e = inner.get();
  BufferedWorkload w(std::move(inner), BufferedParams(), 0, 32 * 4096, kDevice);  // a 32-page range
  const auto out = drain(w);
  REQUIRE(out.size() == 1);  // pages 0..7 in one write at the end
  CHECK(out[0].bytes == 8 * 4096);
  CHECK(e->n_ == 1024);  // 4 x 32 pages = 128, at least 1,024 requests in a row with nothing for the drive
  CHECK(w.counters().ended_in_memory);
}

namespace {
// Draws one request of the cache at `now_ns` (the host's clock before the draw), nullopt when it has none now:
// a BufferedWorkload's next() pulls inner requests until one reaches the drive, so the endless writer is bounded
// by the in-memory end (1,024 requests in a row).
std::vector<IoRequest> draw_at(BufferedWorkload& w, uint64_t now_ns, size_t n) {
  std::vector<IoRequest> out;
  IoRequest r;
  w.clock(now_ns);
  for (size_t i = 0; i < n && w.next(r); ++i) out.push_back(r);
  return out;
}
}  // namespace

TEST_CASE("buffered I/O: expiry in simulated time: wakes before 30 s write nothing, the first wake after writes all",
          "[workload][filesystem][buffered]") {
  BufferedParams p;
  p.expire_ns = 30000000000ull;
  auto inner = std::make_unique<ListedWorkload>(std::vector<IoRequest>{
      req(IoOp::Write, 0, 4096), req(IoOp::Read, 1u << 20, 4096), req(IoOp::Write, 4096, 4096),
      req(IoOp::Read, 2u << 20, 4096), req(IoOp::Write, 8192, 4096), req(IoOp::Read, 3u << 20, 4096)});
  BufferedWorkload w(std::move(inner), p, 0, kDevice, kDevice);
  // 2 s: the write dirties page 0 (the inode dirty since 2 s), the read misses: that is what reaches the drive.
  auto a = draw_at(w, 2000000000ull, 1);
  REQUIRE(a.size() == 1);
  CHECK(a[0].op == IoOp::Read);
  w.wake(5000000000ull);
  w.wake(30000000000ull);  // dirty 28 s: not expired
  CHECK(w.counters().expired_bytes == 0);
  auto b = draw_at(w, 31000000000ull, 1);  // page 1 dirtied at 31 s: the inode stays dirty since 2 s
  REQUIRE(b.size() == 1);
  CHECK(b[0].op == IoOp::Read);
  w.wake(35000000000ull);  // 33 s: the whole inode (pages 0 and 1) goes, as one run, the flusher's own request
  IoRequest c;
  REQUIRE(w.next_background(c));
  CHECK(c.op == IoOp::Write);
  CHECK(c.offset == 0);
  CHECK(c.bytes == 2 * 4096);
  w.background_done(c.bytes);
  CHECK(w.counters().expired_bytes == 2 * 4096);
  CHECK(w.counters().flusher_wakes == 1);
  // A page dirtied after the writeback makes the inode dirty anew, from its own time (36 s): 40 s is too early.
  auto d = draw_at(w, 36000000000ull, 1);
  REQUIRE(d.size() == 1);
  CHECK(d[0].op == IoOp::Read);
  w.wake(40000000000ull);
  CHECK(w.counters().expired_bytes == 2 * 4096);
  w.wake(66000000000ull);
  CHECK(w.counters().expired_bytes == 3 * 4096);
}

TEST_CASE("buffered I/O: a runtime cut closes the device: the dirty pages go out, a Flush only with end_fsync",
          "[workload][filesystem][buffered]") {
  for (const bool end_fsync : {false, true}) {
    BufferedParams p;
    p.flush_at_end = end_fsync;
    auto inner = std::make_unique<ListedWorkload>(std::vector<IoRequest>{
        req(IoOp::Write, 0, 4096), req(IoOp::Write, 4096, 4096), req(IoOp::Read, 1u << 20, 4096),
        req(IoOp::Write, 64u << 10, 4096)});
    BufferedWorkload w(std::move(inner), p, 0, kDevice, kDevice);
    auto a = draw_at(w, 0, 1);  // pages 0 and 1 dirty, the read misses
    REQUIRE(a.size() == 1);
    CHECK(w.dirty_bytes() == 2 * 4096);
    REQUIRE(w.close());  // the runtime's end: fio closes the device (blkdev_put -> sync_blockdev)
    IoRequest r;
    std::vector<IoRequest> out;
    while (w.next(r)) out.push_back(r);
    REQUIRE(out.size() == (end_fsync ? 2u : 1u));
    CHECK(out[0].op == IoOp::Write);
    CHECK(out[0].bytes == 2 * 4096);
    CHECK(out[0].after_end == !end_fsync);  // fio's runtime ends before the close; end_fsync's fsync is in it
    if (end_fsync) CHECK(out[1].op == IoOp::Flush);
    CHECK(w.dirty_bytes() == 0);  // nothing left behind
    CHECK(w.counters().close_bytes == 2 * 4096);
    CHECK_FALSE(w.close());  // closed once
  }
}
