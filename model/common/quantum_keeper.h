// The TLM-2.0 quantum keeper (tlm_utils::tlm_quantumkeeper, IEEE 1666-2011 §16.2) with its next synchronisation
// point read as integer picoseconds. A loosely-timed loop that takes its work up to the end of the quantum tests
// each item against that point: `beyond(t)` is exactly `set(t - now)` then `need_sync()` (sc_time_stamp() plus the
// local time at or past the sync point), without building an sc_time and reading the kernel's time per item.
#pragma once
#include <tlm_utils/tlm_quantumkeeper.h>

#include <cstdint>

namespace ssdtlm {

class QuantumKeeper : public tlm_utils::tlm_quantumkeeper {
 public:
  // Whether work at `t_ps` must wait for a synchronisation (lies at or past the sync point).
  bool beyond(uint64_t t_ps) const { return t_ps >= m_next_sync_point.value(); }
};

}  // namespace ssdtlm
