// What the runner needs from a wired SSD platform. A platform (platforms/<name>/) constructs the
// modules, binds their sockets and exposes them through this interface.
#pragma once
#include <systemc>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/params.h"
#include "controller/channel_controller.h"
#include "controller/dram.h"
#include "controller/ftl.h"
#include "controller/integrity_checker.h"
#include "controller/nvme/nvme_endpoint.h"
#include "controller/nvme_controller.h"
#include "controller/page_ftl.h"
#include "controller/power_loss/power_loss.h"
#include "controller/precondition.h"
#include "flash/geometry.h"
#include "host/io_request.h"
#include "host/nvme_host.h"

namespace ssdtlm {

class WaveTracer;
class SnapshotArchive;
class PowerMeter;
class Apst;

class Platform {
 public:
  virtual ~Platform() = default;
  virtual const Geometry& geometry() const = 0;
  virtual NvmeHost& host() = 0;
  virtual NvmeController& nvme() = 0;
  // The register-level endpoint when the platform uses it (nvme.interface=register), else null; nvme() then
  // is the command-level front end built but not on the host's path.
  virtual NvmeEndpoint* endpoint() { return nullptr; }
  virtual Ftl& ftl() = 0;
  // The drive state and the engines the FTL module runs over, with their report, snapshot and the fast-forward (the
  // holder the platform's assembly owns, controller/ftl_assembly.h).
  virtual PageFtl& page_ftl() = 0;
  virtual std::vector<ChannelController*> channels() = 0;
  virtual IntegrityChecker* checker() = 0;
  virtual Dram* dram() { return nullptr; }  // the controller DRAM, when the platform has one
  // Power and energy (model/power): the meter fed by the sampler, and APST when power.apst is on.
  virtual PowerMeter* power() { return nullptr; }
  virtual Apst* apst() { return nullptr; }
  // Registers every signal of the waveform with `w` (and its place in the layout); called once, before the
  // timed run, after preconditioning. Components record their changes themselves from then on.
  virtual void trace(WaveTracer& w) = 0;
  // Bytes of model state that scale with the device (map, OOB, block metadata, buffer, checker).
  virtual size_t model_bytes() const = 0;

  // What a run asks of the drive (the runner does not reach into the FTL).
  // Map checkpoints are tracked from now on (before preconditioning, when power will be lost).
  virtual void arm_map_checkpoints() = 0;
  // Fast-forward preconditioning as the parameters say (fill, drive writes taken from `overwrite`);
  // `progress(done, total)` now and then. nand_programs counts the page programs it made.
  virtual PreconditionResult precondition(Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress) = 0;
  // Saves or loads the drive state preconditioning leaves (controller/snapshot); SnapshotUnsupported when the
  // platform or one of its policies cannot.
  virtual void snapshot(SnapshotArchive& a);
  // Statistics start afresh (flash counters, map cache, FTL and streams), the state stays.
  virtual void reset_statistics() = 0;
  // The timed run starts and power will be lost: the recovery checks what changes from now on.
  virtual void track_recovery_changes(PowerLossState& state) = 0;
  // Power is lost at `now_ps`: the capacitors dump, the drive recovers, the FTL resumes and the host waits
  // until the recovery ends. `state` carries what earlier losses left.
  virtual RecoveryReport lose_power(PowerLossState& state, uint64_t now_ps) = 0;
  // Host writes per logical unit (empty unless stats.lpn_writes).
  virtual const std::vector<uint32_t>& lpn_write_counts() const = 0;
  // What a run that stopped completing waits for, in one line (the watchdog's message): the outstanding
  // commands by queue, the dies with queued operations, what the FTL holds back (writes waiting for buffer
  // room or held by the policy, flush programs not landed, map write-backs waiting for a die, GC).
  virtual std::string stuck_state() = 0;
};

struct PlatformInfo {
  std::string name;
  const char* default_config;  // JSON text of platforms/<name>/config.json
  std::function<std::unique_ptr<Platform>(const Params&)> make;
};

}  // namespace ssdtlm
