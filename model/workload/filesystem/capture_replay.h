// Replay of an ssdtlm-capture file (workload.trace_format=capture; docs/results/real_apps.md): the program's file calls go
// through a model of the kernel's file system onto the namespace, as Linux with ext4 (data=ordered, delalloc) would
// send them to the drive.
//
//  * Files: every path the capture names is a file of the FileLayer (workload/apps/file_layer.h) over the space
//    Ext4Layout leaves to data (its metadata, journal and group structures are reserved), allocated next-fit
//    (ext4's goal allocator) at writeback (delayed allocation) or at a direct write or fallocate. Files that
//    existed before the capture (opened with a size and not created by it) are the precondition's layout, after
//    age_fraction of the data space in long-lived files of age_file_bytes that the program never touches (an aged
//    file system, as seed 002 filled its drive before its benchmarks; 0 = none).
//  * Page cache (page_cache.h): buffered writes dirty pages; they reach the drive when the flusher runs (every
//    writeback_ns of capture time it writes the inodes dirty for longer than dirty_expire_ns, oldest first, and
//    above background_bytes the oldest ones), at fsync/fdatasync (the file's pages), sync_file_range(WRITE) (the
//    range), an O_SYNC/O_DSYNC write (its range), before an O_DIRECT read or write of the range, and at the end of
//    the capture (sync). A partial write of a page that is neither cached nor dirty but on the drive reads it first.
//    O_DIRECT writes bypass the cache. Reads of dirty or cached pages are served by the cache (clean pages stay
//    cached without limit; page_cache=dirty_only keeps none, so every read of written data reaches the drive).
//  * Journal (jbd2, ordered mode): a transaction collects the metadata blocks the calls dirty (the inode's block at
//    every write, create, truncate, unlink, rename; the directory block at create, unlink, rename; the block
//    bitmap and group descriptor blocks of allocated or freed extents); it commits every commit_ns of capture time,
//    at fsync, at fdatasync and O_DSYNC writes that changed the file's size or allocation, at every O_SYNC write:
//    descriptor + blocks at the journal head, then the commit block, after the data the transaction allocated has
//    been written (ordered). Every checkpoint_commits commits the journaled blocks are written home.
//  * Deletes: unlink (at the last close of an open file), rename over a file and truncation free extents; with
//    discard on they are trimmed (mount -o discard).
//  * Every data write carries the program context of its page's last writer (capture_pc_scope=page) or of its
//    file's last write call at writeback (capture_pc_scope=inode, where PCStream's kernel keeps it: Kim et al.,
//    HotStorage'18, section 3) (the capture's 64-bit signature folded to 32 bits, never 0),
//    its process (a replay number per process image) and lane (the lowest free one), and the write-life hint of
//    its file (fcntl F_SET_RW_HINT, 0..5) as its stream; metadata and journal writes carry none.
// Deterministic: a pure function of the capture and the parameters. Times of the requests are capture times (ns
// after the first record): open-loop replay issues them then.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/io_request.h"
#include "workload/apps/file_layer.h"
#include "workload/filesystem/ext4_layout.h"
#include "workload/filesystem/page_cache.h"
#include "workload/trace/capture_reader.h"

namespace ssdtlm {

struct CaptureParams {
  uint64_t dirty_expire_ns = 30000000000ull;  // workload.capture_dirty_expire_ms (vm.dirty_expire_centisecs 3000)
  uint64_t writeback_ns = 5000000000ull;      // workload.capture_writeback_ms (vm.dirty_writeback_centisecs 500)
  uint64_t commit_ns = 5000000000ull;         // workload.capture_commit_ms (ext4 commit=5)
  uint64_t background_bytes = 0;              // workload.capture_dirty_background_bytes (0 = no limit)
  uint64_t max_io_bytes = 512 << 10;          // workload.capture_max_io_bytes (the block layer's max_sectors_kb)
  bool clean_cache = true;                    // workload.capture_page_cache: unbounded (true) or dirty_only
  bool discard = true;                        // workload.capture_discard
  bool pc_per_inode = false;                  // workload.capture_pc_scope=inode: a written-back page carries the
                                              //   context of its file's last write, not of its own last writer
  double age_fraction = 0;                    // workload.capture_age_fraction: share of the data space in aged files
  uint64_t age_file_bytes = 1 << 20;          //   of this size (workload.app.age_file_bytes)
  uint32_t checkpoint_commits = 6;            // workload.fs_checkpoint_commits
};

struct CaptureCounters {
  uint64_t records = 0, processes = 0;
  uint64_t writes = 0, write_bytes = 0, reads = 0, read_bytes = 0;  // the program's calls
  uint64_t cache_read_bytes = 0, unwritten_read_bytes = 0;          // reads served by the cache; of never-written data
  uint64_t direct_write_bytes = 0, sync_writes = 0, fsyncs = 0, hints = 0;
  uint64_t data_bytes = 0, data_read_bytes = 0, rmw_read_bytes = 0;  // requests sent
  uint64_t flusher_bytes = 0, sync_bytes = 0;                        // data written back by the flusher / by syncs
  uint64_t journal_bytes = 0, metadata_bytes = 0, trim_bytes = 0, commits = 0, checkpoints = 0;
  uint64_t unseen_mmap = 0, unseen_stdio_bytes = 0, unseen_io_uring = 0, unseen_aio = 0;
  uint64_t growth_writes = 0, growth_bytes = 0;  // (version 2) a file's growth no recorded write explained
  uint64_t unknown_fd_writes = 0, unknown_fd_bytes = 0;  // on a descriptor whose open the capture did not record
  uint64_t layout_files = 0, layout_bytes = 0;
};

class CaptureWorkload : public Workload {
 public:
  // Reads the capture once to find the files that existed before it (TraceError for a bad file; FileLayerFull when
  // the files do not fit). layout_only: the precondition, which writes those files and ends.
  CaptureWorkload(const std::string& path, uint64_t logical_bytes, const CaptureParams& p, bool layout_only);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return {c_.records, total_records_, "capture records"}; }
  uint64_t last_arrival_ns() const override { return last_time_; }
  bool precondition_trims() const override { return true; }
  void report(nlohmann::json& into) const override;  // "capture" (capture_report.cpp)

