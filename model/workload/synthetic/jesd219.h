// JEDEC JESD219 enterprise endurance workload, as data for SyntheticWorkload.
//
//   Transfer sizes by count: 512 B 4%; 1, 1.5, 2, 2.5, 3, 3.5 KiB 1% each; 4 KiB 67%;
//   8 KiB 10%; 16 KiB 7%; 32 KiB 3%; 64 KiB 3%  (mean 7,818.24 B).
//   Alignment: transfers >= 4 KiB are 4 KiB aligned, shorter ones 512 B aligned.
//   Address zones: 50% of accesses to the first 5% of the LBAs, 30% to the next 15%,
//   20% to the remaining 80%, uniform inside each zone.
//   Read fraction: a parameter (fio's examples/jesd219.fio uses rwmixread=40).
// fio's example aligns every transfer to 4 KiB (blockalign=4k) and runs with norandommap; we
// keep the 512 B alignment of the short transfers that the standard asks for (small_align) and
// likewise run without a random map.
#pragma once
#include <cstdint>

#include "workload/synthetic/size_mix.h"
#include "workload/synthetic/synthetic_workload.h"

namespace ssdtlm {
namespace jesd219 {

inline constexpr char kBssplit[] =
    "512/4:1k/1:1536/1:2k/1:2560/1:3k/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3";
inline constexpr char kZoned[] = "zoned:50/5:30/15:20/80";
inline constexpr uint32_t kLargeAlign = 4096;  // transfers >= 4 KiB
inline constexpr uint32_t kSmallAlign = 512;   // shorter transfers
inline constexpr double kFioReadFraction = 0.40;
inline constexpr double kMeanTransferBytes = 7818.24;

// The transfer-size mix (parsed kBssplit).
SizeMix size_mix();

// A random-pattern spec over [range_offset, range_offset + range_bytes) with the JESD219 sizes,
// alignment and zones. range_offset must be 4 KiB aligned; range_bytes >= 64 KiB.
SyntheticSpec make_spec(uint64_t range_bytes, double read_fraction = kFioReadFraction,
                        uint64_t seed = 1, uint64_t io_count = 0, uint64_t range_offset = 0);

}  // namespace jesd219
}  // namespace ssdtlm
