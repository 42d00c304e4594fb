// An Ext4-like on-disk layout over the namespace (workload.filesystem=ext4), as mke2fs 1.4x lays out a file
// system of this size with its defaults (4 KiB blocks, 32,768-block groups, flex_bg of 16, sparse_super,
// 256-byte inodes at one per 16 KiB, resize_inode, a journal in the middle flex group), and the placement of
// one data file by mballoc with delayed allocation (its blocks allocated in file order as long contiguous
// extents of at most 32,768 blocks, from the goal at the file's inode group, skipping metadata).
//
// Blocks are 4 KiB units of the namespace, numbered from 0. The layout is a pure function of the namespace
// size, and the data file's placement a pure function of the layout: block i of the file is at the same LBA
// whatever the file's length (a prefix property the jobs rely on: jobs with different areas of one file,
// fio's filename=, agree on where a block is).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "workload/apps/file_layer.h"

namespace ssdtlm {

struct Ext4Layout {
  static constexpr uint32_t kBlocksPerGroup = 32768, kFlexGroups = 16, kInodeBytes = 256;
  static constexpr uint32_t kInodeRatio = 16384;  // bytes per inode (mke2fs.conf default)
  static constexpr uint32_t kMaxExtentBlocks = 32768;  // an initialized extent's longest run
  static constexpr uint32_t kExtentsPerLeaf = 340;     // (4096 - 12) / 12
  static constexpr uint32_t kDataInode = 12;           // the first inode after the reserved ones and lost+found

  explicit Ext4Layout(uint64_t namespace_bytes);

  uint64_t blocks = 0;  // file-system blocks (whole 4 KiB units of the namespace)
  uint32_t groups = 0;
  uint32_t inodes_per_group = 0, itable_blocks = 0, gdt_blocks = 0, reserved_gdt_blocks = 0;
  uint64_t journal_start = 0, journal_blocks = 0;
  // Metadata written at mkfs (superblocks and their backups, group descriptor tables, bitmaps, inode tables
  // of the groups in use, the root directory, lost+found, the data file's extent tree), by region.
  std::vector<Extent> superblocks;     // superblock + GDT + reserved GDT, group 0 and its sparse backups
  std::vector<Extent> bitmaps;         // block and inode bitmaps, per flex group
  std::vector<Extent> inode_tables;    // per flex group
  uint64_t root_dir_block = 0, lost_found_start = 0;
  // The blocks of the data file and of its extent tree (leaf blocks; the root is in the inode).
  std::vector<Extent> data_file;       // in file order, each at most kMaxExtentBlocks
  std::vector<uint64_t> data_file_end;  // running file offsets (blocks) after each extent
  std::vector<uint64_t> extent_leaves;

  // The inode table block that holds the data file's inode; the block bitmap and group-descriptor block of
  // the group holding file block `b`.
  uint64_t data_inode_block() const;
  uint64_t block_bitmap_of(uint64_t lba_block) const;
  uint64_t gdt_block_of(uint64_t lba_block) const;
  // LBA block of file block b (b < data file length).
  uint64_t file_block(uint64_t b) const;
  // The rest of the file's contiguous run from file block b (blocks until the next extent boundary).
  uint64_t run_from(uint64_t b) const;
  uint64_t data_file_blocks() const { return data_file_end.empty() ? 0 : data_file_end.back(); }
  // "" or the first overlap or out-of-range region (tests).
  std::string check() const;

 private:
  bool has_super(uint32_t g) const;
  uint64_t flex_meta_start(uint32_t flex) const;
};

}  // namespace ssdtlm
