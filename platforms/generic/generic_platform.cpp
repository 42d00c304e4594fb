#include "generic_platform.h"

#include <cmath>

#include <tlm_utils/tlm_quantumkeeper.h>

#include "common/sim_time.h"
#include "controller/ftl_assembly.h"
#include "controller/placement/zns.h"
#include "workload/workload_factory.h"

namespace ssdtlm {

namespace platform_generic {
extern const char* const kDefaultConfig;
}

GenericPlatform::GenericPlatform(const Params& p, Front front)
    : precondition_(p.precondition), power_loss_(p.fault.recovery), flash_(p.flash), bus_(p.bus), g_(p.geometry) {
  const bool check = p.sim.check_integrity;
  // sim.timing=lt: the TLM global quantum every quantum keeper of the host side and the endpoint reads. Inside
  // another platform (Front::Endpoint), a quantum that platform set stays.
  auto& quantum = tlm::tlm_global_quantum::instance();
  if (p.sim.loosely_timed && (front == Front::Host || quantum.get() == sc_core::SC_ZERO_TIME))
    quantum.set(ps_time(p.sim.quantum_ps));
  // The dies' out-of-band data in one huge-page region (read at random by host and GC reads).
  oob_arena_ = std::make_unique<HugeArena>(g_.dies * Die::arena_bytes(g_, check));
  for (uint32_t d = 0; d < g_.dies; ++d) dies_.push_back(std::make_unique<Die>(g_, d, check, oob_arena_.get()));
  if (check) checker_ = std::make_unique<IntegrityChecker>(g_.logical_units);

  // FTL algorithms and DRAM write buffer
  std::vector<Die*> all;
  for (auto& d : dies_) all.push_back(d.get());
  page_ftl_ = build_page_ftl(p, g_, all, checker_.get());

  // modules
  if (front == Front::Host) make_host(p);
  NvmeParams np = p.nvme;
  np.queues = host_ ? host_->queues() : 1;
  nvme_ = std::make_unique<NvmeController>("nvme", np);
  ftl_ = build_ftl("ftl", p, *page_ftl_);  // with its write buffer
  dram_ = std::make_unique<Dram>("dram", p.dram);
  make_channels(p);

  // wiring
  if (front == Front::Host) fault_ = completion_fault_from_environment();
  if (front == Front::Endpoint) {  // the device's own offer: EndpointParams' queues and MQES
    make_endpoint(p, EndpointParams().io_queues, EndpointParams().mqes);
    attach_endpoint();
  } else if (p.nvme.register_interface) {
    wire_register(p);
  } else if (fault_) {
    host_->host_isock.bind(fault_->tsock);
    fault_->isock.bind(nvme_->nvme_tsock);
  } else {
    host_->host_isock.bind(nvme_->nvme_tsock);
  }
  if (!endpoint_) {
    nvme_->bind_backend(ftl_.get());
    ftl_->bind_frontend(nvme_.get());
    dram_->attach(nvme_->dram, DramSide::Host);
  }
  for (uint32_t ch = 0; ch < g_.channels; ++ch) ftl_->flash_isock[ch]->bind(channels_[ch]->tsock);
  dram_->attach(ftl_->dram, DramSide::Map);
  for (auto& ch : channels_) dram_->attach(ch->dram, DramSide::Flash);

  wire_power(p);
}

void GenericPlatform::make_channels(const Params& p) {
  const Channel bus = p.bus.bus();
  for (uint32_t ch = 0; ch < g_.channels; ++ch) {
    std::vector<Die*> on_channel;
    for (uint32_t k = 0; k < g_.dies_per_channel; ++k) on_channel.push_back(dies_[k * g_.channels + ch].get());
    channels_.push_back(std::make_unique<ChannelController>(("ch" + std::to_string(ch)).c_str(), g_, ch, on_channel,
                                                            bus, p.flash));
  }
}

void GenericPlatform::make_host(const Params& p) {
  std::vector<HostJob> jobs;
  for (const JobParams& job : p.jobs) {
    workloads_.push_back(make_workload(job.workload, g_.logical_bytes(), false));
    jobs.push_back({job.name, workloads_.back().get(), job.queues, job.queue_depth, job.open_loop});
  }
  HostParams hp{g_.logical_bytes(), uint64_t(p.ftl.buffer_units) * kUnitBytes, p.host_cost.submit_ps, p.host_cost.complete_ps};
  hp.loosely_timed = p.sim.loosely_timed;
  host_ = std::make_unique<NvmeHost>("host", hp, jobs);
}

// power (model/power): the budget gates array operations only when there is one (or a thermal limit)
void GenericPlatform::wire_power(const Params& p) {
  if (p.power.budget_w > 0 || p.thermal.enabled) {
    budget_ = std::make_unique<PowerBudget>(p.power.floor_w(g_.dies), p.power.budget_w);
    for (auto& ch : channels_) ch->set_power_budget(budget_.get(), p.power.op_power(), p.power.nand[0]);
  }
  if (p.power.apst) {  // the register interface's endpoint enters the states as the driver's APST table says
    apst_ = std::make_unique<Apst>(p.power.idle_states);
    if (endpoint_) endpoint_->set_apst(apst_.get());
    else nvme_->set_apst(apst_.get());
  }
  meter_ = std::make_unique<PowerMeter>(p.power, p.thermal, p.flash, g_.dies, budget_.get());
  // Data ages faster when the drive is hotter (reliability.*: Arrhenius on the retention age), at each power sample.
  if (Reliability* rel = page_ftl_->reliability())
    meter_->on_temperature([rel](double temp_c, uint64_t at_ps) { rel->set_temp_c(temp_c, at_ps); });
}

void GenericPlatform::make_endpoint(const Params& p, uint32_t io_queues, uint32_t mqes) {
  EndpointParams ep;
  ep.pcie = p.nvme.pcie;
  ep.io_queues = io_queues;
  ep.mqes = mqes;
  ep.msix_vectors = ep.io_queues + 1;
  ep.mdts = 8;  // 1 MiB; larger requests are split by the block layer
  ep.ns_bytes = g_.logical_bytes();
  ep.zoned = p.streams.zns;
  ep.zone_ext_bytes = uint32_t(p.streams.zns_layout.zone_ext_bytes);  // zns.zone_ext_bytes: ZDES x 64
  ep.fetch_ps = p.nvme.fetch_ps;
  ep.max_commands = p.nvme.max_commands;
  ep.loosely_timed = p.sim.loosely_timed;
  if (p.power.apst) ep.power_states = p.power.idle_states;  // Identify's power states, APST supported
  endpoint_ = std::make_unique<NvmeEndpoint>("endpoint", ep);
}

// The command-level front end stays built (Platform::nvme()) with its sockets closed by a stub pair.
void GenericPlatform::attach_endpoint() {
  endpoint_->bind_backend(ftl_.get());
  ftl_->bind_frontend(endpoint_.get());
  dram_->attach(endpoint_->dram, DramSide::Host);
  if (const ZnsNamespace* z = page_ftl_->streams().zns()) endpoint_->set_zones(&z->zones());  // Report Zones
  nvme_stub_ = std::make_unique<NvmeStubHost>("nvme_unused", *nvme_);
}

// nvme.arbitration*: the driver enables it (CC.AMS, Set Features Arbitration) and gives each job's queues its
// host.sq_priority (the host numbers queues job after job).
void GenericPlatform::set_arbitration(const Params& p, DriverParams& dp) {
  dp.wrr = p.nvme.wrr;
  dp.hpw = uint8_t(p.nvme.wrr_weight[0] - 1), dp.mpw = uint8_t(p.nvme.wrr_weight[1] - 1);
  dp.lpw = uint8_t(p.nvme.wrr_weight[2] - 1);
  const uint32_t b = p.nvme.arbitration_burst;
  dp.arbitration_burst = uint8_t(b == 0 ? 7 : __builtin_ctz(b));
  for (const JobParams& j : p.jobs) dp.queue_prio.insert(dp.queue_prio.end(), j.queues, j.sq_priority);
}

void GenericPlatform::wire_register(const Params& p) {
  // The host reaches the FTL through the block layer, the driver, the PCIe link and the endpoint.
  uint32_t depth = 1;
  for (const JobParams& j : p.jobs) depth = std::max(depth, j.queue_depth);
  make_endpoint(p, host_->queues(), std::min<uint32_t>(depth, 65535));  // MQES 0's based: depth + 1 entries
  const EndpointParams& ep = endpoint_->params();
  DriverParams dp;
  dp.io_queues = ep.io_queues;
  dp.queue_entries = ep.mqes + 1;
  dp.submit_cpu_ps = p.nvme.submit_ps;
  dp.interrupt_cpu_ps = p.nvme.interrupt_ps;
  dp.completion_cpu_ps = p.nvme.completion_ps;
  dp.coalesce_threshold = p.nvme.coalesce_threshold;
  dp.coalesce_time_100us = uint32_t(p.nvme.coalesce_time_us / 100 + 0.5);
  dp.loosely_timed = p.sim.loosely_timed;
  set_arbitration(p, dp);
  dp.apst = p.power.apst;  // each state entered at its power.apst_idle_ms, as on the command interface
  for (const int64_t ms : p.power.apst_itpt_ms()) dp.apst_itpt_ms.push_back(uint32_t(ms));
  host_mem_ = std::make_unique<HostMemory>("host_memory", 0x100000, NvmeDriver::memory_bytes(dp, 4096u << ep.mdts));
  driver_ = std::make_unique<NvmeDriver>("driver", *host_mem_, dp);
  bridge_ = std::make_unique<DriverBridge>("block_layer", *driver_);
  host_->host_isock.bind(bridge_->tsock);
  driver_->bar.bind(endpoint_->bar);
  endpoint_->dma.bind(host_mem_->tsock);
  attach_endpoint();
}

std::vector<ChannelController*> GenericPlatform::channels() {
  std::vector<ChannelController*> v;
  for (auto& c : channels_) v.push_back(c.get());
  return v;
}

NvmeHost& GenericPlatform::host() {
  if (!host_) throw std::logic_error("GenericPlatform: built without a host (Front::Endpoint)");
  return *host_;
}

void GenericPlatform::trace(WaveTracer& w) {
  // Layout order: host, FTL, then one group per channel.
  if (host_) host_->trace(w);
  ftl_->trace(w);
  for (auto& c : channels_) c->trace(w);
}

size_t GenericPlatform::model_bytes() const {
  size_t n = page_ftl_->memory_bytes() + ftl_->buffer().memory_bytes() + (checker_ ? checker_->memory_bytes() : 0);
  for (auto& d : dies_) n += d->memory_bytes();
  return n;
}

void GenericPlatform::arm_map_checkpoints() {
  page_ftl_->map_cache().set_checkpoint_clock(page_ftl_->state().blocks().close_clock_ptr());
}

PreconditionResult GenericPlatform::precondition(Workload* overwrite,
                                                 const std::function<void(uint64_t, uint64_t)>& progress) {
  // The fast-forward writes straight into MLC/TLC/QLC blocks: the drive starts as if it had idled long enough to
  // fold its SLC cache (slc.*).
  if (SlcCache* slc = page_ftl_->slc()) slc->set_on(false);
  PreconditionResult r = ssdtlm::precondition(page_ftl_->fast_forward(), checker_.get(), precondition_.fill,
                                              precondition_.drive_writes, overwrite, progress, precondition_.threads);
  if (SlcCache* slc = page_ftl_->slc()) slc->set_on(true);
  const FlashCounters& f = page_ftl_->state().counters();
  r.nand_programs = f.programs[0] + f.programs[1] + f.programs[2] + f.programs[3];
  return r;
}

void GenericPlatform::snapshot(SnapshotArchive& a) { page_ftl_->snapshot(a, checker_.get()); }

void GenericPlatform::reset_statistics() {
  page_ftl_->state().counters() = FlashCounters();
  if (Reliability* rel = page_ftl_->reliability()) rel->reset_counters();
  if (WearLevel* wl = page_ftl_->wear_level()) wl->reset_counters();
  page_ftl_->map_cache().reset_stats();
  ftl_->reset_stats();
}

void GenericPlatform::track_recovery_changes(PowerLossState& state) {
  ssdtlm::track_recovery_changes(state, page_ftl_->state(), *checker_);
}

RecoveryReport GenericPlatform::lose_power(PowerLossState& state, uint64_t now_ps) {
  RecoveryReport r = power_loss(state, page_ftl_->state(), page_ftl_->map_cache(), ftl_->buffer(), *checker_,
                                power_loss_, flash_, bus_.bus(), ftl_->waiting_write_units(), now_ps);
  r.torn_gc_programs = ftl_->gc_programs_in_flight();
  r.torn_erases = ftl_->gc_erases_in_flight();
  if (host_) host_->hold_until(now_ps + r.time_ps);
  ftl_->resume_after_power_loss();
  return r;
}

std::string GenericPlatform::stuck_state() {
  std::string s = std::to_string(host_ ? host_->outstanding() : 0) + " commands outstanding";
  std::string queues;
  for (uint32_t q = 0; host_ && q < host_->queues(); ++q)
    if (host_->queue_outstanding(q))
      queues += (queues.empty() ? "" : ", ") + ("q" + std::to_string(q)) + " " + std::to_string(host_->queue_outstanding(q));
  if (!queues.empty()) s += " (" + queues + ")";
  std::string dies;
  for (const auto& c : channels_) {
    const std::string d = c->describe();
    if (!d.empty()) dies += (dies.empty() ? "" : "; ") + d;
  }
  s += dies.empty() ? "; no die has a queued flash operation" : "; dies with flash work: " + dies;
  s += "; FTL: " + ftl_->describe_state();
  s += "; " + std::to_string(page_ftl_->state().blocks().total_free_blocks()) + " free blocks";
  return s;
}

PlatformInfo generic_platform_info() { return generic_platform_info("generic", platform_generic::kDefaultConfig); }

PlatformInfo generic_platform_info(const std::string& name, const char* default_config) {
  return {name, default_config, [](const Params& p) { return std::unique_ptr<Platform>(new GenericPlatform(p)); }};
}

}  // namespace ssdtlm
