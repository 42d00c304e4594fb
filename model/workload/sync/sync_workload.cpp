#include "workload/sync/sync_workload.h"

namespace ssdtlm {

SyncWorkload::SyncWorkload(std::unique_ptr<Workload> inner, const SyncParams& p) : inner_(std::move(inner)), p_(p) {
  set_pacing(inner_->pacing());
}

void SyncWorkload::make_flush(IoRequest& r, bool quiesce) {
  r = IoRequest();
  r.op = IoOp::Flush;
  r.quiesce = quiesce;
}

bool SyncWorkload::next(IoRequest& r) {
  if (done_) return false;
  // fio's get_rw_ddir: when the writes issued are a multiple of fsync_blocks and the last I/O was a write, the next
  // I/O is the sync (after the N-th write, before whatever comes next).
  if (p_.every > 0 && writes_ >= p_.every) {
    writes_ = 0;
    ++flushes_;
    make_flush(r, false);
    return true;
  }
  if (!inner_->next(r)) {
    done_ = true;
    if (!p_.at_end) return false;
    // backend.c: after the job's I/O has completed (io_u_quiesce), end_fsync / fsync_on_close sync the file.
    ++flushes_;
    make_flush(r, true);
    return true;
  }
  if (r.op == IoOp::Write) {
    ++writes_;
    r.fua = r.fua || p_.fua;
  }
  return true;
}

}  // namespace ssdtlm
