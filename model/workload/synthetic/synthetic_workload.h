// fio-like synthetic request generator.
//
// Offsets: "sequential" issues consecutive transfers from the start of the range and wraps to
// the start when the next one would cross its end (no alignment is applied, as in fio's
// sequential mode). sequential_skip adds a gap after each; a negative one steps back from the
// end of each I/O, and one that would go below the start continues at the end of the range plus
// the skip (fio's get_next_seq_offset): rw=read:-8k with 4 KiB reads offsets 0, end - 8k, end - 12k, ... "random" draws a unit index from the address distribution over the range,
// where a unit is the finest alignment in use (block_align, or small_align when some transfer is
// shorter than block_align), then rounds the offset down to the alignment of the drawn transfer
// size and, if the transfer would cross the end of the range, moves it back to the last aligned
// position where it fits.
// Strided zones (fio zonemode=strided): with zone_range > 0 the offsets above are drawn inside one zone
// of zone_range bytes at a time; after zone_size bytes (default zone_range) the next zone starts
// zone_range + zone_skip bytes further on, wrapping to the start of the range when a whole zone no longer
// fits (fio also uses a last partial zone; we skip it). The random map starts afresh in every zone.
// percentage_random (fio's): where a random offset is due (every I/O, or every random_run-th), it is random
// with that probability (per direction, drawn from a fourth stream), else sequential from where the direction's
// last I/O ended, as fio's get_next_seq_offset; a sequential one that would cross the end of the range (or
// zone) is drawn at random instead. random_run's I/Os between go on from their direction's last I/O too (fio's
// last_pos[ddir]).
// Operations: each request is a trim with probability trim_fraction, a read with probability
// read_fraction, a write otherwise. Sizes: bssplit (by count) or block_bytes.
// Addresses, sizes and operations come from three Rng streams derived from `seed`, so changing
// e.g. the read fraction does not change the address sequence. time_ns is 0 (closed loop).
// Stream hint: every request carries `stream`, or with zone_streams (a zoned distribution) the number of
// the zone its offset was drawn from, plus one (the NVMe stream id of workload.stream_hint=zone).
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "common/rng.h"
#include "workload/synthetic/address_distribution.h"
#include "host/io_request.h"
#include "workload/synthetic/size_mix.h"

namespace ssdtlm {

struct SyntheticSpec {
  std::string pattern = "random";      // "random" | "sequential"
  double read_fraction = 0.0;          // share of requests that read, 0..1
  std::string distribution = "random"; // fio random_distribution spelling; random pattern only
  bool random_map = true;              // random/zoned: each unit once per pass (fio default)
  bool scatter = true;                 // zipf/pareto/normal: spread hot ranks over the range
  std::string bssplit;                 // fio bssplit; empty = every transfer is block_bytes
  uint32_t block_bytes = 4096;         // transfer size when bssplit is empty
  uint32_t block_align = 0;            // offset alignment; 0 = block size (the smallest size)
  uint64_t range_offset = 0;           // first byte of the addressed range
  uint64_t range_bytes = 0;            // length of the addressed range (> 0)
  uint64_t io_count = 0;               // requests to generate; 0 = unlimited
  uint64_t io_bytes = 0;               // stop once this many bytes were generated; 0 = unlimited
  uint64_t zone_range = 0;             // strided zones: zone length (0 = none)
  uint64_t zone_size = 0;              // bytes per zone visit (0 = zone_range)
  uint64_t zone_skip = 0;              // gap after a zone
  uint32_t random_run = 1;             // random: a new random offset every N I/Os, sequential in between (fio rw=rand*:N)
  bool random_run_repeat = false;      //   the N - 1 between repeat the random offset instead (fio rw_sequencer=identical)
  int64_t sequential_skip = 0;         // sequential: a hole of this many bytes after each I/O (fio rw=write:SIZE);
                                       //   negative: back from each I/O's end (fio rw=read:-8k, ddir_seq_add < 0)
  // random: the share (%) of the random offsets, per direction (read, write, trim), that are random; the others
  // go on from where the last I/O of that direction ended (fio percentage_random, io_u.c should_do_random).
  std::array<uint8_t, 3> percentage_random = {100, 100, 100};
  double trim_fraction = 0.0;          // share of requests that trim, 0..1 (read + trim <= 1)
  uint16_t stream = 0;                 // copied into every request
  bool zone_streams = false;           // zoned distribution: a request from zone i carries stream i + 1
  uint64_t seed = 1;
  // Extension for JESD219: transfers shorter than block_align are aligned to small_align
  // instead (0 = every transfer aligned to block_align). Must divide the effective block_align.
  uint32_t small_align = 0;
};

class SyntheticWorkload : public Workload {
 public:
  // Validates the spec; throws std::invalid_argument naming the offending field.
  explicit SyntheticWorkload(const SyntheticSpec& spec);

  bool next(IoRequest& r) override;
  WorkProgress progress() const override;

  const SyntheticSpec& spec() const { return spec_; }
  uint64_t issued() const { return issued_; }
  uint64_t issued_bytes() const { return issued_bytes_; }
  const SizeMix& sizes() const { return sizes_; }
  const BlockAlign& alignment() const { return align_; }
  uint64_t unit_bytes() const { return unit_; }  // granule of the random address distribution

 private:
  uint64_t next_offset(uint32_t bytes, int dir);
  void make_dist();
  void next_zone();

  SyntheticSpec spec_;
  SizeMix sizes_;
  BlockAlign align_;
  uint64_t unit_ = 0;
  std::unique_ptr<AddressDistribution> dist_;  // random pattern only
  Rng addr_rng_, size_rng_, op_rng_, seq_rand_rng_;
  uint64_t cursor_ = 0;  // sequential: next offset relative to the zone (or range) start
  uint64_t run_off_[3] = {}, run_end_[3] = {};  // random: per direction, the last offset and where it ended
                                                //   (relative, as cursor_; fio's last_start/last_pos)
  uint32_t run_left_ = 0;               //   I/Os before the next random offset
  uint64_t issued_ = 0, issued_bytes_ = 0;
  uint64_t span_ = 0;        // bytes the offsets are drawn from: zone_range, or range_bytes
  uint64_t zone_start_ = 0;  // relative to range_offset
  uint64_t zone_bytes_ = 0;  // transferred in the current zone
  uint64_t zones_visited_ = 0;
};

}  // namespace ssdtlm
