// The write buffer's own firmware cost (issue 25): how many steps of firmware work a buffer operation takes,
// charged at firmware.buffer_step_ns per step on the FTL's firmware cores (Ftl::buffer_work).
//
// The firmware keeps the buffered units in a search structure keyed by LPN (a balanced tree over the n
// units it holds: a lookup or an insert visits 1 + floor(log2(n + 1)) nodes), and the flush order in the
// policy's own structure (FlushPolicy::order_steps: FIFO's ring is one step; HEXA's group tree is
// 1 + floor(log2(G + 1)) for its G groups, per insert, per group choice). So a buffer that holds more units,
// or more groups, costs more per operation:
//  - a host write, per 4 KiB unit: an index lookup (is it buffered?) + an index insert and an order insert
//    (a new unit), or the lookup only (an absorbed overwrite);
//  - a host read, per unit: an index lookup;
//  - a flush, per unit taken: an order pop (the group choice) + an index update.
// Our WriteBuffer itself uses a hash index (O(1)); the steps are the cost model of the firmware, not of our
// C++ (which must stay fast whatever the modelled firmware does).
#pragma once
#include <cstdint>

namespace ssdtlm {

// 1 + floor(log2(n + 1)): the nodes a lookup visits in a balanced tree of n entries (1 for an empty one).
inline uint32_t tree_steps(uint64_t n) { return 1 + uint32_t(63 - __builtin_clzll(n + 1)); }  // O(1): per unit written

}  // namespace ssdtlm
