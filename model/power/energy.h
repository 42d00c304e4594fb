// Energy of a run from the counters the modules keep anyway (O(1) per operation: an add where the operation
// is scheduled): array time per NAND command, bytes on the channel buses, DRAM accesses and bytes, host
// commands, PCIe bytes, flash operations, and time spent in NVMe idle power states. Plain C++, no SystemC.
//
// E_nand       = sum_cmd P_cmd(cell) x array_time_cmd + P_standby x dies x T
// E_channel    = e_bus x bus_bytes
// E_dram       = e_access x accesses + e_byte x dram_bytes + P_dram_idle x T
// E_controller = e_cmd x commands + e_op x flash_ops + P_ctrl_idle x T
// E_pcie       = e_link x pcie_bytes + P_pcie_idle x T
// In an NVMe non-operational power state the drive draws that state's power instead of its floor: the idle
// terms are scaled by P_state / P_floor for that time (each component keeps its share). Total = sum of parts.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "power/power_params.h"

namespace ssdtlm {

enum class PowerComponent : uint32_t { Nand, Channel, Dram, Controller, Pcie, Count };
constexpr uint32_t kPowerComponents = uint32_t(PowerComponent::Count);
const char* power_component_name(PowerComponent c);  // "nand", "channel", "dram", "controller", "pcie"

// A snapshot of the counters (cumulative since the start of the timed run).
struct PowerCounters {
  uint64_t span_ps = 0;              // simulated time covered
  uint64_t array_ps[3] = {0, 0, 0};  // die array time by FlashCmd (read, program, erase), suspend/resume included
  uint64_t slc_array_ps[3] = {0, 0, 0};  // the part of array_ps on blocks in SLC mode: charged at SLC powers
  uint64_t bus_bytes = 0;            // channel bus bytes (data-in and data-out)
  uint64_t flash_ops = 0;            // NAND operations finished
  uint64_t dram_accesses = 0, dram_bytes = 0;
  uint64_t commands = 0;             // host commands (reads, writes, trims)
  uint64_t pcie_bytes = 0;           // payload plus submission and completion entries
  uint64_t budget_wait_ps = 0;       // the dies' waits for the power budget (ChannelStats::budget_wait_ps), summed
  // Time in each NVMe idle power state (power.ps_*), and the energy drawn there at those states' powers.
  uint64_t low_power_ps = 0;
  double low_power_j = 0;
};

struct EnergyBreakdown {
  std::array<double, kPowerComponents> j{};  // per component, joules
  double total() const;
};

// Energy of `c` under `p` for a drive of `dies` dies.
EnergyBreakdown energy_of(const PowerParams& p, uint32_t dies, const PowerCounters& c);
// Energy of one array operation of `cmd` (FlashCmd order) taking `array_ps` on a die of `p`'s cell type.
double nand_op_energy_j(const PowerParams& p, uint32_t cmd, uint64_t array_ps);

}  // namespace ssdtlm
