// power.* and thermal.*: what each operation costs in energy, the idle floor of every component, the power
// budget that limits concurrent array operations, the NVMe power states (APST) and the lumped thermal model.
// Parsed once, at the edge (config/params.cpp); the defaults and their sources are in docs/reference/power.md.
#pragma once
#include <cmath>
#include <cstdint>
#include <vector>

namespace ssdtlm {

// Active power of one die while its array works (tR, tPROG, tBERS), above its standby power, in watts.
struct NandOpPower {
  double read_w = 0.0825, program_w = 0.0825, erase_w = 0.0825;  // ICC1..3 typ 25 mA x VCC 3.3 V
  double of(uint32_t cmd) const { return cmd == 0 ? read_w : cmd == 1 ? program_w : erase_w; }  // FlashCmd order
};

// One NVMe power state: the most the drive draws in it, and its entry and exit latencies (Identify
// Controller's power state descriptor). Non-operational states are the ones APST enters when idle.
struct PowerState {
  double max_w = 0;
  uint64_t entry_ps = 0, exit_ps = 0;
  uint64_t idle_ps = 0;  // APST: idle time (after entering the previous state) before this one is entered
};

struct PowerParams {
  NandOpPower nand[4];             // power.{slc,mlc,tlc,qlc}.{read,program,erase}_w
  uint32_t cell_bits = 1;          // flash.cell: which of the four the drive's dies use
  double nand_standby_w = 3.3e-5;  // power.nand_standby_w: per die, always (ISB typ 10 uA x 3.3 V)
  double channel_pj_per_byte = 67.5;        // power.channel_pj_per_byte: ONFI I/O, per byte on a channel bus
  double dram_nj_per_access = 1.5;          // power.dram_nj_per_access: activate/precharge + command per access
  double dram_pj_per_byte = 160;            // power.dram_pj_per_byte: read/write burst incl. I/O (20 pJ/bit)
  double dram_idle_w = 0.15;                // power.dram_idle_w: background + refresh
  double controller_idle_w = 1.0;           // power.controller_idle_w: cores, SRAM, clocks, leakage
  double controller_nj_per_command = 30;    // power.controller_nj_per_command: firmware work of one host command
  double controller_nj_per_flash_op = 10;   // power.controller_nj_per_flash_op: firmware + ECC per NAND operation
  double pcie_pj_per_byte = 50;             // power.pcie_pj_per_byte: link energy per payload byte (and SQE/CQE)
  double pcie_idle_w = 0.3;                 // power.pcie_idle_w: link in L0
  double budget_w = 0;                      // power.budget_w: the drive's envelope; 0 = none
  bool apst = false;                        // power.apst: autonomous power state transitions
  std::vector<PowerState> idle_states;      // power.ps_* : the non-operational states, shallowest first

  const NandOpPower& op_power() const { return nand[cell_bits - 1]; }
  // APST on the register interface: per state, the host's Idle Time Prior to Transition into it (whole ms of idle
  // in the state before, counted from the end of that state's entry), so that each state is entered at its
  // idle_ps after the last completion, as the command interface enters it. Below 1 where idle_ps leaves no ms.
  std::vector<int64_t> apst_itpt_ms() const {
    std::vector<int64_t> v;
    for (size_t i = 0; i < idle_states.size(); ++i) {
      const double from = i ? double(idle_states[i - 1].idle_ps + idle_states[i - 1].entry_ps) : 0.0;
      v.push_back(std::llround((double(idle_states[i].idle_ps) - from) / 1e9));
    }
    return v;
  }
  // The floor: what the drive draws with nothing to do (every component's idle power), in watts.
  double floor_w(uint32_t dies) const {
    return nand_standby_w * dies + dram_idle_w + controller_idle_w + pcie_idle_w;
  }
};

// thermal.*: one lumped RC node for the drive (controller and NAND package share a heat spreader):
// C dT/dt = P(t) - (T - T_ambient) / R. Above TMT1 the drive throttles lightly, above TMT2 heavily
// (NVMe host controlled thermal management); a throttle lowers the power budget of the array operations.
struct ThermalParams {
  bool enabled = false;          // thermal.enabled
  double ambient_c = 25;         // thermal.ambient_c
  double r_c_per_w = 8;          // thermal.r_c_per_w: junction-to-ambient thermal resistance
  double c_j_per_c = 2;          // thermal.c_j_per_c: heat capacity (time constant R x C)
  double tmt1_c = 70, tmt2_c = 80;       // thermal.tmt1_c, thermal.tmt2_c
  double tmt1_budget_w = 0, tmt2_budget_w = 0;  // thermal.tmt1_budget_w, thermal.tmt2_budget_w: budgets while throttled
  double hysteresis_c = 2;       // thermal.hysteresis_c: a throttle ends this far below its threshold
};

}  // namespace ssdtlm
