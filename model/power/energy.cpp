#include "power/energy.h"

namespace ssdtlm {

const char* power_component_name(PowerComponent c) {
  static const char* const kNames[kPowerComponents] = {"nand", "channel", "dram", "controller", "pcie"};
  return kNames[uint32_t(c)];
}

double EnergyBreakdown::total() const {
  double s = 0;
  for (double x : j) s += x;
  return s;
}

double nand_op_energy_j(const PowerParams& p, uint32_t cmd, uint64_t array_ps) {
  return p.op_power().of(cmd) * double(array_ps) * 1e-12;
}

EnergyBreakdown energy_of(const PowerParams& p, uint32_t dies, const PowerCounters& c) {
  EnergyBreakdown e;
  const double floor = p.floor_w(dies);
  // Idle time at the floor, and the low-power-state energy shared out by each component's share of the floor.
  const uint64_t low = c.low_power_ps < c.span_ps ? c.low_power_ps : c.span_ps;
  const double at_floor_s = double(c.span_ps - low) * 1e-12;
  auto idle = [&](double w) { return w * at_floor_s + (floor > 0 ? c.low_power_j * w / floor : 0.0); };
  double nand = idle(p.nand_standby_w * dies);
  for (uint32_t cmd = 0; cmd < 3; ++cmd)  // blocks run in SLC mode (slc.*) at the SLC powers, the rest at the dies'
    nand += nand_op_energy_j(p, cmd, c.array_ps[cmd] - c.slc_array_ps[cmd]) +
            p.nand[0].of(cmd) * double(c.slc_array_ps[cmd]) * 1e-12;
  e.j[uint32_t(PowerComponent::Nand)] = nand;
  e.j[uint32_t(PowerComponent::Channel)] = p.channel_pj_per_byte * 1e-12 * double(c.bus_bytes);
  e.j[uint32_t(PowerComponent::Dram)] = p.dram_nj_per_access * 1e-9 * double(c.dram_accesses) +
                                        p.dram_pj_per_byte * 1e-12 * double(c.dram_bytes) + idle(p.dram_idle_w);
  e.j[uint32_t(PowerComponent::Controller)] = p.controller_nj_per_command * 1e-9 * double(c.commands) +
                                              p.controller_nj_per_flash_op * 1e-9 * double(c.flash_ops) +
                                              idle(p.controller_idle_w);
  e.j[uint32_t(PowerComponent::Pcie)] = p.pcie_pj_per_byte * 1e-12 * double(c.pcie_bytes) + idle(p.pcie_idle_w);
  return e;
}

}  // namespace ssdtlm
