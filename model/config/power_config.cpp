// Reads power.* and thermal.* (model/power/power_params.h) and checks their rules.
#include <cmath>
#include <sstream>

#include "common/sim_time.h"
#include "config/choices.h"
#include "config/params.h"

namespace ssdtlm {

namespace {

[[noreturn]] void fail(const std::string& key, const std::string& what) { throw ConfigError("key '" + key + "': " + what); }

// A comma-separated list of non-negative numbers (empty text = none).
std::vector<double> number_list(const Config& c, const std::string& key) {
  std::vector<double> v;
  const std::string text = c.s(key);
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    char* end = nullptr;
    const double x = std::strtod(item.c_str(), &end);
    if (item.empty() || *end || !(x >= 0) || !std::isfinite(x))
      fail(key, "expected non-negative numbers separated by commas, got \"" + item + "\" in \"" + text + "\"");
    v.push_back(x);
  }
  return v;
}

}  // namespace

PowerParams read_power_params(const Config& c) {
  PowerParams p;
  for (const Choice<uint32_t>& cell : choices::kFlashCell) {  // power.<cell>.*, by bits per cell
    const std::string k = std::string("power.") + cell.name + ".";
    p.nand[cell.value - 1] = NandOpPower{c.d(k + "read_w"), c.d(k + "program_w"), c.d(k + "erase_w")};
  }
  const std::string cell = c.s("flash.cell");
  p.cell_bits = parse_choice(choices::kFlashCell, cell, "flash.cell");
  p.nand_standby_w = c.d("power.nand_standby_w");
  p.channel_pj_per_byte = c.d("power.channel_pj_per_byte");
  p.dram_nj_per_access = c.d("power.dram_nj_per_access");
  p.dram_pj_per_byte = c.d("power.dram_pj_per_byte");
  p.dram_idle_w = c.d("power.dram_idle_w");
  p.controller_idle_w = c.d("power.controller_idle_w");
  p.controller_nj_per_command = c.d("power.controller_nj_per_command");
  p.controller_nj_per_flash_op = c.d("power.controller_nj_per_flash_op");
  p.pcie_pj_per_byte = c.d("power.pcie_pj_per_byte");
  p.pcie_idle_w = c.d("power.pcie_idle_w");
  p.budget_w = c.d("power.budget_w");
  p.apst = c.b("power.apst");
  const std::vector<double> w = number_list(c, "power.ps_max_w"), entry = number_list(c, "power.ps_entry_us"),
                            exit = number_list(c, "power.ps_exit_us"), idle = number_list(c, "power.apst_idle_ms");
  if (entry.size() != w.size()) fail("power.ps_entry_us", "expected one entry latency per state of power.ps_max_w (" + std::to_string(w.size()) + "), got " + std::to_string(entry.size()));
  if (exit.size() != w.size()) fail("power.ps_exit_us", "expected one exit latency per state of power.ps_max_w (" + std::to_string(w.size()) + "), got " + std::to_string(exit.size()));
  if (!idle.empty() && idle.size() != w.size()) fail("power.apst_idle_ms", "expected one idle time per state of power.ps_max_w (" + std::to_string(w.size()) + "), or empty, got " + std::to_string(idle.size()));
  for (size_t i = 0; i < w.size(); ++i) {
    PowerState s;
    s.max_w = w[i];
    s.entry_ps = us_to_ps(entry[i]);
    s.exit_ps = us_to_ps(exit[i]);
    s.idle_ps = idle.empty() ? 50 * (s.entry_ps + s.exit_ps) : uint64_t(std::llround(idle[i] * 1e9));
    if (i > 0 && s.idle_ps <= p.idle_states.back().idle_ps)
      fail(idle.empty() ? "power.ps_entry_us" : "power.apst_idle_ms", "each deeper state must be entered later than the one before it (idle time " + std::to_string(double(s.idle_ps) / 1e9) + " ms after " + std::to_string(double(p.idle_states.back().idle_ps) / 1e9) + " ms)");
    p.idle_states.push_back(s);
  }
  if (p.apst && p.idle_states.empty()) fail("power.ps_max_w", "power.apst needs at least one non-operational power state");
  return p;
}

ThermalParams read_thermal_params(const Config& c) {
  ThermalParams t;
  t.enabled = c.b("thermal.enabled");
  t.ambient_c = c.d("thermal.ambient_c");
  t.r_c_per_w = c.d("thermal.r_c_per_w");
  t.c_j_per_c = c.d("thermal.c_j_per_c");
  t.tmt1_c = c.d("thermal.tmt1_c");
  t.tmt2_c = c.d("thermal.tmt2_c");
  t.tmt1_budget_w = c.d("thermal.tmt1_budget_w");
  t.tmt2_budget_w = c.d("thermal.tmt2_budget_w");
  t.hysteresis_c = c.d("thermal.hysteresis_c");
  return t;
}

}  // namespace ssdtlm
