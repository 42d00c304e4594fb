#include "workload/apps/file_layer.h"

#include <algorithm>
#include <cstdio>

namespace ssdtlm {

namespace {
std::string mib(uint64_t units) {
  const double m = double(units) * 4096.0 / 1048576.0;
  char buf[32];
  std::snprintf(buf, sizeof buf, m >= 10 ? "%.0f" : "%.2f", m);
  return buf;
}
}  // namespace

ExtentAllocator::ExtentAllocator(uint64_t total_units) : total_(total_units), free_(0) {
  if (total_units) insert(0, total_units);
}

void ExtentAllocator::insert(uint64_t start, uint64_t units) {
  by_start_.emplace(start, units);
  by_size_.emplace(units, start);
  free_ += units;
}

void ExtentAllocator::erase(std::map<uint64_t, uint64_t>::iterator it) {
  by_size_.erase({it->second, it->first});
  free_ -= it->second;
  by_start_.erase(it);
}

bool ExtentAllocator::take_at(uint64_t at, uint64_t units) {
  auto it = by_start_.find(at);
  if (it == by_start_.end() || it->second < units || units == 0) return false;
  const uint64_t len = it->second;
  erase(it);
  if (len > units) insert(at + units, len - units);
  return true;
}

bool ExtentAllocator::take_range(uint64_t at, uint64_t units) {
  auto it = by_start_.upper_bound(at);
  if (units == 0 || it == by_start_.begin()) return false;
  --it;
  const uint64_t s = it->first;
  if (s + it->second < at + units) return false;
  take_at(s, at + units - s);
  if (at > s) release({s, at - s});
  return true;
}

uint64_t ExtentAllocator::take(uint64_t units, std::vector<Extent>& out) {
  if (units == 0 || by_size_.empty()) return 0;
  if (fit_ != Fit::Best) {  // from the goal (the cursor, or a random one) if free, else the next free extent, wrapping
    if (fit_ == Fit::Spread) cursor_ = rng_.below(total_);
    auto at = by_start_.upper_bound(cursor_);
    uint64_t from;
    if (at != by_start_.begin() && std::prev(at)->first + std::prev(at)->second > cursor_) {
      --at;  // the goal lies inside this free extent
      from = cursor_;
    } else {
      if (at == by_start_.end()) at = by_start_.begin();
      from = at->first;
    }
    const uint64_t start = at->first, len = at->second, got = std::min(start + len - from, units);
    erase(at);
    if (from > start) insert(start, from - start);
    if (start + len > from + got) insert(from + got, start + len - from - got);
    out.push_back({from, got});
    cursor_ = from + got;
    return got;
  }
  auto it = by_size_.lower_bound({units, 0});
  if (it == by_size_.end()) it = std::prev(by_size_.end());  // none large enough: the largest
  const uint64_t len = it->first, start = it->second;
  const uint64_t got = std::min(len, units);
  erase(by_start_.find(start));
  if (len > got) insert(start + got, len - got);
  out.push_back({start, got});
  return got;
}

void ExtentAllocator::release(Extent e) {
  if (e.units == 0) return;
  uint64_t start = e.start, units = e.units;
  auto next = by_start_.lower_bound(start);
  if (next != by_start_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      start = prev->first;
      units += prev->second;
      erase(prev);
    }
  }
  next = by_start_.lower_bound(e.start);
  if (next != by_start_.end() && next->first == e.start + e.units) {
    units += next->second;
    erase(next);
  }
  insert(start, units);
}

std::string ExtentAllocator::check() const {
  if (by_start_.size() != by_size_.size()) return "free-extent indexes differ in size";
  uint64_t sum = 0, last_end = 0;
  bool first = true;
  for (auto& [s, n] : by_start_) {
    if (n == 0) return "empty free extent at " + std::to_string(s);
    if (!by_size_.count({n, s})) return "free extent " + std::to_string(s) + "+" + std::to_string(n) + " missing by size";
    if (!first && s < last_end) return "free extents overlap at " + std::to_string(s);
    if (!first && s == last_end) return "free extents not coalesced at " + std::to_string(s);
    if (s + n > total_) return "free extent beyond the space at " + std::to_string(s);
    last_end = s + n;
    first = false;
    sum += n;
  }
  if (sum != free_) return "free units " + std::to_string(free_) + " but the extents hold " + std::to_string(sum);
  return "";
}

FileLayer::FileLayer(uint64_t total_units) : files_(1), alloc_(total_units) {}

const FileLayer::File& FileLayer::file(FileId f) const {
  if (!exists(f)) throw std::logic_error("file layer: no file " + std::to_string(f));
  return files_[f];
}
FileLayer::File& FileLayer::file(FileId f) {
  if (!exists(f)) throw std::logic_error("file layer: no file " + std::to_string(f));
  return files_[f];
}

FileId FileLayer::create() {
  FileId id;
  if (!unused_ids_.empty()) {
    id = unused_ids_.back();
    unused_ids_.pop_back();
  } else {
    id = FileId(files_.size());
    files_.emplace_back();
  }
  files_[id].live = true;
  ++live_;
  return id;
}

