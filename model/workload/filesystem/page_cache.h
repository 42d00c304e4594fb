// The dirty pages of Linux's page cache, for the capture replay (capture_replay.h): which 4 KiB pages of which file
// are dirty, who dirtied them, and when each file (inode) became dirty, as the writeback code keeps them
// (fs/fs-writeback.c: an inode's dirtied_when is set when it goes from clean to dirty and kept while it stays dirty;
// the flusher writes the inodes whose dirtied_when is older than dirty_expire_centisecs, oldest first, and above
// dirty_background_bytes the oldest inodes until below). Taking pages removes them (they are being written).
// Plain data structure: the caller decides when (its clock is the capture's time).
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ssdtlm {

struct PageOrigin {
  uint64_t pc = 0;     // the program context of the write that dirtied the page last
  uint32_t proc = 0;   // its process (replay numbering)
  uint16_t slot = 0;
};

struct DirtyPage {
  uint32_t file = 0;
  uint64_t page = 0;  // page index in the file
  PageOrigin origin;
};

class PageCache {
 public:
  // Marks pages [first, first + n) of `file` dirty at `now_ns`, by `o` (a re-dirtied page takes the newer origin).
  void dirty(uint32_t file, uint64_t first, uint64_t n, uint64_t now_ns, const PageOrigin& o);
  bool is_dirty(uint32_t file, uint64_t page) const;
  // Removes the dirty pages of `file` in [first, first + n) (n = ~0: to the end) and appends them in page order.
  void take_range(uint32_t file, uint64_t first, uint64_t n, std::vector<DirtyPage>& out);
  void take_file(uint32_t file, std::vector<DirtyPage>& out) { take_range(file, 0, ~uint64_t(0), out); }
  // Removes up to `max_pages` dirty pages of `file` from page `first` on, in page order (the flusher's chunk of
  // one inode, write_cache_pages from writeback_index); returns the page after the last taken (0: none was left).
  uint64_t take_pages(uint32_t file, uint64_t first, uint64_t max_pages, std::vector<DirtyPage>& out);
  // Discards dirty pages (unlink, truncate): nothing is written.
  uint64_t drop_range(uint32_t file, uint64_t first, uint64_t n = ~uint64_t(0));
  // The flusher at `now_ns`: every page of the inodes dirtied at or before now - expire_ns, oldest inode first;
  // then, while more than background_pages are dirty (0 = no limit), the oldest inodes'.
  void take_expired(uint64_t now_ns, uint64_t expire_ns, uint64_t background_pages, std::vector<DirtyPage>& out);
  void take_all(std::vector<DirtyPage>& out);
  uint64_t dirty_pages() const { return pages_; }
  size_t dirty_files() const { return inodes_.size(); }

 private:
  struct Inode {
    uint64_t dirtied_when = 0;
    std::map<uint64_t, PageOrigin> pages;
  };
  void take_inode(uint32_t file, std::vector<DirtyPage>& out);
  std::unordered_map<uint32_t, Inode> inodes_;
  std::set<std::pair<uint64_t, uint32_t>> by_age_;  // (dirtied_when, file)
  uint64_t pages_ = 0;
};

}  // namespace ssdtlm
