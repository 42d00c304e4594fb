// Per stonewall group figures (summary.json "groups", the text summary's "group" lines): a job file that fills
// the drive and then runs random writes after a stonewall gets each phase's throughput, latency and WAF, not
// one WAF of both.
//
// GroupRecorder snapshots the device's counters (NAND programs by kind, erases, GC) and the host's written bytes
// when each group ends (NvmeHost's group observer). Group g's device figures cover the span from the end of
// group g - 1 (group 0: the start of the timed run) to its own end (the last group: to the run's end), so the
// groups' spans tile the timed run and their programs and host bytes add up to the run's: writes a group leaves in the write buffer are programmed, and counted,
// in the next group's span.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

#include "controller/flash_counters.h"
#include "sim/platform.h"

namespace ssdtlm {

struct DeviceSnapshot {
  uint64_t at_ps = 0;
  uint64_t host_written = 0, host_read = 0;  // bytes, every completion of the timed run (ramps too)
  FlashCounters flash;                       // the NAND counters
};

class GroupRecorder {
 public:
  // Made after preconditioning, before the timed run: the counters now are every group's zero.
  explicit GroupRecorder(Platform& p);
  GroupRecorder(const GroupRecorder&) = delete;
  GroupRecorder& operator=(const GroupRecorder&) = delete;

  struct Group {
    bool begun = false, ended = false;
    uint64_t begin_ps = 0;  // its first job's start
    DeviceSnapshot end;     // at its last job's end
  };
  const DeviceSnapshot& start() const { return start_; }
  const std::vector<Group>& groups() const { return groups_; }
  DeviceSnapshot now() const;  // the counters at this instant

 private:
  Platform& p_;
  DeviceSnapshot start_;
  std::vector<Group> groups_;
};

// summary.json's "groups" (only when the run has more than one stonewall group): per group its jobs, span,
// host figures after the jobs' ramps (I/Os, IOPS, MB/s, latency) and the device's over its span (host bytes
// written, NAND programs, erases, GC) with the group's WAF = NAND program bytes / host bytes written.
nlohmann::json group_summary(Platform& p, const GroupRecorder& r);

}  // namespace ssdtlm
