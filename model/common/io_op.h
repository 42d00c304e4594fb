// The kind of a host I/O, shared by the host's requests and the NVMe command the controller sees.
#pragma once
#include <cstdint>

namespace ssdtlm {

enum class IoOp : uint8_t { Read = 0, Write = 1, Trim = 2 };

}  // namespace ssdtlm
