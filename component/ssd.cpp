// ssdtlm::Ssd (include/ssdtlm/ssd.h): the generic platform's drive with its register-level endpoint, the host
// side left to the enclosing platform. The configuration is layered and checked as the platform executables do
// (model/sim/command_line.h, model/config), the drive preconditioned as a run does (model/sim/run.h).
#include "ssdtlm/ssd.h"

#include <iostream>

#include "common/sim_time.h"
#include "config/validation.h"
#include "controller/placement/zns.h"
#include "generic_platform.h"
#include "report/memory_estimate.h"
#include "sim/command_line.h"
#include "sim/run.h"

namespace ssdtlm {

struct Ssd::Drive {
  Params params;
  std::unique_ptr<GenericPlatform> platform;
};

namespace {

Params read_ssd_params(const SsdConfig& sc, const std::string& who) {
  Config c = platform_config(generic_platform_info());
  c.set("nvme.interface=register");
  for (const std::string& f : sc.files) c.merge_file(f);
  for (const std::string& s : sc.overrides) c.set(s);
  if (c.s("nvme.interface") != "register")
    throw ConfigError("key 'nvme.interface': ssdtlm::Ssd is the register-level endpoint; only 'register' applies (got '" +
                      c.s("nvme.interface") + "')");
  if (sc.bar0_base % Ssd::kBar0Bytes)
    throw ConfigError("SsdConfig::bar0_base: a 128 KiB BAR is naturally aligned; expected a multiple of 0x20000");
  for (const std::string& w : config_warnings(c)) std::cerr << who << ": warning: " << w << "\n";
  Params p = read_params(c);
  check_memory(p);
  return p;
}

}  // namespace

Ssd::Ssd(sc_core::sc_module_name name, const SsdConfig& config)
    : sc_module(name), bar("bar"), dma("dma"), to_endpoint_("to_endpoint"), bar0_base_(config.bar0_base) {
  drive_ = std::make_unique<Drive>();
  drive_->params = read_ssd_params(config, std::string(this->name()));
  drive_->platform = std::make_unique<GenericPlatform>(drive_->params, GenericPlatform::Front::Endpoint);
  NvmeEndpoint& ep = *drive_->platform->endpoint();
  bar.register_b_transport(this, &Ssd::b_transport);
  to_endpoint_.bind(ep.bar);
  ep.dma.bind(dma);  // hierarchical: the endpoint's bus-master socket is the Ssd's
  SnapshotOutcome snap;
  precondition_platform(*drive_->platform, drive_->params, false, snap);
}

Ssd::~Ssd() = default;

void Ssd::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint64_t a = gp.get_address();
  if (a < bar0_base_ || a - bar0_base_ >= kBar0Bytes) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  gp.set_address(a - bar0_base_);  // BAR decode: the endpoint sees offsets into BAR0
  to_endpoint_->b_transport(gp, delay);
  gp.set_address(a);
}

bool Ssd::fail_zone_read_only(uint64_t zone) {
  ZnsNamespace* z = drive_->platform->page_ftl().streams().zns();
  if (!z || zone >= z->zones().config().zones) return false;
  z->zones().set_read_only(zone);
  drive_->platform->endpoint()->zone_changed(zone);  // the controller changed it: the Changed Zone List has it
  return true;
}

uint64_t Ssd::namespace_bytes() const { return drive_->platform->geometry().logical_bytes(); }

SsdStatus Ssd::status() const {
  GenericPlatform& p = *drive_->platform;
  const NvmeEndpoint& ep = *p.endpoint();
  const EndpointCounters& n = ep.counters();
  SsdStatus s;
  s.commands = n.commands;
  s.admin_commands = n.admin_commands;
  s.reads = n.reads;
  s.writes = n.writes;
  s.bytes_read = n.bytes_read;
  s.bytes_written = n.bytes_written;
  s.completions = n.completions;
  s.errors = n.errors;
  s.interrupts = n.interrupts;
  s.doorbell_errors = n.doorbell_errors;
  const Geometry& g = p.geometry();
  s.nand_programs = p.ftl().flash_counters().total_programs();
  s.waf = FlashCounters::waf(s.nand_programs, double(g.units_per_page) * kUnitBytes, double(n.bytes_written));
  if (const uint64_t now = now_ps()) {
    s.link_up_busy = double(ep.link().up().busy_ps()) / double(now);
    s.link_down_busy = double(ep.link().down().busy_ps()) / double(now);
  }
  if (const IntegrityChecker* c = p.checker()) {
    s.integrity_enabled = true;
    s.integrity_checked_reads = c->checked();
    s.integrity_errors = c->errors();
    s.integrity_first_error = c->first_error();
  }
  return s;
}

SsdStatus Ssd::finish() {
  GenericPlatform& p = *drive_->platform;
  if (IntegrityChecker* c = p.checker()) p.page_ftl().state().audit_map(*c, now_ps());
  return status();
}

}  // namespace ssdtlm
