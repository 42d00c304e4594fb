// sim.timing=lt (docs/reference/timing_modes.md): a loosely-timed run stays within the tolerances the page states
// against the approximately-timed reference (IOPS and WAF 2 %, mean latency 5 %) at the default quantum, on both
// NVMe interfaces, with fewer process activations per I/O (the decoupling happens); a bad sim.timing or
// sim.quantum_ns is refused with exit 2 naming the key.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

#include "common/cli_run.h"

using Catch::Matchers::Contains;
using ssdtlm::test::run_cli;
using ssdtlm::test::run_in;

namespace {

// The small drive, overwritten once so GC runs, a mixed random workload deep enough that completions crowd.
const std::string kMixed = ssdtlm::test::kSmallDrive +
                           " --set precondition.drive_writes=1 --set workload.read_fraction=0.5 --set host.queues=4"
                           " --set host.queue_depth=16 --set workload.io_count=20000 --set check.integrity=true";

double mean_latency(const nlohmann::json& s) {
  const auto& l = s["host"]["latency_us"];
  const double n = l["read"]["count"].get<double>() + l["write"]["count"].get<double>();
  return (l["read"]["mean"].get<double>() * l["read"]["count"].get<double>() +
          l["write"]["mean"].get<double>() * l["write"]["count"].get<double>()) / n;
}

double rel(double a, double b) { return std::abs(a - b) / b; }

}  // namespace

TEST_CASE("timing modes: LT within 2 % IOPS and WAF, 5 % mean latency of AT, with fewer activations", "[cli][timing]") {
  for (const std::string iface : {"command", "register"}) {
    INFO("nvme.interface=" << iface);
    const std::string args = kMixed + " --set nvme.interface=" + iface;
    const nlohmann::json at = run_cli("at_" + iface, args);
    const nlohmann::json lt = run_cli("lt_" + iface, args + " --set sim.timing=lt");
    CHECK(lt["host"]["ios"] == at["host"]["ios"]);
    CHECK(rel(lt["host"]["iops"].get<double>(), at["host"]["iops"].get<double>()) < 0.02);
    CHECK(rel(lt["waf"]["total"].get<double>(), at["waf"]["total"].get<double>()) < 0.02);
    CHECK(rel(mean_latency(lt), mean_latency(at)) < 0.05);
    CHECK(lt["integrity"]["errors"] == 0);
    CHECK(lt["integrity"]["checked_reads"].get<double>() > 0);
    // The host (and on the register interface the endpoint and the driver) take a quantum's completions in one
    // activation: clearly fewer per I/O than one per completion instant.
    CHECK(lt["kernel"]["activations_per_io"].get<double>() < 0.95 * at["kernel"]["activations_per_io"].get<double>());
  }
}

TEST_CASE("timing modes: a bad sim.timing or sim.quantum_ns is refused with exit 2 naming the key", "[cli][timing]") {
  const std::string small = ssdtlm::test::kSmallDrive + " --set workload.io_count=100 --out out";
  const auto refused = [&](const std::string& sets, const std::string& key) {
    INFO(sets);
    const auto r = run_in("bad", small + " " + sets);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Contains(key));
  };
  refused("--set sim.timing=loose", "sim.timing");
  refused("--set sim.timing=lt --set sim.quantum_ns=0", "sim.quantum_ns");
  refused("--set sim.timing=lt --set sim.quantum_ns=-5", "sim.quantum_ns");
  refused("--set sim.quantum_ns=5000", "sim.quantum_ns");  // a quantum without sim.timing=lt changes nothing
  CHECK(run_in("good", small + " --set sim.timing=lt --set sim.quantum_ns=5000").code == 0);
}
