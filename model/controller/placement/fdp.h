// NVMe Flexible Data Placement (FDP, TP4146) on the stream machinery (docs/reference/placement.md).
//
// A namespace with FDP has reclaim groups (RGs: sets of dies) and reclaim unit handles (RUHs). Each RUH
// references one open reclaim unit (RU) in every RG; a write names its placement by a placement identifier
// (PID: RG identifier in the top RGIF bits, placement handle below) in the directive specific field of a
// write with directive type FDP (2). Here every (RG, RUH) pair is a user stream: stream rg * ruhs + ruh, writing
// its open RU of the RG through one write pointer over the RG's dies; the flush scheduler takes a stream's pages only
// on its RG's dies (FlushScheduler, Streams::allowed_on). GC reclaims whole RUs (gc/reclaim_unit.cpp). RUH
// types say what GC may mix: initially_isolated = one shared GC stream (relocated data of all RUHs of an RG meet in
// its GC RU), persistently_isolated = a GC stream per RUH (its data never meets another RUH's). Plain C++.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <string>

namespace ssdtlm {

class DriveState;
class Streams;

constexpr uint8_t kDirectiveStreams = 1;  // NVMe directive types (DTYPE) on a write
constexpr uint8_t kDirectiveFdp = 2;

struct FdpParams {
  bool enabled = false;          // fdp.enabled
  uint32_t reclaim_groups = 1;   // fdp.reclaim_groups: dies / reclaim_groups consecutive dies each
  uint32_t ruhs = 8;             // fdp.ruhs: reclaim unit handles (placement handles)
  uint64_t ru_bytes = 0;         // fdp.ru_bytes (0 = derived: a block on every die of the RG)
  bool persistent = false;       // fdp.ruh_type=persistently_isolated
  uint32_t streams() const { return reclaim_groups * ruhs; }
};

// How PIDs name (RG, placement handle), the RUH status list's order (RG major: index i is RG i / ruhs,
// handle i % ruhs, as fio's fdp_pli indices count it) and which dies an RG holds.
struct FdpLayout {
  uint32_t rgs = 1, ruhs = 1;
  // RGIF: bits of the PID naming the RG (0 with one RG).
  uint32_t rgif() const {
    uint32_t b = 0;
    while ((1u << b) < rgs) ++b;
    return b;
  }
  uint16_t pid(uint32_t rg, uint32_t handle) const {
    return uint16_t((rgif() ? rg << (16 - rgif()) : 0) | handle);
  }
  uint16_t pid_of_index(uint32_t index) const { return pid(index / ruhs, index % ruhs); }
  // The stream of a PID, or false if it names no RG or handle the namespace has.
  bool stream_of(uint16_t pid, uint32_t* stream) const {
    const uint32_t b = rgif();
    const uint32_t rg = b ? uint32_t(pid) >> (16 - b) : 0;
    const uint32_t handle = b ? pid & ((1u << (16 - b)) - 1) : pid;
    if (rg >= rgs || handle >= ruhs) return false;
    *stream = rg * ruhs + handle;
    return true;
  }
  static uint32_t rg_of_die(uint32_t die, uint32_t dies, uint32_t rgs) { return die / (dies / rgs); }
};

// fdp.ruh_type spelled out.
inline const char* ruh_type_name(bool persistent) {
  return persistent ? "persistently_isolated" : "initially_isolated";
}

// summary.json "fdp" (fdp_report.cpp): the FDP statistics log, per-RUH counters and status, reclaim, FDP events and
// the placement invariants, over the measured run; relocated_lines: the victim RUs started with valid data
// (GcVictims::relocated_lines, the "media reallocated" events).
nlohmann::json fdp_report(const DriveState& state, const Streams& streams, uint64_t relocated_lines);

}  // namespace ssdtlm
