// Platform "generic": the baseline SSD of seed 000 (8 channels x 8 dies, 8 KiB pages, 256 pages/block,
// tR 60 us, tPROG 700 us, greedy GC, 16 GiB logical): NVMe host -> NVMe controller -> FTL with DRAM
// write buffer -> one flash controller per channel -> dies.
#pragma once
#include <memory>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>

#include "completion_fault.h"
#include "controller/nvme/nvme_endpoint.h"
#include "host/driver_bridge.h"
#include "host/host_memory.h"
#include "host/nvme_driver.h"
#include "power/apst.h"
#include "power/power_budget.h"
#include "power/power_meter.h"
#include "sim/platform.h"

namespace ssdtlm {

// Closes the command-level front end's socket when the host does not use it (nvme.interface=register).
struct NvmeStubHost : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<NvmeStubHost> isock{"isock"};
  NvmeStubHost(sc_core::sc_module_name n, NvmeController& c) : sc_module(n) { isock.bind(c.nvme_tsock); }
};

class GenericPlatform : public Platform {
 public:
  // Host: the platform's own host (jobs on NvmeHost) on the interface nvme.interface names. Endpoint: no host;
  // the register-level endpoint's `bar` and `dma` sockets are left for an enclosing module to bind (ssdtlm::Ssd,
  // component/); host() must not be called then.
  enum class Front { Host, Endpoint };
  explicit GenericPlatform(const Params& p, Front front = Front::Host);

  const Geometry& geometry() const override { return g_; }
  NvmeHost& host() override;
  NvmeController& nvme() override { return *nvme_; }
  NvmeEndpoint* endpoint() override { return endpoint_.get(); }
  Ftl& ftl() override { return *ftl_; }
  PageFtl& page_ftl() override { return *page_ftl_; }
  std::vector<ChannelController*> channels() override;
  IntegrityChecker* checker() override { return checker_.get(); }
  Dram* dram() override { return dram_.get(); }
  PowerMeter* power() override { return meter_.get(); }
  Apst* apst() override { return apst_.get(); }
  void trace(WaveTracer& w) override;
  size_t model_bytes() const override;
  void arm_map_checkpoints() override;
  PreconditionResult precondition(Workload* overwrite, const std::function<void(uint64_t, uint64_t)>& progress) override;
  void snapshot(SnapshotArchive& a) override;
  void reset_statistics() override;
  void track_recovery_changes(PowerLossState& state) override;
  RecoveryReport lose_power(PowerLossState& state, uint64_t now_ps) override;
  const std::vector<uint32_t>& lpn_write_counts() const override { return ftl_->lpn_writes(); }
  std::string stuck_state() override;

 private:
  void make_host(const Params& p);      // the jobs' workloads and NvmeHost (Front::Host)
  void make_channels(const Params& p);  // one flash channel controller per channel, its dies
  void set_arbitration(const Params& p, DriverParams& dp);  // nvme.arbitration* and host.sq_priority
  void wire_register(const Params& p);  // nvme.interface=register: the host's driver and the endpoint
  void wire_power(const Params& p);     // power budget, APST, the power meter
  // The endpoint offering `io_queues` queue pairs of up to `mqes` + 1 entries, bound to the FTL and DRAM.
  void make_endpoint(const Params& p, uint32_t io_queues, uint32_t mqes);
  void attach_endpoint();
  PreconditionParams precondition_;
  PowerLossParams power_loss_;  // what the capacitors protect, the recovery firmware
  FlashParams flash_;
  ChannelParams bus_;
  Geometry g_;
  std::unique_ptr<HugeArena> oob_arena_;  // the dies' out-of-band arrays (before dies_: outlives them)
  std::vector<std::unique_ptr<Die>> dies_;
  std::unique_ptr<IntegrityChecker> checker_;
  std::unique_ptr<PageFtl> page_ftl_;
  std::vector<std::unique_ptr<Workload>> workloads_;  // one per job
  std::unique_ptr<NvmeHost> host_;
  std::unique_ptr<NvmeController> nvme_;  // nvme.interface=command
  // nvme.interface=register: host memory, the NVMe driver under the host's jobs, the endpoint (wire_register).
  std::unique_ptr<HostMemory> host_mem_;
  std::unique_ptr<NvmeDriver> driver_;
  std::unique_ptr<DriverBridge> bridge_;
  std::unique_ptr<NvmeEndpoint> endpoint_;
  std::unique_ptr<NvmeStubHost> nvme_stub_;
  std::unique_ptr<CompletionFault> fault_;  // the test hook, when the environment asks for it
  std::unique_ptr<Ftl> ftl_;
  std::unique_ptr<Dram> dram_;
  std::vector<std::unique_ptr<ChannelController>> channels_;
  std::unique_ptr<PowerBudget> budget_;  // with power.budget_w or thermal.enabled
  std::unique_ptr<Apst> apst_;           // with power.apst
  std::unique_ptr<PowerMeter> meter_;
};

PlatformInfo generic_platform_info();
// The generic wiring under another platform's name and defaults: a platform folder that holds only a
// config.json (and optionally a .gtkw) is built with this (see CMakeLists.txt).
PlatformInfo generic_platform_info(const std::string& name, const char* default_config);

}  // namespace ssdtlm
