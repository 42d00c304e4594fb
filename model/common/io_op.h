// The kind of a host I/O, shared by the host's requests and the NVMe command the controller sees.
#pragma once
#include <cstdint>

namespace ssdtlm {

// Flush: NVMe Flush (NVM Command Set, opcode 00h): completes once every write completed before it is on non-volatile
// media (with a volatile write cache: the buffered units programmed; without one, at once). No data, no LBA range.
enum class IoOp : uint8_t { Read = 0, Write = 1, Trim = 2, Flush = 3 };

// A zoned namespace's Zone Management Send action (NVMe ZNS Command Set, Zone Send Action values), carried by a
// request of op Trim that names a whole zone: None = a plain trim (Dataset Management; on a zoned namespace, a
// trim of whole zones resets them). Offline (05h): a Read Only zone goes Offline, its data gone. SetExtension (10h): Set
// Zone Descriptor Extension, its data kept by the endpoint.
enum class ZoneAction : uint8_t { None = 0, Close = 1, Finish = 2, Open = 3, Reset = 4, Offline = 5, SetExtension = 0x10 };

}  // namespace ssdtlm
