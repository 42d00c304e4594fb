// The capture replay's calls: processes, descriptors, files and their names. The data path, writeback and the
// journal are in capture_writeback.cpp. capture_replay.h.
#include "workload/filesystem/capture_replay.h"

#include <algorithm>

#include "flash/geometry.h"

namespace ssdtlm {

using namespace capture;

namespace {
uint64_t pages_of(uint64_t bytes) { return (bytes + kUnitBytes - 1) / kUnitBytes; }
}  // namespace

CaptureWorkload::CaptureWorkload(const std::string& path, uint64_t logical_bytes, const CaptureParams& p,
                                 bool layout_only)
    : p_(p), layout_only_(layout_only), path_(path), layout_(logical_bytes), fs_(layout_.blocks) {
  // The data file of the layout is the space ext4 leaves to files: everything else is reserved.
  std::vector<Extent> data = layout_.data_file;
  std::sort(data.begin(), data.end(), [](const Extent& a, const Extent& b) { return a.start < b.start; });
  uint64_t at = 0;
  for (const Extent& e : data) {
    if (e.start > at) fs_.reserve({at, e.start - at});
    at = e.start + e.units;
  }
  if (at < layout_.blocks) fs_.reserve({at, layout_.blocks - at});
  fs_.set_fit(ExtentAllocator::Fit::Next);
  files_.emplace_back();
  find_existing_files(path);
  reader_ = std::make_unique<CaptureReader>(path);
}

// Files opened with a size before the capture wrote them: they existed before it; the precondition writes them.
void CaptureWorkload::find_existing_files(const std::string& path) {
  CaptureReader scan(path);
  CaptureEvent e;
  std::set<std::string> seen;
  while (scan.next(e)) {
    ++total_records_;
    if (e.kind() == Kind::Rename) seen.insert(e.path2);
    if (e.kind() == Kind::Unlink) seen.insert(e.path);
    if (e.kind() != Kind::Open || !seen.insert(e.path).second || e.rec.offset == 0) continue;
    const uint32_t f = new_file(e.path);
    File& file = files_[f];
    file.size = e.rec.offset;
    allocate(file, pages_of(file.size));
    std::fill(file.page.begin(), file.page.end(), kOnDrive);
    layout_files_.push_back(f);
    ++c_.layout_files;
    c_.layout_bytes += file.size;
  }
  // Aged files: long-lived, never touched by the program (seed 002's "90 % filled with user files").
  const uint64_t aged_target = uint64_t(p_.age_fraction * double(fs_.free_units()));
  const uint64_t per_file = std::max<uint64_t>(1, p_.age_file_bytes / kUnitBytes);
  for (uint64_t aged = 0; aged < aged_target;) {
    const uint64_t units = std::min(per_file, aged_target - aged);
    File& file = files_[new_file("\n aged " + std::to_string(c_.layout_files))];
    file.size = units * kUnitBytes;
    allocate(file, units);
    std::fill(file.page.begin(), file.page.end(), kOnDrive);
    layout_files_.push_back(uint32_t(&file - files_.data()));
    ++c_.layout_files;
    c_.layout_bytes += file.size;
    aged += units;
  }
  txn_.clear();  // the layout's allocation is not the program's
}

uint32_t CaptureWorkload::new_file(const std::string& path) {
  File f;
  f.path = path;
  f.id = fs_.create();
  f.ino = next_ino_++;
  files_.push_back(std::move(f));
  const uint32_t i = uint32_t(files_.size() - 1);
  by_path_[path] = i;
  return i;
}

bool CaptureWorkload::next(IoRequest& r) {
  if (layout_only_) {  // the precondition: the files that existed before the capture, whole, in order
    while (out_.empty() && layout_next_ < layout_files_.size()) {
      File& f = files_[layout_files_[layout_next_++]];
      scratch_.clear();
      fs_.map(f.id, 0, fs_.size(f.id), scratch_);
      for (const Extent& e : scratch_) push(IoOp::Write, e.start, e.units, Sent::Layout);
    }
  } else {
    while (out_.empty() && step()) {
    }
  }
  if (out_.empty()) return false;
  r = out_.front();
  out_.pop_front();
  return true;
}

bool CaptureWorkload::step() {
  CaptureEvent e;
  if (!reader_->next(e)) {
    if (finished_) return false;
    finish();
    finished_ = true;
    return true;
  }
  ++c_.records;
  if (!have_t0_) have_t0_ = true, t0_ = e.rec.time_ns;
  const uint64_t t = e.rec.time_ns > t0_ ? e.rec.time_ns - t0_ : 0;
  run_timers(std::max(t, now_));
  now_ = std::max(t, now_);
  dispatch(e);
  return true;
}

void CaptureWorkload::dispatch(const CaptureEvent& e) {
  const CaptureRecord& r = e.rec;
  uint32_t flags = 0;
  File* f = nullptr;
  switch (e.kind()) {
    case Kind::ProcessStart: return process_start(e);
    case Kind::ProcessExit: return process_exit(r.pid);
    case Kind::Open: return open(e);
    case Kind::Close: return close(r.pid, r.fd);
    case Kind::Unlink: return unlink(e.path);
    case Kind::Rename: return rename(e.path, e.path2);
    case Kind::Unseen: return unseen(e);
    default: break;
  }
  if (!(f = file_of(r, &flags))) {  // a descriptor the capture did not see opened: counted, not replayed
    if (e.kind() == Kind::Write) ++c_.unknown_fd_writes, c_.unknown_fd_bytes += r.bytes;
    return;
  }
  switch (e.kind()) {
    case Kind::Size: {  // the growth no recorded write explains, as one write at the end of the file
      if (r.offset <= f->size) return;
      CaptureRecord grown = r;
      grown.offset = f->size;
      grown.bytes = r.offset - f->size;
      ++c_.growth_writes;
      c_.growth_bytes += grown.bytes;
      return write(*f, flags, grown);
    }
    case Kind::Read: return read(*f, flags, r.offset, r.bytes);
    case Kind::Write: return write(*f, flags, r);
    case Kind::Fsync:
    case Kind::Fdatasync: {
      ++c_.fsyncs;
      std::vector<DirtyPage> pages;
      cache_.take_file(uint32_t(f - files_.data()), pages);
      write_back(pages, true);
      if (e.kind() == Kind::Fsync ? !txn_.empty() : f->alloc_changed) commit();
      return;
    }
    case Kind::SyncRange: {
      if (!(r.flags & 2)) return;  // SYNC_FILE_RANGE_WRITE starts the writeback of the range
      std::vector<DirtyPage> pages;
      cache_.take_range(uint32_t(f - files_.data()), r.offset / kUnitBytes,
                        r.bytes ? pages_of(r.offset + r.bytes) - r.offset / kUnitBytes : ~uint64_t(0), pages);
      return write_back(pages, true);
    }
    case Kind::Fallocate: return fallocate(*f, r);
    case Kind::Truncate: return truncate(uint32_t(f - files_.data()), r.offset);
    case Kind::Hint:
      ++c_.hints;
      f->hint = uint16_t(std::min<uint32_t>(r.aux, 5));
      return;
    case Kind::Dup: {
      const Fd d = fds_[r.pid][r.fd];
      close(r.pid, int32_t(r.aux));
      fds_[r.pid][int32_t(r.aux)] = d;
      ++files_[d.file].open_fds;
      return;
    }
    default: return;
  }
}

CaptureWorkload::File* CaptureWorkload::file_of(const CaptureRecord& r, uint32_t* flags) {
  const auto p = fds_.find(r.pid);
  if (p == fds_.end()) return nullptr;
  const auto d = p->second.find(r.fd);
  if (d == p->second.end()) return nullptr;
  if (flags) *flags = d->second.flags;
  return &files_[d->second.file];
}

void CaptureWorkload::process_start(const CaptureEvent& e) {
  ++c_.processes;
  const uint32_t pid = e.rec.pid;
  auto it = procs_.find(pid);
  if (it != procs_.end()) {  // an exec: a new program in the same process, lane and descriptors
    it->second.id = ++next_proc_;
    return;
  }
  Proc p;
  p.id = ++next_proc_;
  if (!free_slots_.empty()) {
    p.slot = *free_slots_.begin();
    free_slots_.erase(free_slots_.begin());
  } else {
    p.slot = ++slots_;
  }
  procs_[pid] = p;
  const auto parent = fds_.find(e.rec.aux);  // a fork: the child holds the parent's descriptors
  if (parent != fds_.end() && !fds_.count(pid)) {
    auto copy = parent->second;
    for (auto& [fd, d] : copy) ++files_[d.file].open_fds;
    fds_[pid] = std::move(copy);
  }
}

void CaptureWorkload::process_exit(uint32_t pid) {
  const auto p = fds_.find(pid);
  if (p != fds_.end()) {
    std::vector<int32_t> open;
    for (auto& [fd, d] : p->second) open.push_back(fd);
    std::sort(open.begin(), open.end());
    for (int32_t fd : open) close(pid, fd);
    fds_.erase(pid);
  }
  const auto it = procs_.find(pid);
  if (it != procs_.end()) {
    free_slots_.insert(it->second.slot);
    procs_.erase(it);
  }
}

void CaptureWorkload::open(const CaptureEvent& e) {
  const CaptureRecord& r = e.rec;
  auto it = by_path_.find(e.path);
  uint32_t f;
  if (it == by_path_.end()) {  // created by the program (or an empty file it found)
    f = new_file(e.path);
    dirty_meta(layout_.root_dir_block);
    dirty_meta(inode_block(files_[f]));
    dirty_meta(layout_.block_bitmap_of(inode_block(files_[f])));
  } else {
    f = it->second;
    if ((r.flags & kOpenTrunc) && (r.flags & kOpenWrite) && files_[f].size) truncate(f, 0);
  }
  close(r.pid, r.fd);  // a descriptor number the capture saw closed implicitly (exec's close-on-exec)
  fds_[r.pid][r.fd] = Fd{f, r.flags};
  ++files_[f].open_fds;
}

void CaptureWorkload::close(uint32_t pid, int32_t fd) {
  const auto p = fds_.find(pid);
  if (p == fds_.end()) return;
  const auto d = p->second.find(fd);
  if (d == p->second.end()) return;
  const uint32_t f = d->second.file;
  p->second.erase(d);
  if (--files_[f].open_fds == 0 && files_[f].unlinked) destroy(f);
}

void CaptureWorkload::unlink(const std::string& path) {
  const auto it = by_path_.find(path);
  if (it == by_path_.end()) return;
  const uint32_t f = it->second;
  by_path_.erase(it);
  files_[f].unlinked = true;
  dirty_meta(layout_.root_dir_block);
  dirty_meta(inode_block(files_[f]));
  if (files_[f].open_fds == 0) destroy(f);
}

void CaptureWorkload::rename(const std::string& from, const std::string& to) {
  const auto it = by_path_.find(from);
  if (it == by_path_.end()) return;
  const uint32_t f = it->second;
  if (from == to) return;
  unlink(to);
  by_path_.erase(from);
  by_path_[to] = f;
  files_[f].path = to;
  dirty_meta(layout_.root_dir_block);
  dirty_meta(inode_block(files_[f]));
}

// Truncation: dirty pages past the end are dropped; whole pages past it leave the drive (trimmed with discard).
// A file cut to 0 gives its extents back; a shorter one keeps them allocated (the file layer only grows files).
void CaptureWorkload::truncate(uint32_t fi, uint64_t size) {
  File& f = files_[fi];
  const uint64_t keep = pages_of(size);
  cache_.drop_range(fi, keep);
  if (keep < f.page.size()) trim_pages(f, keep, f.page.size() - keep);
  if (f.page.size() > keep) f.page.resize(keep);
  if (size == 0 && f.id) {
    for (const Extent& e : fs_.remove(f.id)) dirty_meta(layout_.block_bitmap_of(e.start));
    f.id = fs_.create();
    f.page.clear();
  }
  f.size = size;
  f.alloc_changed = true;
  dirty_meta(inode_block(f));
}

void CaptureWorkload::destroy(uint32_t fi) {
  File& f = files_[fi];
  cache_.drop_range(fi, 0);
  trim_pages(f, 0, f.page.size());
  if (f.id)
    for (const Extent& e : fs_.remove(f.id)) dirty_meta(layout_.block_bitmap_of(e.start));
  f.id = 0;
  f.page.clear();
  f.page.shrink_to_fit();
  f.size = 0;
}

uint64_t CaptureWorkload::inode_block(const File& f) const {
  const Extent& t = layout_.inode_tables.at(0);
  return t.start + (uint64_t(f.ino - 1) * Ext4Layout::kInodeBytes / kUnitBytes) % t.units;
}

void CaptureWorkload::unseen(const CaptureEvent& e) {
  switch (UnseenWhat(e.rec.aux)) {
    case UnseenWhat::SharedWritableMmap: ++c_.unseen_mmap; break;
    case UnseenWhat::StdioWrite: c_.unseen_stdio_bytes += e.rec.bytes; break;
    case UnseenWhat::IoUring: ++c_.unseen_io_uring; break;
    case UnseenWhat::Aio: ++c_.unseen_aio; break;
  }
}

}  // namespace ssdtlm