  const CaptureCounters& counters() const { return c_; }
  size_t distinct_pcs() const { return pcs_.size(); }            // program writes' signatures (64-bit)
  size_t distinct_pcs_issued() const { return pcs_issued_.size(); }  // ... as carried by the drive's writes (32-bit)
  size_t write_call_sites() const { return call_sites_.size(); }     // where the program called its writes (32-bit)
  size_t write_call_sites_issued() const;                            // ... of the contexts the drive's writes carried
  // The program's contexts that no drive write carried (a page carries its last writer's context, so a context
  // whose pages were always rewritten by another one before writeback, or whose data never left the cache, is
  // absent), and the write calls and bytes the program made through them.
  struct UnissuedPcs {
    uint64_t contexts = 0, writes = 0, write_bytes = 0;
  };
  UnissuedPcs unissued_pcs() const;
  const FileLayer& files() const { return fs_; }
  std::string check() const { return fs_.check(); }

 private:
  enum class Sent : uint8_t { Data, Journal, Meta, Layout };
  struct File {
    std::string path;
    FileId id = 0;
    uint32_t ino = 0;
    uint64_t size = 0;
    uint16_t hint = 0;
    uint32_t open_fds = 0;
    bool unlinked = false, alloc_changed = false;
    PageOrigin last_write;      // the origin of the file's latest write call (capture_pc_scope=inode)
    std::vector<uint8_t> page;  // per page: kOnDrive | kCached
  };
  struct Fd {
    uint32_t file = 0;
    uint32_t flags = 0;
  };
  struct Proc {
    uint32_t id = 0;
    uint16_t slot = 0;
  };
  static constexpr uint8_t kOnDrive = 1, kCached = 2;

  // capture_replay.cpp: the calls
  void find_existing_files(const std::string& path);
  bool step();
  void dispatch(const CaptureEvent& e);
  void process_start(const CaptureEvent& e);
  void process_exit(uint32_t pid);
  void open(const CaptureEvent& e);
  void close(uint32_t pid, int32_t fd);
  void unlink(const std::string& path);
  void rename(const std::string& from, const std::string& to);
  void truncate(uint32_t f, uint64_t size);
  void destroy(uint32_t f);
  uint32_t new_file(const std::string& path);
  File* file_of(const capture::CaptureRecord& r, uint32_t* flags = nullptr);
  void unseen(const CaptureEvent& e);
  // capture_writeback.cpp: the data path, writeback and the journal
  void read(File& f, uint32_t flags, uint64_t off, uint64_t bytes);
  void write(File& f, uint32_t flags, const capture::CaptureRecord& r);
  void fallocate(File& f, const capture::CaptureRecord& r);
  void write_back(std::vector<DirtyPage>& pages, bool sync);
  void allocate(File& f, uint64_t units);
  void drive_read(File& f, uint64_t first, uint64_t n, bool rmw);
  void trim_pages(File& f, uint64_t first, uint64_t n);
  void run_timers(uint64_t until);
  void commit();
  void checkpoint();
  void dirty_meta(uint64_t block) { txn_.insert(block); }
  void push(IoOp op, uint64_t unit, uint64_t units, Sent kind, const PageOrigin* o = nullptr, uint16_t hint = 0);
  void finish();
  uint64_t inode_block(const File& f) const;

  CaptureParams p_;
  bool layout_only_;
  std::string path_;
  std::unique_ptr<CaptureReader> reader_;
  Ext4Layout layout_;
  FileLayer fs_;
  PageCache cache_;
  std::vector<File> files_;  // index 0 unused
  std::unordered_map<std::string, uint32_t> by_path_;
  std::unordered_map<uint32_t, std::unordered_map<int32_t, Fd>> fds_;  // pid -> descriptor -> file
  std::unordered_map<uint32_t, Proc> procs_;
  std::set<uint16_t> free_slots_;
  uint16_t slots_ = 0;
  uint32_t next_proc_ = 0, next_ino_ = Ext4Layout::kDataInode;
  std::vector<uint32_t> layout_files_;
  size_t layout_next_ = 0;
  std::set<uint64_t> txn_, home_;  // metadata blocks of the running transaction; journaled, not yet home
  uint32_t commits_since_checkpoint_ = 0;
  uint64_t journal_head_ = 1;
  struct PcWrites {
    uint64_t writes = 0, bytes = 0;
    uint32_t call_site = 0;  // a context's first return address is its call site (0: version 1)
  };
  std::unordered_map<uint64_t, PcWrites> pcs_;  // the program's write contexts: its calls through each
  std::set<uint32_t> pcs_issued_;
  std::set<uint32_t> call_sites_;  // the data writes' call sites (capture version 2; none in version 1)
  std::deque<IoRequest> out_;
  std::vector<Extent> scratch_;
  uint64_t t0_ = 0, now_ = 0, last_time_ = 0, next_flush_ = 0, next_commit_ = 0, total_records_ = 0;
  bool have_t0_ = false, finished_ = false;
  CaptureCounters c_;
};

}  // namespace ssdtlm
