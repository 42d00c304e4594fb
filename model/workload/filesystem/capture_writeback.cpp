// The capture replay's data path: the page cache's reads and writes, writeback, direct I/O, the journal's commits
// and checkpoints, and the requests they send. capture_replay.h.
#include <algorithm>

#include "flash/geometry.h"
#include "workload/filesystem/capture_replay.h"

namespace ssdtlm {

using namespace capture;

namespace {
uint64_t pages_of(uint64_t bytes) { return (bytes + kUnitBytes - 1) / kUnitBytes; }
uint32_t fold_pc(uint64_t pc) {
  const uint32_t f = uint32_t(pc ^ (pc >> 32));
  return pc == 0 ? 0 : f == 0 ? 1 : f;
}
}  // namespace

CaptureWorkload::UnissuedPcs CaptureWorkload::unissued_pcs() const {
  UnissuedPcs u;
  for (const auto& [pc, w] : pcs_)
    if (!pcs_issued_.count(fold_pc(pc))) {
      ++u.contexts;
      u.writes += w.writes;
      u.write_bytes += w.bytes;
    }
  return u;
}

size_t CaptureWorkload::write_call_sites_issued() const {
  std::set<uint32_t> sites;
  for (const auto& [pc, w] : pcs_)
    if (w.call_site && pcs_issued_.count(fold_pc(pc))) sites.insert(w.call_site);
  return sites.size();
}

void CaptureWorkload::push(IoOp op, uint64_t unit, uint64_t units, Sent kind, const PageOrigin* o, uint16_t hint) {
  const uint64_t max_units = std::max<uint64_t>(1, p_.max_io_bytes / kUnitBytes);
  const uint64_t chunk = op == IoOp::Trim ? 8 * max_units : max_units;
  for (uint64_t done = 0; done < units;) {
    const uint64_t n = std::min(chunk, units - done);
    IoRequest r;
    r.op = op;
    r.offset = (unit + done) * kUnitBytes;
    r.bytes = uint32_t(n * kUnitBytes);
    r.time_ns = now_;
    if (o && op == IoOp::Write) {
      r.pc = fold_pc(o->pc);
      r.proc = o->proc;
      r.proc_slot = o->slot;
      r.stream = hint;
      if (r.pc) pcs_issued_.insert(r.pc);
    }
    const uint64_t bytes = n * kUnitBytes;
    if (op == IoOp::Trim) c_.trim_bytes += bytes;
    else if (op == IoOp::Read) c_.data_read_bytes += bytes;
    else if (kind == Sent::Data) c_.data_bytes += bytes;
    else if (kind == Sent::Journal) c_.journal_bytes += bytes;
    else if (kind == Sent::Meta) c_.metadata_bytes += bytes;
    out_.push_back(r);
    last_time_ = now_;
    done += n;
  }
}

// Delayed allocation: the file's blocks up to `units` pages, allocated when first written back (or written
// directly, or fallocated); the block bitmaps and group descriptors of new extents join the transaction.
void CaptureWorkload::allocate(File& f, uint64_t units) {
  if (f.page.size() < units) f.page.resize(units, 0);
  const uint64_t have = fs_.size(f.id);
  if (units <= have) return;
  std::vector<Extent> added;
  fs_.append(f.id, units - have, &added);
  for (const Extent& e : added) {
    dirty_meta(layout_.block_bitmap_of(e.start));
    dirty_meta(layout_.gdt_block_of(e.start));
  }
  f.alloc_changed = true;
  dirty_meta(inode_block(f));
}

void CaptureWorkload::drive_read(File& f, uint64_t first, uint64_t n, bool rmw) {
  scratch_.clear();
  fs_.map(f.id, first, n, scratch_);
  const uint64_t before = c_.data_read_bytes;
  for (const Extent& e : scratch_) push(IoOp::Read, e.start, e.units, Sent::Data);
  if (rmw) c_.rmw_read_bytes += c_.data_read_bytes - before;
  if (p_.clean_cache)
    for (uint64_t p = first; p < first + n; ++p) f.page[p] |= kCached;
}

void CaptureWorkload::trim_pages(File& f, uint64_t first, uint64_t n) {
  if (!f.id || n == 0) return;
  const uint64_t alloc = fs_.size(f.id);
  const uint64_t end = std::min(first + n, alloc);
  for (uint64_t p = first; p < std::min<uint64_t>(first + n, f.page.size()); ++p) f.page[p] = 0;
  if (!p_.discard || first >= end) return;
  scratch_.clear();
  fs_.map(f.id, first, end - first, scratch_);
  const std::vector<Extent> trims = scratch_;
  for (const Extent& e : trims) push(IoOp::Trim, e.start, e.units, Sent::Data);
}

// A read of the program: pages dirty or cached come from the cache; runs of pages on the drive are read (O_DIRECT:
// the range's dirty pages are written first and every page on the drive is read); never-written pages are zeros.
void CaptureWorkload::read(File& f, uint32_t flags, uint64_t off, uint64_t bytes) {
  ++c_.reads;
  c_.read_bytes += bytes;
  const uint32_t fi = uint32_t(&f - files_.data());
  const uint64_t first = off / kUnitBytes, last = pages_of(off + bytes);
  const bool direct = flags & kOpenDirect;
  if (direct) {
    std::vector<DirtyPage> pages;
    cache_.take_range(fi, first, last - first, pages);
    write_back(pages, true);
  }
  uint64_t run = 0, run_len = 0;
  for (uint64_t p = first; p < last; ++p) {
    const uint8_t s = p < f.page.size() ? f.page[p] : 0;
    const bool hit = !direct && (cache_.is_dirty(fi, p) || (s & kCached));
    const bool on_drive = (s & kOnDrive) && !hit;
    const uint64_t in_page = std::min((p + 1) * kUnitBytes, off + bytes) - std::max(p * kUnitBytes, off);
    if (hit) c_.cache_read_bytes += in_page;
    else if (!on_drive && !cache_.is_dirty(fi, p)) c_.unwritten_read_bytes += in_page;
    if (on_drive && run_len && run + run_len == p) {
      ++run_len;
      continue;
    }
    if (run_len) drive_read(f, run, run_len, false);
    run = p, run_len = on_drive ? 1 : 0;
  }
  if (run_len) drive_read(f, run, run_len, false);
}

void CaptureWorkload::write(File& f, uint32_t flags, const CaptureRecord& r) {
  ++c_.writes;
  c_.write_bytes += r.bytes;
  if (r.pc) {
    PcWrites& w = pcs_[r.pc];
    ++w.writes;
    w.bytes += r.bytes;
    if (r.aux) w.call_site = r.aux;
  }
  if (r.aux) call_sites_.insert(r.aux);
  const uint32_t fi = uint32_t(&f - files_.data());
  const auto pr = procs_.find(r.pid);
  PageOrigin o;
  o.pc = r.pc;
  if (pr != procs_.end()) o.proc = pr->second.id, o.slot = pr->second.slot;
  f.last_write = o;
  const uint64_t first = r.offset / kUnitBytes, last = pages_of(r.offset + r.bytes);
  const uint64_t old_size = f.size;
  f.size = std::max(f.size, r.offset + r.bytes);
  if (f.size != old_size) f.alloc_changed = true;
  dirty_meta(inode_block(f));  // mtime
  if (f.page.size() < last) f.page.resize(last, 0);
  if (flags & kOpenDirect) {  // the range's dirty pages first, then the data straight to the drive
    std::vector<DirtyPage> pages;
    cache_.take_range(fi, first, last - first, pages);
    write_back(pages, true);
    allocate(f, last);
    scratch_.clear();
    fs_.map(f.id, first, last - first, scratch_);
    const std::vector<Extent> ext = scratch_;
    for (const Extent& e : ext) push(IoOp::Write, e.start, e.units, Sent::Data, &o, f.hint);
    for (uint64_t p = first; p < last; ++p) f.page[p] = kOnDrive;  // direct I/O invalidates the cached copy
    c_.direct_write_bytes += r.bytes;
    return;
  }
  // A partial page that is neither dirty nor cached but holds data on the drive is read first.
  for (uint64_t p : {first, last - 1}) {
    const bool partial = (p == first && r.offset % kUnitBytes) ||
                         (p == last - 1 && (r.offset + r.bytes) % kUnitBytes && r.offset + r.bytes < old_size);
    if (partial && (f.page[p] & kOnDrive) && !(f.page[p] & kCached) && !cache_.is_dirty(fi, p))
      drive_read(f, p, 1, true);
  }
  cache_.dirty(fi, first, last - first, now_, o);
  if (flags & (kOpenSync | kOpenDsync)) {
    ++c_.sync_writes;
    std::vector<DirtyPage> pages;
    cache_.take_range(fi, first, last - first, pages);
    write_back(pages, true);
    if ((flags & kOpenSync) == kOpenSync ? !txn_.empty() : f.alloc_changed) commit();
  }
}

void CaptureWorkload::fallocate(File& f, const CaptureRecord& r) {
  constexpr uint32_t kKeepSize = 1, kPunchHole = 2;
  const uint64_t first = r.offset / kUnitBytes, last = pages_of(r.offset + r.bytes);
  if (r.flags & kPunchHole) {  // the whole pages of the hole leave the cache and the drive
    const uint64_t a = pages_of(r.offset), b = (r.offset + r.bytes) / kUnitBytes;
    if (b > a) {
      cache_.drop_range(uint32_t(&f - files_.data()), a, b - a);
      trim_pages(f, a, b - a);
    }
    dirty_meta(inode_block(f));
    return;
  }
  allocate(f, last);  // unwritten extents: allocated, nothing on the drive yet
  if (!(r.flags & kKeepSize)) f.size = std::max(f.size, r.offset + r.bytes);
  (void)first;
}

// Writes pages back: runs of consecutive pages of one file with one origin, allocated first (delayed allocation).
void CaptureWorkload::write_back(std::vector<DirtyPage>& pages, bool sync) {
  if (p_.pc_per_inode)  // the context the inode holds now, for every page of the file (PCStream's kernel)
    for (DirtyPage& d : pages) d.origin = files_[d.file].last_write;
  size_t i = 0;
  while (i < pages.size()) {
    size_t j = i + 1;
    while (j < pages.size() && pages[j].file == pages[i].file && pages[j].page == pages[j - 1].page + 1 &&
           pages[j].origin.pc == pages[i].origin.pc && pages[j].origin.proc == pages[i].origin.proc)
      ++j;
    File& f = files_[pages[i].file];
    const uint64_t first = pages[i].page, n = j - i;
    if (f.id && first < pages_of(f.size)) {
      const uint64_t upto = std::min(first + n, pages_of(f.size));
      allocate(f, upto);
      scratch_.clear();
      fs_.map(f.id, first, upto - first, scratch_);
      const std::vector<Extent> ext = scratch_;
      const uint64_t before = c_.data_bytes;
      for (const Extent& e : ext) push(IoOp::Write, e.start, e.units, Sent::Data, &pages[i].origin, f.hint);
      (sync ? c_.sync_bytes : c_.flusher_bytes) += c_.data_bytes - before;
      for (uint64_t p = first; p < upto; ++p) f.page[p] = uint8_t(kOnDrive | (p_.clean_cache ? kCached : 0));
    }
    i = j;
  }
  pages.clear();
}

// The flusher and jbd2's commit timer, in time order, up to the capture time `until`.
void CaptureWorkload::run_timers(uint64_t until) {
  if (next_flush_ == 0) next_flush_ = p_.writeback_ns, next_commit_ = p_.commit_ns;
  const uint64_t saved = now_;
  while (std::min(next_flush_, next_commit_) <= until) {
    if (next_flush_ <= next_commit_) {
      now_ = next_flush_;
      std::vector<DirtyPage> pages;
      cache_.take_expired(now_, p_.dirty_expire_ns, p_.background_bytes / kUnitBytes, pages);
      write_back(pages, false);
      next_flush_ += p_.writeback_ns;
    } else {
      now_ = next_commit_;
      commit();
      next_commit_ += p_.commit_ns;
    }
  }
  now_ = std::max(saved, now_);
}

// A jbd2 commit: descriptor and the transaction's blocks at the journal head (wrapping), then the commit block.
void CaptureWorkload::commit() {
  if (txn_.empty()) return;
  const uint64_t area = layout_.journal_blocks - 1;  // after the journal superblock
  uint64_t left = 1 + txn_.size();
  while (left) {
    const uint64_t n = std::min(left, area - (journal_head_ - 1));
    push(IoOp::Write, layout_.journal_start + journal_head_, n, Sent::Journal);
    journal_head_ = 1 + (journal_head_ - 1 + n) % area;
    left -= n;
  }
  push(IoOp::Write, layout_.journal_start + journal_head_, 1, Sent::Journal);
  journal_head_ = 1 + journal_head_ % area;
  ++c_.commits;
  home_.insert(txn_.begin(), txn_.end());
  txn_.clear();
  for (File& f : files_) f.alloc_changed = false;
  if (++commits_since_checkpoint_ >= p_.checkpoint_commits && p_.checkpoint_commits) checkpoint();
}

// The journaled blocks written home (runs of consecutive blocks), then the journal superblock (its tail moves).
void CaptureWorkload::checkpoint() {
  commits_since_checkpoint_ = 0;
  if (home_.empty()) return;
  uint64_t start = *home_.begin(), n = 0;
  for (uint64_t b : home_) {
    if (b == start + n) {
      ++n;
      continue;
    }
    push(IoOp::Write, start, n, Sent::Meta);
    start = b, n = 1;
  }
  push(IoOp::Write, start, n, Sent::Meta);
  push(IoOp::Write, layout_.journal_start, 1, Sent::Journal);
  home_.clear();
  ++c_.checkpoints;
}

// The end of the capture: sync (every dirty page, a commit) and a checkpoint, as an unmount does.
void CaptureWorkload::finish() {
  std::vector<DirtyPage> pages;
  cache_.take_all(pages);
  write_back(pages, true);
  commit();
  checkpoint();
}

}  // namespace ssdtlm
