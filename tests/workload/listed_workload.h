// A workload that hands out a fixed list of requests, and a request in one line: for the decorators' tests
// (verify, the page cache).
#pragma once
#include <vector>

#include "host/io_request.h"

namespace ssdtlm::test {

class ListedWorkload : public Workload {
 public:
  explicit ListedWorkload(std::vector<IoRequest> requests) : requests_(std::move(requests)) {}
  bool next(IoRequest& r) override {
    if (next_ == requests_.size()) return false;
    r = requests_[next_++];
    return true;
  }

 private:
  std::vector<IoRequest> requests_;
  size_t next_ = 0;
};

inline IoRequest req(IoOp op, uint64_t offset, uint32_t bytes) {
  IoRequest r;
  r.op = op;
  r.offset = offset;
  r.bytes = bytes;
  return r;
}

}  // namespace ssdtlm::test
