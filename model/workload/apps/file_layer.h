// A small file layer over the logical space, in 4 KiB units: files are lists of extents taken from a
// free-extent allocator. The application models (workload/apps/) create, append to, overwrite and remove files;
// remove() hands back the freed extents, which the caller trims.
//
// Allocator: the free extents are kept twice, by start (to coalesce on free and to extend a file in place)
// and by (length, start) (best fit), so every allocation and free is O(log n) in the number of free extents.
// append(units) first extends the file's last extent in place when the units after it are free, then takes
// the smallest free extent that holds the rest (best fit, lowest address on ties), and only when no extent is
// large enough takes the largest ones in turn (the file fragments). A file's extents are kept in file order
// with their running end offsets, so mapping a file range to LBAs is a binary search.
// Running out of space throws FileLayerFull (a std::runtime_error) naming what was asked and what is free.
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/rng.h"

namespace ssdtlm {

struct Extent {
  uint64_t start = 0;  // first unit (4 KiB) of the logical space
  uint64_t units = 0;
  bool operator==(const Extent& o) const { return start == o.start && units == o.units; }
};

class FileLayerFull : public std::runtime_error {
 public:
  FileLayerFull(const std::string& what, uint64_t wanted, uint64_t free)
      : std::runtime_error(what), wanted_units(wanted), free_units(free) {}
  uint64_t wanted_units, free_units;
};

// Free space: extents by start and by (length, start).
class ExtentAllocator {
 public:
  explicit ExtentAllocator(uint64_t total_units);
  // Takes `units` (> 0) from the free extent that starts at `at`, if there is one that long; else returns false.
  bool take_at(uint64_t at, uint64_t units);
  // Takes [at, at + units) wherever it lies inside one free extent; else returns false.
  bool take_range(uint64_t at, uint64_t units);
  // Best fit for `units`, or the largest extent when none is large enough: appends one extent of at most
  // `units` to out and returns its length (0 when nothing is free).
  uint64_t take(uint64_t units, std::vector<Extent>& out);
  void release(Extent e);  // coalesces with its free neighbours
  // Where take() looks (without TRIM this decides which stale data the device keeps):
  //   Best   the smallest free extent that holds the request, lowest address on ties: freed space is reused at once;
  //   Next   the first free extent at or after where the last allocation ended, wrapping (ext4's rotating goal):
  //          freed space is reused only once the cursor comes round, in the order it was written;
  //   Spread the first free extent at or after a random goal (ext4's Orlov allocator spreading directories over
  //          block groups): freed space is reused in an order unrelated to when it was written.
  enum class Fit : uint8_t { Best, Next, Spread };
  void set_fit(Fit f, uint64_t seed = 1) {
    fit_ = f;
    rng_ = Rng(seed);
  }
  uint64_t free_units() const { return free_; }
  uint64_t total_units() const { return total_; }
  size_t free_extents() const { return by_start_.size(); }
  const std::map<uint64_t, uint64_t>& by_start() const { return by_start_; }
  // "" when the two indexes agree, the extents are coalesced, inside the space and sum to free_units().
  std::string check() const;

 private:
  void insert(uint64_t start, uint64_t units);
  void erase(std::map<uint64_t, uint64_t>::iterator it);
  uint64_t total_, free_;
  Fit fit_ = Fit::Best;
  uint64_t cursor_ = 0;
  Rng rng_{1};
  std::map<uint64_t, uint64_t> by_start_;             // start -> length
  std::set<std::pair<uint64_t, uint64_t>> by_size_;   // (length, start)
};

using FileId = uint32_t;  // 0 = no file

class FileLayer {
 public:
  explicit FileLayer(uint64_t total_units);

  FileId create();
  // Takes [e.start, e.start + e.units) out of the free space for good (a file system's metadata); false if not free.
  bool reserve(const Extent& e) {
    if (!alloc_.take_range(e.start, e.units)) return false;
    reserved_.push_back(e);
    reserved_units_ += e.units;
    return true;
  }
  // Grows the file by `units`; the new extents (file order) are appended to *added if given.
  void append(FileId f, uint64_t units, std::vector<Extent>* added = nullptr);
  // The LBA extents of file units [offset, offset + units), in file order (appended to out). The range must
  // lie inside the file.
  void map(FileId f, uint64_t offset, uint64_t units, std::vector<Extent>& out) const;
  // Deletes the file; returns its extents, now free.
  std::vector<Extent> remove(FileId f);

  bool exists(FileId f) const { return f < files_.size() && files_[f].live; }
  uint64_t size(FileId f) const;  // units
  const std::vector<Extent>& extents(FileId f) const;
  size_t files() const { return live_; }
  uint64_t free_units() const { return alloc_.free_units(); }
  uint64_t used_units() const { return alloc_.total_units() - alloc_.free_units(); }
  uint64_t total_units() const { return alloc_.total_units(); }
  const ExtentAllocator& allocator() const { return alloc_; }
  void set_fit(ExtentAllocator::Fit f, uint64_t seed = 1) { alloc_.set_fit(f, seed); }

  // Invariants, O(n log n): no unit owned by two files or by a file and the free list, every file's extents
  // inside the space and summing to its size, owned + free = the space. Returns "" or the first violation.
  std::string check() const;

 private:
  struct File {
    std::vector<Extent> ext;
    std::vector<uint64_t> end;  // end[i] = file offset just after ext[i]
    bool live = false;
  };
  const File& file(FileId f) const;
  File& file(FileId f);
  std::vector<File> files_;  // index = id; 0 unused
  std::vector<FileId> unused_ids_;
  size_t live_ = 0;
  std::vector<Extent> reserved_;
  uint64_t reserved_units_ = 0;
  ExtentAllocator alloc_;
};

}  // namespace ssdtlm