uint64_t FileLayer::size(FileId f) const {
  const File& x = file(f);
  return x.end.empty() ? 0 : x.end.back();
}

const std::vector<Extent>& FileLayer::extents(FileId f) const { return file(f).ext; }

void FileLayer::append(FileId f, uint64_t units, std::vector<Extent>* added) {
  File& x = file(f);
  if (units > alloc_.free_units())
    throw FileLayerFull("the file layer needs " + mib(units) + " MiB more but only " + mib(alloc_.free_units()) +
                            " MiB of " + mib(alloc_.total_units()) + " MiB are free",
                        units, alloc_.free_units());
  uint64_t size = x.end.empty() ? 0 : x.end.back();
  auto push = [&](Extent e) {
    if (!x.ext.empty() && x.ext.back().start + x.ext.back().units == e.start) {
      x.ext.back().units += e.units;
      x.end.back() += e.units;
    } else {
      x.ext.push_back(e);
      x.end.push_back(size + e.units);
    }
    size += e.units;
    if (added) added->push_back(e);
  };
  if (!x.ext.empty()) {  // extend in place: as much of the free extent right after the file as is needed
    const uint64_t at = x.ext.back().start + x.ext.back().units;
    auto it = alloc_.by_start().find(at);
    if (it != alloc_.by_start().end()) {
      const uint64_t n = std::min(units, it->second);
      alloc_.take_at(at, n);
      push({at, n});
      units -= n;
    }
  }
  std::vector<Extent> got;
  while (units) {
    got.clear();
    const uint64_t n = alloc_.take(units, got);
    if (n == 0) throw std::logic_error("file layer: free count and free extents disagree");
    push(got[0]);
    units -= n;
  }
}

void FileLayer::map(FileId f, uint64_t offset, uint64_t units, std::vector<Extent>& out) const {
  const File& x = file(f);
  const uint64_t size = x.end.empty() ? 0 : x.end.back();
  if (offset + units > size)
    throw std::logic_error("file layer: range " + std::to_string(offset) + "+" + std::to_string(units) +
                           " beyond file " + std::to_string(f) + " of " + std::to_string(size) + " units");
  size_t i = size_t(std::upper_bound(x.end.begin(), x.end.end(), offset) - x.end.begin());
  while (units) {
    const uint64_t ext_first = x.end[i] - x.ext[i].units;  // file offset of the extent's first unit
    const uint64_t in = offset - ext_first;
    const uint64_t n = std::min(units, x.ext[i].units - in);
    out.push_back({x.ext[i].start + in, n});
    offset += n;
    units -= n;
    ++i;
  }
}

std::vector<Extent> FileLayer::remove(FileId f) {
  File& x = file(f);
  std::vector<Extent> freed = std::move(x.ext);
  for (const Extent& e : freed) alloc_.release(e);
  x = File();
  unused_ids_.push_back(f);
  --live_;
  return freed;
}

std::string FileLayer::check() const {
  std::string bad = alloc_.check();
  if (!bad.empty()) return bad;
  struct Owned {
    uint64_t start, units;
    FileId f;  // 0 = free
  };
  std::vector<Owned> all;
  for (auto& [s, n] : alloc_.by_start()) all.push_back({s, n, 0});
  for (const Extent& e : reserved_) all.push_back({e.start, e.units, 0});
  uint64_t owned = reserved_units_;
  for (FileId f = 1; f < files_.size(); ++f) {
    const File& x = files_[f];
    if (!x.live) continue;
    uint64_t sum = 0;
    for (size_t i = 0; i < x.ext.size(); ++i) {
      if (x.ext[i].units == 0) return "file " + std::to_string(f) + " has an empty extent";
      sum += x.ext[i].units;
      if (x.end[i] != sum) return "file " + std::to_string(f) + ": end offsets do not sum its extents";
      all.push_back({x.ext[i].start, x.ext[i].units, f});
    }
    owned += sum;
  }
  if (owned + alloc_.free_units() != alloc_.total_units())
    return "owned (reserved included) " + std::to_string(owned) + " + free " + std::to_string(alloc_.free_units()) + " units != space " +
           std::to_string(alloc_.total_units());
  std::sort(all.begin(), all.end(), [](const Owned& a, const Owned& b) { return a.start < b.start; });
  for (size_t i = 0; i < all.size(); ++i) {
    if (all[i].start + all[i].units > alloc_.total_units())
      return "extent " + std::to_string(all[i].start) + " beyond the space";
    if (i && all[i - 1].start + all[i - 1].units > all[i].start)
      return "unit " + std::to_string(all[i].start) + " owned twice (" +
             (all[i - 1].f ? "file " + std::to_string(all[i - 1].f) : std::string("free")) + " and " +
             (all[i].f ? "file " + std::to_string(all[i].f) : std::string("free")) + ")";
  }
  return "";
}

}  // namespace ssdtlm
