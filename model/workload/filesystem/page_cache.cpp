#include "workload/filesystem/page_cache.h"

namespace ssdtlm {

void PageCache::dirty(uint32_t file, uint64_t first, uint64_t n, uint64_t now_ns, const PageOrigin& o) {
  if (n == 0) return;
  auto [it, fresh] = inodes_.try_emplace(file);
  Inode& ino = it->second;
  if (fresh) {
    ino.dirtied_when = now_ns;
    by_age_.insert({now_ns, file});
  }
  for (uint64_t p = first; p < first + n; ++p) {
    auto [pit, added] = ino.pages.insert_or_assign(p, o);
    (void)pit;
    if (added) ++pages_;
  }
}

bool PageCache::is_dirty(uint32_t file, uint64_t page) const {
  const auto it = inodes_.find(file);
  return it != inodes_.end() && it->second.pages.count(page) != 0;
}

void PageCache::take_range(uint32_t file, uint64_t first, uint64_t n, std::vector<DirtyPage>& out) {
  const auto it = inodes_.find(file);
  if (it == inodes_.end()) return;
  auto& pages = it->second.pages;
  const uint64_t end = n > ~uint64_t(0) - first ? ~uint64_t(0) : first + n;
  for (auto p = pages.lower_bound(first); p != pages.end() && p->first < end;) {
    out.push_back({file, p->first, p->second});
    p = pages.erase(p);
    --pages_;
  }
  if (pages.empty()) {
    by_age_.erase({it->second.dirtied_when, file});
    inodes_.erase(it);
  }
}

uint64_t PageCache::take_pages(uint32_t file, uint64_t first, uint64_t max_pages, std::vector<DirtyPage>& out) {
  const auto it = inodes_.find(file);
  if (it == inodes_.end() || max_pages == 0) return 0;
  auto& pages = it->second.pages;
  uint64_t after = 0;
  for (auto p = pages.lower_bound(first); p != pages.end() && max_pages > 0; --max_pages) {
    out.push_back({file, p->first, p->second});
    after = p->first + 1;
    p = pages.erase(p);
    --pages_;
  }
  if (pages.empty()) {
    by_age_.erase({it->second.dirtied_when, file});
    inodes_.erase(it);
  }
  return after;
}

uint64_t PageCache::drop_range(uint32_t file, uint64_t first, uint64_t n) {
  std::vector<DirtyPage> dropped;
  take_range(file, first, n, dropped);
  return dropped.size();
}

void PageCache::take_inode(uint32_t file, std::vector<DirtyPage>& out) { take_range(file, 0, ~uint64_t(0), out); }

void PageCache::take_expired(uint64_t now_ns, uint64_t expire_ns, uint64_t background_pages,
                             std::vector<DirtyPage>& out) {
  while (!by_age_.empty()) {
    const auto [when, file] = *by_age_.begin();
    const bool expired = when + expire_ns <= now_ns;
    const bool over = background_pages && pages_ > background_pages;
    if (!expired && !over) break;
    take_inode(file, out);
  }
}

void PageCache::take_all(std::vector<DirtyPage>& out) {
  while (!by_age_.empty()) take_inode(by_age_.begin()->second, out);
}

}  // namespace ssdtlm
