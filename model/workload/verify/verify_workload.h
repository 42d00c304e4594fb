// fio's verify phase as I/O: a job that writes with verify reads back what it wrote, either at the end (fio's
// do_verify: after the job's writes, every written block once, in address order, each read as long as the write
// that last covered it) or every `backlog` writes (fio's verify_backlog: those writes, in the order written).
// The data is checked by the integrity checker (check.integrity), not here: this is what the drive sees.
// fio's verify_only (dry_run): the job's requests are logged, not sent, then read back at the end: what an earlier
// job or run wrote is checked without writing it again.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "host/io_request.h"

namespace ssdtlm {

struct VerifyParams {
  uint64_t backlog = 0;     // workload.verify_backlog: 0 = read back at the end; N = after every N writes
  uint64_t offset = 0;      // the job's region: first byte
  uint64_t range = 0;       //   and its length
  uint32_t unit = 4096;     // the job's smallest request: the bitmap's granule
  uint32_t max_bytes = 4096;  // the job's largest request: longest read-back
  // fio's verify_only (do_dry_run): none of the job's requests is sent, its writes are only logged (trims clear),
  // then the read-back at the end; read_back false (no verify): nothing is sent at all.
  bool dry_run = false;
  bool read_back = true;
};

class VerifyWorkload : public Workload {
 public:
  VerifyWorkload(std::unique_ptr<Workload> inner, const VerifyParams& p);

  bool next(IoRequest& r) override;
  WorkProgress progress() const override;
  void report(nlohmann::json& into) const override { inner_->report(into); }

  uint64_t verify_reads() const { return verify_reads_; }

 private:
  struct Extent {
    uint64_t offset;
    uint32_t bytes;
  };
  void record_write(const IoRequest& r);
  void clear(uint64_t offset, uint64_t bytes);  // a TRIM: nothing to read back there
  bool next_end_read(IoRequest& r);             // the end phase: the next written run from cursor_
  bool test(const std::vector<uint64_t>& bits, uint64_t i) const { return bits[i >> 6] >> (i & 63) & 1; }

  std::unique_ptr<Workload> inner_;
  VerifyParams p_;
  bool inner_dry_ = false;
  // End mode: written granules, and those where a write started (a read-back runs from a start to the next
  // start or the first granule not written).
  std::vector<uint64_t> written_, starts_;
  uint64_t granules_ = 0, cursor_ = 0;
  // Backlog mode: writes not yet read back, and how many of them to read now.
  std::deque<Extent> pending_;
  uint64_t draining_ = 0;
  uint64_t verify_reads_ = 0;
};

}  // namespace ssdtlm
