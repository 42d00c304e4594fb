// QuantumKeeper::beyond(t) against tlm_quantumkeeper's own test (set(t - now), then need_sync()), for times around
// the sync point, at the start of a quantum and inside one, with quanta of 10 us, 3 us and 0.
#include <catch2/catch.hpp>
#include <systemc>
#include <tlm>

#include <vector>

#include "common/quantum_keeper.h"
#include "common/sim_time.h"

using namespace ssdtlm;

namespace {

struct Checker : sc_core::sc_module {
  std::vector<uint64_t> quanta{10000000, 3000000, 0};
  int checked = 0, synced = 0;
  SC_HAS_PROCESS(Checker);
  explicit Checker(sc_core::sc_module_name n) : sc_module(n) { SC_THREAD(run); }
  void check_all() {
    for (uint64_t q : quanta) {
      tlm::tlm_global_quantum::instance().set(ps_time(q));
      QuantumKeeper qk;
      qk.reset();
      const uint64_t now = now_ps();
      for (uint64_t d : std::vector<uint64_t>{0, 1, 999999, 2499999, 2500000, 2500001, 9999999, 10000000, 10000001,
                                              50000000}) {
        const uint64_t t = now + d;
        qk.set(ps_time(t - now));
        INFO("quantum " << q << " ps, now " << now << " ps, t " << t << " ps");
        REQUIRE(qk.beyond(t) == qk.need_sync());
        ++checked;
        synced += qk.beyond(t);
      }
    }
  }
  void run() {
    check_all();                            // at a quantum's start (0)
    sc_core::wait(ps_time(7500000));        // inside one: 2.5 us left of 10 us, 1.5 us of 3 us
    check_all();
  }
};

}  // namespace

TEST_CASE("quantum keeper: beyond(t) is set(t - now) then need_sync()", "[common]") {
  Checker c("checker");
  sc_core::sc_start();
  CHECK(c.checked == 60);
  CHECK(c.synced > 0);
  CHECK(c.synced < c.checked);
}
