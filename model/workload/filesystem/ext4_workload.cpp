#include "workload/filesystem/ext4_workload.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace ssdtlm {

namespace {
constexpr uint64_t kBlock = 4096;
constexpr uint64_t kLayoutIoBlocks = 256;  // 1 MiB requests for mkfs and the file's layout
}  // namespace

Ext4Workload::Ext4Workload(std::unique_ptr<Workload> inner, std::shared_ptr<const Ext4Layout> layout,
                           const FsParams& p, uint64_t area_offset, uint64_t area_bytes, bool precondition)
    : inner_(std::move(inner)),
      layout_(std::move(layout)),
      p_(p),
      area_offset_(area_offset),
      area_bytes_(area_bytes),
      precondition_(precondition) {
  const uint64_t file_bytes = layout_->data_file_blocks() * kBlock;
  if (area_offset_ + area_bytes_ > file_bytes)
    throw std::invalid_argument("the job's area ends at byte " + std::to_string(area_offset_ + area_bytes_) +
                                " but the ext4 data file can hold " + std::to_string(file_bytes) +
                                " bytes (the namespace less the file system's metadata and journal)");
  set_pacing(inner_->pacing());
  if (precondition_) format_and_lay_out();
}

void Ext4Workload::push(IoOp op, uint64_t block, uint64_t blocks, Kind k, const IoRequest* like) {
  while (blocks) {
    const uint64_t n = std::min(blocks, kLayoutIoBlocks);
    IoRequest r = like ? *like : IoRequest();
    r.op = op;
    r.offset = block * kBlock;
    r.bytes = uint32_t(n * kBlock);
    out_.push_back({r, k});
    block += n;
    blocks -= n;
  }
}

void Ext4Workload::format_and_lay_out() {
  const Ext4Layout& l = *layout_;
  // mkfs: superblocks and descriptor tables, bitmaps, the inode-table block of the file's inode, the root
  // directory and lost+found, the extent leaves, the zeroed journal.
  for (const Extent& e : l.superblocks) push(IoOp::Write, e.start, e.units, Meta);
  for (const Extent& e : l.bitmaps) push(IoOp::Write, e.start, e.units, Meta);
  push(IoOp::Write, l.data_inode_block(), 1, Meta);
  push(IoOp::Write, l.root_dir_block, 5, Meta);
  for (uint64_t b : l.extent_leaves) push(IoOp::Write, b, 1, Meta);
  push(IoOp::Write, l.journal_start, l.journal_blocks, Journal);
  // fio lays out the job's area of the file (delayed allocation: contiguous extents, written in file order).
  const uint64_t first = area_offset_ / kBlock, last = (area_offset_ + area_bytes_ + kBlock - 1) / kBlock;
  std::set<uint64_t> home = {l.data_inode_block()};
  for (uint64_t b = first; b < last;) {
    const uint64_t n = std::min(l.run_from(b), last - b), lba = l.file_block(b);
    push(IoOp::Write, lba, n, Data);
    for (uint64_t g = lba / Ext4Layout::kBlocksPerGroup; g <= (lba + n - 1) / Ext4Layout::kBlocksPerGroup; ++g) {
      home.insert(l.block_bitmap_of(g * Ext4Layout::kBlocksPerGroup));
      home.insert(l.gdt_block_of(g * Ext4Layout::kBlocksPerGroup));
    }
    b += n;
  }
  for (uint64_t b : l.extent_leaves) home.insert(b);
  // One transaction logs the allocation's metadata, then it is checkpointed home.
  journal(home.size());
  checkpoint(std::vector<uint64_t>(home.begin(), home.end()));
}

void Ext4Workload::journal(uint64_t blocks_logged) {
  const Ext4Layout& l = *layout_;
  const uint64_t ring = l.journal_blocks - 1;  // block 0 of the journal is its superblock
  // The descriptor and the logged blocks (contiguous up to the journal's end), then the commit block.
  uint64_t left = 1 + blocks_logged;
  while (left) {
    const uint64_t n = std::min(left, ring + 1 - journal_head_);
    push(IoOp::Write, l.journal_start + journal_head_, n, Journal);
    journal_head_ = journal_head_ + n > ring ? 1 : journal_head_ + n;
    left -= n;
  }
  push(IoOp::Write, l.journal_start + journal_head_, 1, Journal);
  journal_head_ = journal_head_ + 1 > ring ? 1 : journal_head_ + 1;
  ++c_.commits;
}

void Ext4Workload::checkpoint(const std::vector<uint64_t>& home) {
  for (uint64_t b : home) push(IoOp::Write, b, 1, Meta);
  push(IoOp::Write, layout_->journal_start, 1, Journal);  // the journal superblock: its tail moves
  ++c_.checkpoints;
}

void Ext4Workload::translate(const IoRequest& r) {
  const Ext4Layout& l = *layout_;
  uint64_t off = r.offset, left = r.bytes;
  bool first = true;
  while (left) {
    const uint64_t b = off / kBlock, in = off % kBlock;
    const uint64_t n = std::min<uint64_t>(left, l.run_from(b) * kBlock - in);
    IoRequest piece = r;
    piece.offset = l.file_block(b) * kBlock + in;
    piece.bytes = uint32_t(n);
    out_.push_back({piece, Data});
    if (!first) ++c_.split_requests;
    first = false;
    off += n;
    left -= n;
  }
}

bool Ext4Workload::next(IoRequest& r) {
  while (out_.empty()) {
    IoRequest in;
    if (!inner_->next(in)) return false;
    translate(in);
    if (in.op == IoOp::Write && !precondition_ && p_.commit_ios && ++writes_since_commit_ >= p_.commit_ios) {
      writes_since_commit_ = 0;
      journal(1);  // the file's inode-table block, dirtied by every write (mtime, ctime)
      if (p_.checkpoint_commits && ++commits_since_checkpoint_ >= p_.checkpoint_commits) {
        commits_since_checkpoint_ = 0;
        checkpoint({layout_->data_inode_block()});
      }
    }
  }
  const Out o = out_.front();
  out_.pop_front();
  r = o.r;
  if (o.kind == Data) {
    if (r.op == IoOp::Write) c_.data_bytes += r.bytes;
    else if (r.op == IoOp::Read) c_.data_read_bytes += r.bytes;
  } else if (o.kind == Meta) c_.metadata_bytes += r.bytes;
  else c_.journal_bytes += r.bytes;
  return true;
}

void Ext4Workload::report(nlohmann::json& into) const {
  inner_->report(into);
  into["filesystem"] = {{"data_bytes", c_.data_bytes},         {"data_read_bytes", c_.data_read_bytes},
                        {"metadata_bytes", c_.metadata_bytes}, {"journal_bytes", c_.journal_bytes},
                        {"commits", c_.commits},               {"checkpoints", c_.checkpoints},
                        {"split_requests", c_.split_requests}};
}

}  // namespace ssdtlm
