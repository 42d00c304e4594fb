// Builds the configured workload (workload.* keys).
#pragma once
#include <cstdint>
#include <memory>

#include "host/io_request.h"

namespace ssdtlm {

class Config;

// for_precondition: the same address pattern, writes only, endless, with its own seed.
std::unique_ptr<Workload> make_workload(const Config& c, uint64_t logical_bytes, bool for_precondition);

// Preconditioning writes for a run: the write patterns of every job, taken in turn.
std::unique_ptr<Workload> make_precondition_workload(const Config& c, uint64_t logical_bytes);

}  // namespace ssdtlm
