#include "workload/filesystem/ext4_layout.h"

#include <algorithm>
#include <stdexcept>

namespace ssdtlm {

namespace {
uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// e2fsprogs' ext2fs_default_journal_size for 4 KiB blocks (the journal's length in blocks).
uint64_t default_journal_blocks(uint64_t blocks) {
  if (blocks < 32768) return 1024;
  if (blocks < 256 * 1024) return 4096;
  if (blocks < 512 * 1024) return 8192;
  if (blocks < 4096 * 1024) return 16384;
  if (blocks < 8192 * 1024) return 32768;
  if (blocks < 16384 * 1024) return 65536;
  if (blocks < 32768 * 1024) return 131072;
  return 262144;
}

bool power_of(uint32_t g, uint32_t base) {
  while (g > 1 && g % base == 0) g /= base;
  return g == 1;
}
}  // namespace

bool Ext4Layout::has_super(uint32_t g) const {  // sparse_super: groups 0, 1 and the powers of 3, 5 and 7
  return g <= 1 || power_of(g, 3) || power_of(g, 5) || power_of(g, 7);
}

uint64_t Ext4Layout::flex_meta_start(uint32_t flex) const {
  const uint32_t g = flex * kFlexGroups;
  return uint64_t(g) * kBlocksPerGroup + (has_super(g) ? 1 + gdt_blocks + reserved_gdt_blocks : 0);
}

Ext4Layout::Ext4Layout(uint64_t namespace_bytes) {
  blocks = namespace_bytes / 4096;
  if (blocks < 4 * 4096)
    throw std::invalid_argument("workload.filesystem=ext4 needs a namespace of at least 64 MiB, got " +
                                std::to_string(namespace_bytes) + " bytes");
  groups = uint32_t(ceil_div(blocks, kBlocksPerGroup));
  const uint64_t inodes = std::min<uint64_t>(blocks * 4096 / kInodeRatio, uint64_t(kBlocksPerGroup) * 8 * groups);
  inodes_per_group = uint32_t(std::min<uint64_t>(ceil_div(ceil_div(inodes, groups), 16) * 16, kBlocksPerGroup));
  itable_blocks = uint32_t(ceil_div(uint64_t(inodes_per_group) * kInodeBytes, 4096));
  gdt_blocks = uint32_t(ceil_div(uint64_t(groups) * 64, 4096));  // 64-bit group descriptors
  const uint64_t max_groups = ceil_div(std::min<uint64_t>(blocks * 1024, 0xffffffffull), kBlocksPerGroup);
  reserved_gdt_blocks = uint32_t(std::min<uint64_t>(1024, ceil_div(max_groups, 64) - std::min<uint64_t>(ceil_div(max_groups, 64), gdt_blocks)));

  ExtentAllocator free(blocks);
  auto reserve = [&](uint64_t start, uint64_t n, std::vector<Extent>& region) {
    if (n == 0) return;
    if (start + n > blocks || !free.take_at(start, n)) {
      // take_at needs the start of a free extent: split a containing one by taking from its start first
      auto it = free.by_start().upper_bound(start);
      if (it == free.by_start().begin()) throw std::logic_error("ext4 layout: region not free");
      --it;
      const uint64_t s = it->first;
      if (s + it->second < start + n || !free.take_at(s, start + n - s)) throw std::logic_error("ext4 layout: region not free");
      if (start > s) free.release({s, start - s});
    }
    region.push_back({start, n});
  };
  for (uint32_t g = 0; g < groups; ++g)
    if (has_super(g)) reserve(uint64_t(g) * kBlocksPerGroup, 1 + gdt_blocks + reserved_gdt_blocks, superblocks);
  const uint32_t flexes = uint32_t(ceil_div(groups, kFlexGroups));
  std::vector<uint64_t> flex_end(flexes);
  for (uint32_t f = 0; f < flexes; ++f) {
    const uint32_t n = std::min(kFlexGroups, groups - f * kFlexGroups);
    const uint64_t at = flex_meta_start(f);
    reserve(at, 2 * n, bitmaps);  // n block bitmaps, then n inode bitmaps
    reserve(at + 2 * n, uint64_t(n) * itable_blocks, inode_tables);
    flex_end[f] = at + 2 * n + uint64_t(n) * itable_blocks;
  }
  // Group 0 after its flex metadata: the root directory's block, lost+found's 4 blocks (mke2fs creates them
  // before the journal), the data file's extent-tree leaves (as many as a file filling the free space needs).
  std::vector<Extent> misc;
  root_dir_block = flex_end[0];
  lost_found_start = root_dir_block + 1;
  reserve(root_dir_block, 5, misc);
  const uint64_t max_extents = free.free_units() / kMaxExtentBlocks + free.free_extents() + 1;
  const uint64_t leaves = max_extents > 4 ? ceil_div(max_extents, kExtentsPerLeaf) : 0;
  for (uint64_t i = 0; i < leaves; ++i) extent_leaves.push_back(lost_found_start + 4 + i);
  reserve(lost_found_start + 4, leaves, misc);
  // The journal: mke2fs puts it at the first free block of the middle group, rounded down to a flex start.
  journal_blocks = default_journal_blocks(blocks);
  uint32_t jg = uint32_t((blocks / 2) / kBlocksPerGroup);
  if (jg > kFlexGroups) jg &= ~(kFlexGroups - 1);
  journal_start = jg == 0 ? lost_found_start + 4 + leaves
                  : jg % kFlexGroups == 0
                      ? flex_end[jg / kFlexGroups]
                      : uint64_t(jg) * kBlocksPerGroup + (has_super(jg) ? 1 + gdt_blocks + reserved_gdt_blocks : 0);
  std::vector<Extent> journal;
  reserve(journal_start, journal_blocks, journal);
  // The data file: everything left, from the goal in group 0.
  free.set_fit(ExtentAllocator::Fit::Next);
  std::vector<Extent> got;
  while (free.free_units()) {
    got.clear();
    if (!free.take(kMaxExtentBlocks, got)) break;
    data_file.push_back(got[0]);
    data_file_end.push_back((data_file_end.empty() ? 0 : data_file_end.back()) + got[0].units);
  }
}

uint64_t Ext4Layout::data_inode_block() const {
  return inode_tables.at(0).start + uint64_t(kDataInode - 1) * kInodeBytes / 4096;
}

uint64_t Ext4Layout::block_bitmap_of(uint64_t lba_block) const {
  const uint32_t g = uint32_t(lba_block / kBlocksPerGroup);
  return flex_meta_start(g / kFlexGroups) + g % kFlexGroups;
}

uint64_t Ext4Layout::gdt_block_of(uint64_t lba_block) const {
  return 1 + uint64_t(lba_block / kBlocksPerGroup) * 64 / 4096;  // group 0's table, after the superblock
}

uint64_t Ext4Layout::file_block(uint64_t b) const {
  const size_t i = size_t(std::upper_bound(data_file_end.begin(), data_file_end.end(), b) - data_file_end.begin());
  if (i == data_file.size()) throw std::out_of_range("ext4: file block beyond the data file");
  const uint64_t first = i ? data_file_end[i - 1] : 0;
  return data_file[i].start + (b - first);
}

uint64_t Ext4Layout::run_from(uint64_t b) const {
  const size_t i = size_t(std::upper_bound(data_file_end.begin(), data_file_end.end(), b) - data_file_end.begin());
  return i == data_file.size() ? 0 : data_file_end[i] - b;
}

std::string Ext4Layout::check() const {
  std::vector<Extent> all;
  for (auto* r : {&superblocks, &bitmaps, &inode_tables, &data_file}) all.insert(all.end(), r->begin(), r->end());
  all.push_back({journal_start, journal_blocks});
  all.push_back({root_dir_block, 5});
  if (!extent_leaves.empty()) all.push_back({extent_leaves.front(), extent_leaves.size()});
  std::sort(all.begin(), all.end(), [](const Extent& a, const Extent& b) { return a.start < b.start; });
  uint64_t end = 0, sum = 0;
  for (const Extent& e : all) {
    if (e.start < end) return "overlap at block " + std::to_string(e.start);
    if (e.start + e.units > blocks) return "region beyond the file system at block " + std::to_string(e.start);
    end = e.start + e.units;
    sum += e.units;
  }
  if (sum != blocks) return "regions cover " + std::to_string(sum) + " of " + std::to_string(blocks) + " blocks";
  return "";
}

}  // namespace ssdtlm
