// workload.filesystem=ext4: a job's requests go to a file on an Ext4-like file system (ext4_layout.h) instead
// of the raw namespace, with the file system's own writes: fio on a mounted file system, as seed 000 ran it.
//
// The job's address space is the data file's (fio's filename=: jobs with the same area share the file): a
// request at byte o of the area reaches file byte o, at the LBA the file's extents give (split where an
// extent ends). Reads and trims are only translated (noatime-like: a read dirties no metadata).
//
// What the file system adds, in the order a kernel issues it:
//  - precondition (mkfs, then fio laying out the file): the superblocks and group descriptor tables, the
//    bitmaps of every flex group, the inode-table block holding the file's inode, the root directory and
//    lost+found, the zeroed journal (mke2fs without lazy_journal_init); then the job's area of the file written
//    sequentially in 1 MiB requests (delayed allocation: the blocks were allocated contiguously, extent by
//    extent), and one journal transaction for the allocation (block bitmaps and group descriptors of the groups
//    it touched, the inode, the extent leaves) followed by its checkpoint; then the job's own pattern.
//  - timed run, direct-I/O overwrites of allocated blocks: every write dirties the file's inode (mtime/ctime).
//    jbd2 commits a transaction every `commit_ios` writes of the job (ext4's 5 s commit timer expressed in the
//    job's writes, since a workload may not depend on simulated time; fio's fsync=N gives the same): a
//    descriptor block and the journaled inode-table block (one 8 KiB write at the journal head), then the commit
//    block (4 KiB). Every `checkpoint_commits` commits the journaled block is written home (the inode-table
//    block) and the journal superblock is updated (its tail moves).
// The journal is circular over its blocks after the journal superblock. Each job keeps its own journal head
// (jobs may not see each other's state), so jobs that share a file each journal their own inode updates.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "host/io_request.h"
#include "workload/filesystem/ext4_layout.h"

namespace ssdtlm {

struct FsParams {
  uint64_t commit_ios = 250000;     // workload.fs_commit_ios
  uint32_t checkpoint_commits = 6;  // workload.fs_checkpoint_commits
};

// Bytes the file system sent, by kind (requests handed to the host; the summary's `filesystem` section).
struct FsCounters {
  uint64_t data_bytes = 0, data_read_bytes = 0, metadata_bytes = 0, journal_bytes = 0;
  uint64_t commits = 0, checkpoints = 0, split_requests = 0;
};

class Ext4Workload : public Workload {
 public:
  // inner: the job's own pattern over [area_offset, area_offset + area_bytes) of the namespace, which is
  // taken as file bytes. Throws std::invalid_argument when the area does not fit in the data file.
  Ext4Workload(std::unique_ptr<Workload> inner, std::shared_ptr<const Ext4Layout> layout, const FsParams& p,
               uint64_t area_offset, uint64_t area_bytes, bool precondition);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return inner_->progress(); }
  uint64_t last_arrival_ns() const override { return inner_->last_arrival_ns(); }
  void report(nlohmann::json& into) const override;  // "filesystem": its FsCounters (and the inner's objects)

  const FsCounters& counters() const { return c_; }
  const Ext4Layout& layout() const { return *layout_; }

 private:
  enum Kind : uint8_t { Data, Meta, Journal };
  void push(IoOp op, uint64_t block, uint64_t blocks, Kind k, const IoRequest* like = nullptr);
  void translate(const IoRequest& r);
  void format_and_lay_out();
  void journal(uint64_t blocks_logged);  // a transaction of blocks_logged metadata blocks
  void checkpoint(const std::vector<uint64_t>& home);

  std::unique_ptr<Workload> inner_;
  std::shared_ptr<const Ext4Layout> layout_;
  FsParams p_;
  uint64_t area_offset_, area_bytes_;
  bool precondition_;
  struct Out {
    IoRequest r;
    Kind kind;
  };
  std::deque<Out> out_;
  FsCounters c_;
  uint64_t writes_since_commit_ = 0, commits_since_checkpoint_ = 0, journal_head_ = 1;
};

}  // namespace ssdtlm
