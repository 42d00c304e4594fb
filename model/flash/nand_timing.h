// The time one NAND operation takes, in the one place every user of it asks: the channel controller when it
// schedules an operation (controller/channel_controller.*) and the power-loss recovery when it times the dump
// and its own reads and programs (controller/power_loss/), so the two cannot drift.
//
// Array time: tR, tPROG or tBERS by page type (FlashParams::read_ps, prog_ps; one-shot programming), or the
// timing.slc_* times for a block in SLC mode; with flash.multiplane=never the die works the planes one after
// the other (the planes an operation works times the array time); read-retry steps and soft sensing reads
// (reliability.*) add a tR and a data-out each. Bus time: the Channel's transfer of the operation's bytes
// (a program's data-in of a whole page; a read's data-out of the units it names, or of its `bytes`).
// Scheduling (the bus timeline, cache programming, suspend, multi-plane grouping, DRAM pacing) is the channel
// controller's own.
//
// Refers to the geometry, flash parameters and channel it is built from (it does not copy them).
#pragma once
#include <cstdint>

#include "flash/channel.h"
#include "flash/flash_op.h"
#include "flash/flash_params.h"
#include "flash/geometry.h"

namespace ssdtlm {

class NandTiming {
 public:
  NandTiming(const Geometry& g, const FlashParams& params, const Channel& bus) : g_(g), params_(params), bus_(bus) {}

  // Bytes op moves on the bus: a program a whole page, a read its units (slot_mask) or its `bytes` (a map segment).
  uint32_t bytes_of(const FlashOp& op) const {
    if (op.cmd == FlashCmd::Program) return program_bytes();
    return op.bytes ? op.bytes : uint32_t(__builtin_popcount(op.slot_mask)) * kUnitBytes;
  }
  // A program's data: the page the FTL programs, on every plane of the die (planes x geometry.page_bytes).
  uint32_t program_bytes() const { return g_.units_per_page * kUnitBytes; }
  // Planes op works (bit p = plane p): a read those of its units (a map segment lies within one flash page), a
  // program or an erase every plane.
  uint32_t plane_mask(const FlashOp& op) const {
    const uint32_t all = (1u << g_.planes) - 1;
    if (g_.planes == 1 || op.cmd != FlashCmd::Read) return all;
    if (op.bytes) return 1;
    const uint32_t per_plane = g_.units_per_page / g_.planes;
    uint32_t m = 0;
    for (uint32_t s = op.slot_mask; s; s &= s - 1) m |= 1u << (uint32_t(__builtin_ctz(s)) / per_plane);
    return m;
  }
  // The array time of one tR, tPROG or tBERS of `page` (slc: a block in SLC mode).
  uint64_t single_ps(FlashCmd cmd, uint32_t page, bool slc) const {
    const DieTiming& s = params_.slc;
    return cmd == FlashCmd::Read      ? (slc ? s.t_read_ps : params_.read_ps(page))
           : cmd == FlashCmd::Program ? (slc ? s.t_prog_ps : params_.prog_ps(page))
                                      : (slc ? s.t_erase_ps : params_.timing.t_erase_ps);
  }
  // The array time of `cmd` on `page` working `planes` planes.
  uint64_t array_ps(FlashCmd cmd, uint32_t page, bool slc, uint32_t planes) const {
    const uint64_t t = single_ps(cmd, page, slc);
    return one_plane_at_a_time() ? t * planes : t;
  }
  // The array time of op as the channel controller runs it (the planes counted only when they work in turn).
  uint64_t array_ps(const FlashOp& op) const {
    const uint64_t t = single_ps(op.cmd, op.page, op.slc);
    if (op.extra_reads) return t + op.extra_reads * (t + bus_.transfer_ps(bytes_of(op)));
    return one_plane_at_a_time() ? t * uint64_t(__builtin_popcount(plane_mask(op))) : t;
  }
  uint64_t transfer_ps(uint32_t bytes) const { return bus_.transfer_ps(bytes); }
  bool one_plane_at_a_time() const { return params_.multiplane == MultiPlane::Never; }

 private:
  const Geometry& g_;
  const FlashParams& params_;
  const Channel& bus_;
};

}  // namespace ssdtlm
