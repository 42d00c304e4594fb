// The host's durability requests as fio makes them (fio's io_u.c get_rw_ddir, backend.c): an NVMe Flush after
// every `every` writes issued (fsync=N, fdatasync=N: on a block device both are blkdev_fsync, which sends a Flush),
// one more when the job's I/O is done (end_fsync, fsync_on_close: issued once nothing is in flight), and writes
// with Force Unit Access (sync=1 with direct=1: Linux's block-device direct I/O marks O_DSYNC writes REQ_FUA,
// block/fops.c; io_uring_cmd's writefua=1). A decorator over any workload: what the inner workload issues passes
// unchanged, the flushes are added between its requests.
#pragma once
#include <cstdint>
#include <memory>

#include "host/io_request.h"

namespace ssdtlm {

struct SyncParams {
  uint64_t every = 0;   // workload.fsync: a Flush after every N writes (0 = none)
  bool at_end = false;  // workload.fsync_end: a Flush when the job's I/O is done
  bool fua = false;     // workload.write_fua: every write with Force Unit Access
  bool any() const { return every > 0 || at_end || fua; }
};

class SyncWorkload : public Workload {
 public:
  SyncWorkload(std::unique_ptr<Workload> inner, const SyncParams& p);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return inner_->progress(); }
  bool has_setup() const override { return inner_->has_setup(); }
  uint64_t last_arrival_ns() const override { return inner_->last_arrival_ns(); }
  void report(nlohmann::json& into) const override { inner_->report(into); }
  uint64_t flushes() const { return flushes_; }
  const Workload& inner() const { return *inner_; }

 private:
  static void make_flush(IoRequest& r, bool quiesce);
  std::unique_ptr<Workload> inner_;
  SyncParams p_;
  uint64_t writes_ = 0;  // writes issued since the last flush
  uint64_t flushes_ = 0;
  bool done_ = false;    // the inner workload ran dry (and the end flush, if any, was issued)
};

}  // namespace ssdtlm
