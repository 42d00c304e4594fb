// The Ext4-like layer (workload/filesystem/): mke2fs's layout for a namespace, the data file's placement, the
// translation of a job's requests into the file, and the file system's own metadata and journal writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>

#include "workload/filesystem/ext4_layout.h"
#include "workload/filesystem/ext4_workload.h"
#include "workload/workload_factory.h"

using namespace ssdtlm;

namespace {
bool inside(const std::vector<Extent>& ext, uint64_t block) {
  for (const Extent& e : ext)
    if (block >= e.start && block < e.start + e.units) return true;
  return false;
}

WorkloadParams fio_job(uint64_t range, uint64_t ios, double reads = 0) {
  WorkloadParams w;
  w.pattern = "random";
  w.read_fraction = reads;
  w.address_range = range;
  w.io_count = ios;
  w.seed = 7;
  return w;
}
}  // namespace

TEST_CASE("ext4 layout: regions tile the file system without overlap, as mke2fs sizes them", "[filesystem]") {
  for (uint64_t bytes : {64ull << 20, 1ull << 30, 16ull << 30, 100ull << 30}) {
    INFO(bytes);
    const Ext4Layout l(bytes);
    CHECK(l.check() == "");
    CHECK(l.data_file_blocks() > l.blocks * 9 / 10);  // metadata and journal take a few per cent
    for (const Extent& e : l.data_file) CHECK(e.units <= Ext4Layout::kMaxExtentBlocks);
  }
  const Ext4Layout l(16ull << 30);  // seed 000's drive
  CHECK(l.groups == 128);
  CHECK(l.journal_blocks == 32768);  // 128 MiB
  CHECK(l.journal_start / Ext4Layout::kBlocksPerGroup == 64);  // the middle flex group
  CHECK(l.inodes_per_group == 8192);
  CHECK(l.itable_blocks == 512);
  CHECK(l.superblocks.size() == 11);  // sparse_super: groups 0, 1, 3, 5, 7, 9, 25, 27, 49, 81, 125
  // The file starts in group 0 after its metadata and runs in file order: block b+1 follows block b within
  // an extent, and no file block is metadata.
  CHECK(l.file_block(0) / Ext4Layout::kBlocksPerGroup == 0);
  for (uint64_t b = 0; b + 1 < l.data_file_blocks(); b += 997) {
    if (l.run_from(b) > 1) CHECK(l.file_block(b + 1) == l.file_block(b) + 1);
    CHECK_FALSE(inside(l.superblocks, l.file_block(b)));
    CHECK_FALSE(inside(l.inode_tables, l.file_block(b)));
    CHECK_FALSE(inside(l.bitmaps, l.file_block(b)));
    CHECK_FALSE((l.file_block(b) >= l.journal_start && l.file_block(b) < l.journal_start + l.journal_blocks));
  }
}

TEST_CASE("ext4 workload: data bytes as on the raw device, commits and checkpoints counted", "[filesystem]") {
  const uint64_t ns = 1ull << 30, range = 256ull << 20, ios = 20000;
  WorkloadParams raw = fio_job(range, ios, 0.3), fs = raw;
  fs.ext4 = true;
  fs.fs.commit_ios = 1000;
  fs.fs.checkpoint_commits = 3;
  auto a = make_workload(raw, ns, false), b = make_workload(fs, ns, false);
  IoRequest r;
  uint64_t raw_w = 0, raw_r = 0, n_raw = 0, writes = 0;
  while (a->next(r)) {
    ++n_raw;
    (r.op == IoOp::Write ? raw_w : raw_r) += r.bytes;
    writes += r.op == IoOp::Write;
  }
  const auto& w = dynamic_cast<Ext4Workload&>(*b);
  const Ext4Layout& l = w.layout();
  uint64_t all_w = 0, all_r = 0;
  std::set<uint64_t> meta_targets;
  while (b->next(r)) {
    const uint64_t blk = r.offset / 4096;
    (r.op == IoOp::Write ? all_w : all_r) += r.bytes;
    const bool journal = blk >= l.journal_start && blk < l.journal_start + l.journal_blocks;
    if (!journal && !inside(l.data_file, blk)) meta_targets.insert(blk);
  }
  const FsCounters& c = w.counters();
  CHECK(n_raw == ios);
  CHECK(c.data_bytes == raw_w);
  CHECK(c.data_read_bytes == raw_r);
  CHECK(all_r == raw_r);
  CHECK(all_w == c.data_bytes + c.metadata_bytes + c.journal_bytes);
  CHECK(c.commits == writes / 1000);
  CHECK(c.checkpoints == c.commits / 3);
  // A commit: descriptor + the inode block (8 KiB), then the commit block; a checkpoint: the inode block home
  // and the journal superblock.
  CHECK(c.journal_bytes == c.commits * 12288 + c.checkpoints * 4096);
  CHECK(c.metadata_bytes == c.checkpoints * 4096);
  CHECK(meta_targets == std::set<uint64_t>{l.data_inode_block()});
}

TEST_CASE("ext4 precondition: mkfs, the file laid out once in order, then the job's pattern", "[filesystem]") {
  const uint64_t ns = 1ull << 30, range = 64ull << 20;
  WorkloadParams p = fio_job(range, 0);
  p.ext4 = true;
  auto w = make_workload(p, ns, true);
  const auto& fs = dynamic_cast<Ext4Workload&>(*w);
  const Ext4Layout& l = fs.layout();
  IoRequest r;
  uint64_t next_file_block = 0, data = 0;
  bool journal_zeroed = false, laid_out = false;
  for (int i = 0; i < 200000 && !laid_out; ++i) {
    REQUIRE(w->next(r));
    CHECK(r.op == IoOp::Write);
    const uint64_t blk = r.offset / 4096;
    if (blk == l.journal_start && r.bytes == 1 << 20) journal_zeroed = true;
    if (inside(l.data_file, blk)) {
      CHECK(journal_zeroed);  // mkfs first
      CHECK(blk == l.file_block(next_file_block));  // the layout in file order
      next_file_block += r.bytes / 4096;
      data += r.bytes;
      laid_out = data == range;
    }
  }
  CHECK(laid_out);
  CHECK(fs.counters().metadata_bytes > 0);
  CHECK(fs.counters().journal_bytes >= l.journal_blocks * 4096);
}
