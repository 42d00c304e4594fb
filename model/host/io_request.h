// One host I/O request as produced by a workload generator or a trace reader.
#pragma once
#include <cstdint>

#include "common/io_op.h"

namespace ssdtlm {

struct IoRequest {
  IoOp op = IoOp::Read;
  uint64_t offset = 0;   // bytes from the start of the namespace
  uint32_t bytes = 0;    // transfer length in bytes (> 0)
  uint64_t time_ns = 0;  // arrival time for open-loop trace replay; 0 for synthetic workloads
  uint16_t stream = 0;   // host stream hint (0 = none)
  uint32_t pc = 0;       // program-context id (0 = none)
};

// A source of requests. Plain C++, no SystemC: the host module asks it what to issue next.
class Workload {
 public:
  virtual ~Workload() = default;
  // Fills r with the next request; returns false when the workload is exhausted.
  virtual bool next(IoRequest& r) = 0;
};

}  // namespace ssdtlm
