#include "workload/verify/verify_workload.h"

#include <algorithm>

namespace ssdtlm {

VerifyWorkload::VerifyWorkload(std::unique_ptr<Workload> inner, const VerifyParams& p)
    : inner_(std::move(inner)), p_(p) {
  if (p_.unit == 0) p_.unit = 512;
  if (p_.backlog == 0) {
    granules_ = (p_.range + p_.unit - 1) / p_.unit;
    written_.assign((granules_ + 63) / 64, 0);
    starts_.assign((granules_ + 63) / 64, 0);
  }
}

void VerifyWorkload::record_write(const IoRequest& r) {
  if (p_.backlog) {
    pending_.push_back({r.offset, r.bytes});
    if (pending_.size() >= p_.backlog) draining_ = pending_.size();
    return;
  }
  if (r.offset < p_.offset) return;
  const uint64_t first = (r.offset - p_.offset) / p_.unit;
  const uint64_t last = std::min(granules_, (r.offset - p_.offset + r.bytes + p_.unit - 1) / p_.unit);
  if (first >= last) return;
  starts_[first >> 6] |= uint64_t(1) << (first & 63);
  for (uint64_t i = first; i < last; ++i) {
    written_[i >> 6] |= uint64_t(1) << (i & 63);
    if (i > first) starts_[i >> 6] &= ~(uint64_t(1) << (i & 63));  // a later write covers an earlier start
  }
  // What follows, if written, is the rest of an older write: its read-back starts there.
  if (last < granules_ && test(written_, last)) starts_[last >> 6] |= uint64_t(1) << (last & 63);
}

void VerifyWorkload::clear(uint64_t offset, uint64_t bytes) {
  if (p_.backlog) {  // a trimmed pending write has nothing to read back
    for (Extent& e : pending_)
      if (e.offset >= offset && e.offset + e.bytes <= offset + bytes) e.bytes = 0;
    return;
  }
  if (offset < p_.offset) return;
  const uint64_t first = (offset - p_.offset + p_.unit - 1) / p_.unit;
  const uint64_t last = std::min(granules_, (offset - p_.offset + bytes) / p_.unit);
  for (uint64_t i = first; i < last; ++i) {
    written_[i >> 6] &= ~(uint64_t(1) << (i & 63));
    starts_[i >> 6] &= ~(uint64_t(1) << (i & 63));
  }
  if (last < granules_ && test(written_, last)) starts_[last >> 6] |= uint64_t(1) << (last & 63);
}

bool VerifyWorkload::next_end_read(IoRequest& r) {
  // The next written granule: skip empty words whole.
  while (cursor_ < granules_) {
    const uint64_t word = written_[cursor_ >> 6] >> (cursor_ & 63);
    if (word) {
      cursor_ += uint64_t(__builtin_ctzll(word));
      break;
    }
    cursor_ = (cursor_ | 63) + 1;
  }
  if (cursor_ >= granules_) return false;
  const uint64_t max_granules = std::max<uint64_t>(1, p_.max_bytes / p_.unit);
  uint64_t end = cursor_ + 1;
  while (end < granules_ && end - cursor_ < max_granules && test(written_, end) && !test(starts_, end)) ++end;
  r = IoRequest();
  r.op = IoOp::Read;
  r.offset = p_.offset + cursor_ * p_.unit;
  r.bytes = uint32_t((end - cursor_) * p_.unit);
  cursor_ = end;
  return true;
}

bool VerifyWorkload::next(IoRequest& r) {
  if (draining_ > 0 || (inner_dry_ && !pending_.empty())) {
    while (!pending_.empty()) {
      const Extent e = pending_.front();
      pending_.pop_front();
      if (draining_) --draining_;
      if (e.bytes == 0) continue;
      r = IoRequest();
      r.op = IoOp::Read;
      r.offset = e.offset;
      r.bytes = e.bytes;
      ++verify_reads_;
      return true;
    }
    draining_ = 0;
  }
  while (!inner_dry_) {
    if (inner_->next(r)) {
      if (r.op == IoOp::Write)
        record_write(r);
      else if (r.op == IoOp::Trim)
        clear(r.offset, r.bytes);
      if (p_.dry_run) continue;  // fio's do_dry_run: completed without I/O
      return true;
    }
    inner_dry_ = true;
    if (!pending_.empty()) return next(r);
  }
  if (p_.backlog || !p_.read_back) return false;
  if (!next_end_read(r)) return false;
  ++verify_reads_;
  return true;
}

WorkProgress VerifyWorkload::progress() const {
  WorkProgress w = inner_->progress();
  if (inner_dry_ && w.total) w.done = w.total;  // the read-back phase: the job's own limit is reached
  return w;
}

}  // namespace ssdtlm
