// --help-config [KEY-PREFIX] and --print-config as a user meets them: every platform's own defaults (its
// config.json applied), the prefix filter, and the effective configuration printed without simulating.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/cli_run.h"
#include "config/config.h"

using Catch::Matchers::Contains;
using ssdtlm::test::CliRun;
using ssdtlm::test::run_in;
using ssdtlm::test::slurp;
namespace fs = std::filesystem;

namespace {

// The dotted paths of the leaves a platform's config.json sets (the jobs array left out: it is one key).
void leaf_keys(const nlohmann::json& j, const std::string& prefix, std::vector<std::string>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object())
      leaf_keys(*it, path, out);
    else if (path != "jobs")
      out.push_back(path);
  }
}

// The table row of `key` in --help-config's output ("" when missing).
std::string row_of(const std::string& table, const std::string& key) {
  const std::string start = "| `" + key + "` |";
  const size_t at = table.find(start);
  if (at == std::string::npos) return "";
  return table.substr(at, table.find('\n', at) - at);
}

// The default cell of a row: "| `key` | type | `default` | ...".
std::string default_cell(const std::string& row) {
  size_t bar = 0;
  for (int n = 0; n < 2 && bar != std::string::npos; ++n) bar = row.find('|', bar + 1);
  const size_t end = row.find('|', bar + 1);
  std::string cell = row.substr(bar + 1, end - bar - 1);
  cell.erase(0, cell.find_first_not_of(' '));
  cell.erase(cell.find_last_not_of(' ') + 1);
  return cell;
}

}  // namespace

TEST_CASE("cli: ssdtlm-<platform> --help-config KEY prints that platform's default, for every platform", "[cli][config]") {
  size_t platforms = 0, checked = 0;
  for (auto& entry : fs::directory_iterator(fs::path(SSDTLM_SOURCE_DIR) / "platforms")) {
    const fs::path file = entry.path() / "config.json";
    if (!fs::is_regular_file(file)) continue;
    const std::string name = entry.path().filename().string();
    ssdtlm::Config defaults;  // the built-in defaults with the platform's file applied
    defaults.merge_text(slurp(file), file.string());
    std::vector<std::string> keys;
    leaf_keys(nlohmann::json::parse(slurp(file)), "", keys);
    keys.push_back("sim.seed");  // a key no platform sets: the built-in default
    ++platforms;
    for (auto& key : keys) {
      INFO("ssdtlm-" << name << " --help-config " << key);
      const CliRun r = run_in("help_" + name, "--help-config " + key, name);
      REQUIRE(r.code == 0);
      const std::string row = row_of(r.out, key);
      REQUIRE(!row.empty());
      const ssdtlm::KeySpec* spec = ssdtlm::find_key(key);
      REQUIRE(spec);
      nlohmann::json want = spec->type == ssdtlm::KeyType::Int    ? nlohmann::json(defaults.i(key))
                            : spec->type == ssdtlm::KeyType::Real ? nlohmann::json(defaults.d(key))
                            : spec->type == ssdtlm::KeyType::Bool ? nlohmann::json(defaults.b(key))
                                                                  : nlohmann::json(defaults.s(key));
      CHECK(default_cell(row) == "`" + want.dump() + "`");
      ++checked;
    }
  }
  CHECK(platforms >= 6);
  CHECK(checked > 50);
  // The one the issue found wrong: PTSD's board maps by PTSD entries, not pages.
  CHECK_THAT(run_in("help_ptsd", "--help-config ftl.mapping", "ptsd_board").out, Contains("`\"ptsd_entry\"`"));
}

TEST_CASE("cli: --help-config PREFIX lists only the keys that start with it, and no match exits 2", "[cli][config]") {
  const CliRun geometry = run_in("prefix", "--help-config geometry.");
  REQUIRE(geometry.code == 0);
  CHECK_THAT(geometry.out, Contains("`geometry.channels`"));
  CHECK_THAT(geometry.out, !Contains("`buffer.bytes`"));
  const CliRun inline_form = run_in("prefix", "--help-config=buffer.");
  CHECK(inline_form.code == 0);
  CHECK_THAT(inline_form.out, Contains("`buffer.bytes`"));
  CHECK_THAT(inline_form.out, !Contains("`geometry.channels`"));
  const CliRun all = run_in("prefix", "--help-config");
  CHECK(all.code == 0);
  CHECK(all.out.size() > geometry.out.size() * 5);
  const CliRun none = run_in("prefix", "--help-config nosuchkey");
  CHECK(none.code == 2);
  CHECK_THAT(none.err, Contains("no configuration key starts with"));
  CHECK_THAT(none.err, Contains("nosuchkey"));
}

TEST_CASE("cli: --print-config prints the effective configuration and exits 0 without simulating", "[cli][config]") {
  const std::string dir = ssdtlm::test::fresh("print");
  std::ofstream(fs::path(dir) / "layer.json") << R"({"buffer": {"bytes": "2M"}})";
  const CliRun r = run_in(dir, "--out out --config layer.json --set geometry.channels=3 --print-config", "ptsd_board");
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.err.empty());
  CHECK_FALSE(fs::exists(fs::path(dir) / "out"));  // nothing simulated, nothing written
  const nlohmann::json c = nlohmann::json::parse(r.out);
  CHECK(c["geometry"]["channels"] == 3);          // --set
  CHECK(c["buffer"]["bytes"] == 2 << 20);         // --config
  CHECK(c["ftl"]["mapping"] == "ptsd_entry");     // the platform's default
  CHECK(c["geometry"]["dies_per_channel"] == 8);  // the platform's default
  // The same document a run writes as config.json.
  const std::string small = ssdtlm::test::kSmallDrive + " --set workload.io_count=64";
  const CliRun printed = run_in(dir, "--quiet --out out2" + small + " --print-config");
  REQUIRE(printed.code == 0);
  REQUIRE(run_in(dir, "--quiet --out out2" + small).code == 0);
  CHECK(nlohmann::json::parse(printed.out) == nlohmann::json::parse(slurp(fs::path(dir) / "out2" / "config.json")));
  // A configuration a run would refuse is refused here too (exit 2, naming the key).
  const CliRun bad = run_in(dir, "--set geometry.page_bytes=1000 --print-config");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("geometry.page_bytes"));
}
