// The first screen of a generated GTKWave layout (issue 47): the groups that carry information for the run (power
// rows only with power modelled), and every die of the first channel within the rows that fit the window.
#include <catch2/catch.hpp>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "common/cli_run.h"

using ssdtlm::test::run_in;
using ssdtlm::test::slurp;

namespace {

constexpr uint32_t kScreenRows = 44;  // the rows the layout's 1600 x 1000 window shows (wave_layout.cpp)

// The rows GTKWave shows for a .gtkw file, top to bottom, by name ("" for a blank row); a closed group shows its
// header only. Flags: GroupBegin 1 << 23, GroupEnd 1 << 24, Closed 1 << 22.
std::vector<std::string> shown_rows(const std::string& gtkw) {
  std::vector<std::string> rows;
  std::vector<bool> closed;  // enclosing groups
  uint32_t flags = 0;
  std::istringstream in(gtkw);
  std::string line;
  auto visible = [&]() {
    for (bool c : closed)
      if (c) return false;
    return true;
  };
  while (std::getline(in, line)) {
    if (line.rfind("@", 0) == 0) {
      flags = uint32_t(std::stoul(line.substr(1), nullptr, 16));
    } else if (line.rfind("+{", 0) == 0) {
      if (visible()) rows.push_back(line.substr(2, line.find('}') - 2));
    } else if (line.rfind("-", 0) == 0) {
      if (flags & (1u << 23)) {
        if (visible()) rows.push_back("group " + line.substr(1));
        closed.push_back(flags & (1u << 22));
      } else if (flags & (1u << 24)) {
        closed.pop_back();
        if (visible()) rows.push_back("end " + line.substr(1));
      } else if (visible()) {
        rows.push_back("");
      }
    }
  }
  return rows;
}

size_t row_of(const std::vector<std::string>& rows, const std::string& name) {
  for (size_t i = 0; i < rows.size(); ++i)
    if (rows[i] == name) return i;
  return rows.size();
}

std::vector<std::string> layout_of(const std::string& dir, const std::string& extra) {
  const auto r = run_in(dir, "--quiet --out out --vcd run.vcd --set workload.io_count=20000 "
                             "--set precondition.drive_writes=0 " + extra);
  REQUIRE(r.code == 0);
  return shown_rows(slurp(dir + "/run.vcd.gtkw"));
}

}  // namespace

TEST_CASE("waveform layout: no power rows without power modelling, and every die of channel 0 on the first screen",
          "[wave][cli]") {
  const auto rows = layout_of("plain", "");
  INFO(rows.size() << " rows shown");
  CHECK(row_of(rows, "power total_w") == rows.size());
  CHECK(row_of(rows, "group power") == rows.size());
  for (int k = 0; k < 8; ++k) {  // platform generic: 8 dies per channel
    INFO("ch0 die" << k);
    CHECK(row_of(rows, "ch0 die" + std::to_string(k) + " state") < kScreenRows);
  }
}

TEST_CASE("waveform layout: power rows with power modelling on, channel 0's dies still on the first screen",
          "[wave][cli][power]") {
  for (const char* on : {"--set thermal.enabled=true", "--set power.budget_w=8", "--set power.apst=true"}) {
    INFO(on);
    const auto rows = layout_of("power", on);
    CHECK(row_of(rows, "power total_w") < rows.size());
    for (int k = 0; k < 8; ++k) CHECK(row_of(rows, "ch0 die" + std::to_string(k) + " state") < kScreenRows);
  }
}
