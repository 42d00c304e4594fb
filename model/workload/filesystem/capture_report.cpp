// CaptureWorkload's "capture" object of summary.json (workload.trace_format=capture): what the captured program did
// and what the file system sent for it, for the timed run.
#include <nlohmann/json.hpp>

#include "workload/filesystem/capture_replay.h"

namespace ssdtlm {

void CaptureWorkload::report(nlohmann::json& into) const {
  const CaptureCounters& c = c_;
  const UnissuedPcs lost = unissued_pcs();
  into["capture"] = {{"records", c.records},
                     {"processes", c.processes},
                     {"writes", c.writes},
                     {"write_bytes", c.write_bytes},
                     {"reads", c.reads},
                     {"read_bytes", c.read_bytes},
                     {"distinct_pcs", distinct_pcs()},
                     {"distinct_pcs_issued", distinct_pcs_issued()},
                     {"write_call_sites", reader_->version() >= 2 ? nlohmann::json(write_call_sites()) : nullptr},
                     {"write_call_sites_issued",
                      reader_->version() >= 2 ? nlohmann::json(write_call_sites_issued()) : nullptr},
                     {"pcs_not_issued",
                      {{"contexts", lost.contexts}, {"writes", lost.writes}, {"write_bytes", lost.write_bytes}}},
                     {"fsyncs", c.fsyncs},
                     {"sync_writes", c.sync_writes},
                     {"hints", c.hints},
                     {"direct_write_bytes", c.direct_write_bytes},
                     {"cache_read_bytes", c.cache_read_bytes},
                     {"unwritten_read_bytes", c.unwritten_read_bytes},
                     {"data_bytes", c.data_bytes},
                     {"data_read_bytes", c.data_read_bytes},
                     {"rmw_read_bytes", c.rmw_read_bytes},
                     {"flusher_bytes", c.flusher_bytes},
                     {"sync_bytes", c.sync_bytes},
                     {"journal_bytes", c.journal_bytes},
                     {"metadata_bytes", c.metadata_bytes},
                     {"trim_bytes", c.trim_bytes},
                     {"commits", c.commits},
                     {"checkpoints", c.checkpoints},
                     {"layout_files", c.layout_files},
                     {"layout_bytes", c.layout_bytes},
                     {"unseen",
                      {{"shared_writable_mmaps", c.unseen_mmap},
                       {"stdio_write_bytes", c.unseen_stdio_bytes},
                       {"growth_writes", c.growth_writes},
                       {"growth_bytes", c.growth_bytes},
                       {"unknown_fd_writes", c.unknown_fd_writes},
                       {"unknown_fd_bytes", c.unknown_fd_bytes},
                       {"io_uring_setups", c.unseen_io_uring},
                       {"aio_submits", c.unseen_aio}}},
                     {"file_layer_check", check()}};
}

}  // namespace ssdtlm
