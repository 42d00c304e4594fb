// SyncWorkload (workload/sync/): fio's fsync=N puts a Flush after every N writes issued, end_fsync one after the
// last request (issued once nothing is in flight), write_fua marks the writes; reads and trims pass unchanged.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "workload/sync/sync_workload.h"

using namespace ssdtlm;

namespace {

// A fixed list of requests.
class ListWorkload : public Workload {
 public:
  explicit ListWorkload(std::vector<IoOp> ops) : ops_(std::move(ops)) {}
  bool next(IoRequest& r) override {
    if (i_ == ops_.size()) return false;
    r = IoRequest();
    r.op = ops_[i_];
    r.offset = 4096 * i_++;
    r.bytes = 4096;
    return true;
  }

 private:
  std::vector<IoOp> ops_;
  size_t i_ = 0;
};

std::vector<IoRequest> drain(Workload& w) {
  std::vector<IoRequest> out;
  for (IoRequest r; w.next(r);) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("sync workload: a Flush after every N writes, one at the end, FUA on writes", "[workload][sync]") {
  using O = IoOp;
  SyncParams p;
  p.every = 2;
  p.at_end = true;
  SyncWorkload w(std::make_unique<ListWorkload>(std::vector<IoOp>{O::Write, O::Read, O::Write, O::Write, O::Write}), p);
  const auto got = drain(w);
  std::vector<IoOp> ops;
  for (const auto& r : got) ops.push_back(r.op);
  // W R W F W W F (end) : the flush follows the 2nd and 4th writes (the reads do not count)
  CHECK(ops == std::vector<IoOp>{O::Write, O::Read, O::Write, O::Flush, O::Write, O::Write, O::Flush, O::Flush});
  CHECK(got.back().quiesce);      // the end flush waits for the I/O in flight
  CHECK_FALSE(got[3].quiesce);    // the periodic ones go in the queue as fio's io_u does
  CHECK(got[3].bytes == 0);
  CHECK(w.flushes() == 3);

  SyncParams fua;
  fua.fua = true;
  SyncWorkload f(std::make_unique<ListWorkload>(std::vector<IoOp>{O::Write, O::Read}), fua);
  const auto g = drain(f);
  REQUIRE(g.size() == 2);
  CHECK(g[0].fua);
  CHECK_FALSE(g[1].fua);
}
