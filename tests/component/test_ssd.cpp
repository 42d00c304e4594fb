// ssdtlm::Ssd (include/ssdtlm/ssd.h) on its own: BAR0 decoded at its bus address, the driver model bringing it up
// and doing I/O through it, what status() counts, DMI to host memory granted and dropped on invalidation, and bad
// configuration refused before anything is built.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "common/sim_time.h"
#include "controller/nvme/nvme_spec.h"
#include "host/host_memory.h"
#include "host/nvme_driver.h"
#include "host/nvme_driver_up.h"
#include "ssdtlm/ssd.h"

using namespace ssdtlm;

namespace {

constexpr uint64_t kBar0 = 0x40000000;

SsdConfig tiny() {
  SsdConfig c;
  c.overrides = {"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                 "geometry.pages_per_block=64", "buffer.bytes=4194304", "precondition.fill=false",
                 "precondition.drive_writes=0"};
  c.bar0_base = kBar0;
  return c;
}

// Between the Ssd's DMA and host memory: counts what passes and can withdraw the DMI grant, as a bus or a memory
// controller may.
struct DmaTap : sc_core::sc_module {
  tlm_utils::simple_target_socket<DmaTap> tsock{"tsock"};
  tlm_utils::simple_initiator_socket<DmaTap> isock{"isock"};
  uint64_t transports = 0, dmi_requests = 0;
  explicit DmaTap(sc_core::sc_module_name n) : sc_module(n) {
    tsock.register_b_transport(this, &DmaTap::b_transport);
    tsock.register_get_direct_mem_ptr(this, &DmaTap::get_dmi);
  }
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& d) {
    ++transports;
    isock->b_transport(gp, d);
  }
  bool get_dmi(tlm::tlm_generic_payload& gp, tlm::tlm_dmi& dmi) {
    ++dmi_requests;
    return isock->get_direct_mem_ptr(gp, dmi);
  }
  void withdraw() { tsock->invalidate_direct_mem_ptr(0, ~sc_dt::uint64(0)); }
};

struct Bench : sc_core::sc_module {
  Ssd ssd;
  HostMemory mem;
  NvmeDriver drv;
  DmaTap tap;
  std::function<void(Bench&)> script;
  bool finished = false;
  static DriverParams driver_params() {
    DriverParams d;
    d.io_queues = 2;
    d.queue_entries = 17;
    d.bar_base = kBar0;
    return d;
  }
  explicit Bench(sc_core::sc_module_name n)
      : sc_module(n), ssd("ssd", tiny()), mem("mem", 0x100000, NvmeDriver::memory_bytes(driver_params(), 1u << 20)),
        drv("drv", mem, driver_params()), tap("tap") {
    drv.bar.bind(ssd.bar);
    ssd.dma.bind(tap.tsock);
    tap.isock.bind(mem.tsock);
    SC_HAS_PROCESS(Bench);
    SC_THREAD(run);
  }
  void run() {
    script(*this);
    finished = true;
  }
  // `n` commands of one 4 KiB block each at blocks first, first + 1, ..., 16 in flight; the statuses' OR.
  uint16_t io(uint8_t opcode, uint64_t first, uint32_t n) {
    uint32_t issued = 0, done = 0;
    uint16_t status = 0;
    sc_core::sc_event ev;
    const uint32_t per_block = 4096 / drv.lba_bytes();
    while (done < n) {
      while (issued < n && issued - done < 16) {
        NvmeDriver::Io x;
        x.opcode = opcode, x.slba = (first + issued) * per_block, x.nlb = per_block, x.queue = uint16_t(issued % 2);
        REQUIRE(drv.submit(x, [&](const Completion& c) {
          status |= c.status, ++done;
          ev.notify(sc_core::SC_ZERO_TIME);
        }));
        ++issued;
      }
      sc_core::wait(ev);
    }
    return status;
  }
};

}  // namespace

TEST_CASE("ssd component: the driver brings it up at its BAR address, writes and reads back, status agrees") {
  Bench b("bench");
  uint64_t dmi_after_io = 0, transports_after_io = 0;
  b.script = [&](Bench& x) {
    require_up(x.drv);
    CHECK(x.drv.ns_lbas() * x.drv.lba_bytes() == x.ssd.namespace_bytes());
    CHECK(x.io(nvme::kWrite, 100, 256) == 0);
    CHECK(x.io(nvme::kRead, 100, 256) == 0);
    dmi_after_io = x.tap.dmi_requests, transports_after_io = x.tap.transports;
    x.tap.withdraw();  // the next fetch goes through the socket again and asks for DMI anew
    CHECK(x.io(nvme::kRead, 100, 64) == 0);
    require_down(x.drv);
  };
  sc_core::sc_start(ps_time(10000000000000ull));
  REQUIRE(b.finished);
  const SsdStatus s = b.ssd.finish();
  CHECK(s.writes == 256);
  CHECK(s.reads == 320);
  CHECK(s.bytes_written == 256 * 4096);
  // Identify controller, namespace and its descriptor list, Number of Queues, a CQ and an SQ per queue pair
  CHECK(s.admin_commands == 4 + 2 * 2);
  CHECK(s.commands == s.admin_commands + s.reads + s.writes);
  CHECK(s.completions == s.commands);
  CHECK(s.errors == 0);
  CHECK(s.doorbell_errors == 0);
  CHECK(s.interrupts == s.completions);  // no coalescing: one MSI-X message per completion entry
  CHECK(b.mem.msi_writes() == s.interrupts);
  CHECK(s.integrity_enabled);
  CHECK(s.integrity_checked_reads == 320);
  CHECK(s.integrity_errors == 0);
  CHECK(s.link_up_busy > 0);
  CHECK(s.link_down_busy > 0);
  // DMI: granted once before the withdrawal, asked for once more after it.
  CHECK(dmi_after_io == 1);
  CHECK(b.tap.dmi_requests == 2);
  // With DMI the endpoint's reads (entries, PRP lists) bypass the socket: what passes is mostly writes (completion
  // entries and MSI-X messages, two per command).
  CHECK(transports_after_io < 2 * (s.commands - 64) + 16);
}

// An initiator reading BAR0 at bus addresses, from a thread (the socket is resolved at elaboration's end).
struct BarProbe : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<BarProbe> isock{"isock"};
  std::vector<uint64_t> addresses;
  std::vector<tlm::tlm_response_status> status;
  std::vector<uint64_t> value, addr_after, delay_ps;
  explicit BarProbe(sc_core::sc_module_name n) : sc_module(n) {
    SC_HAS_PROCESS(BarProbe);
    SC_THREAD(run);
  }
  void run() {
    for (uint64_t a : addresses) {
      uint64_t v = 0;
      tlm::tlm_generic_payload gp;
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(a);
      gp.set_data_ptr(reinterpret_cast<unsigned char*>(&v));
      gp.set_data_length(8);
      gp.set_streaming_width(8);
      gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      sc_core::sc_time d = sc_core::SC_ZERO_TIME;
      isock->b_transport(gp, d);
      status.push_back(gp.get_response_status());
      value.push_back(v);
      addr_after.push_back(gp.get_address());
      delay_ps.push_back(uint64_t(d.value()));
    }
  }
};

TEST_CASE("ssd component: BAR0 is decoded at its bus address") {
  Ssd ssd("ssd", tiny());
  BarProbe probe("probe");
  HostMemory mem("mem", 0x100000, 1 << 20);
  probe.isock.bind(ssd.bar);
  ssd.dma.bind(mem.tsock);
  probe.addresses = {kBar0 - 8, kBar0 + Ssd::kBar0Bytes, kBar0 + nvme::kCap};
  sc_core::sc_start(ps_time(1000000000ull));
  REQUIRE(probe.status.size() == 3);
  CHECK(probe.status[0] == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(probe.status[1] == tlm::TLM_ADDRESS_ERROR_RESPONSE);
  CHECK(probe.status[2] == tlm::TLM_OK_RESPONSE);
  CHECK((probe.value[2] & 0xFFFF) == 4095);           // CAP.MQES: the endpoint's 4096-entry queues
  CHECK(probe.addr_after[2] == kBar0 + nvme::kCap);   // the initiator's address is given back
  CHECK(probe.delay_ps[2] > 0);                       // a read's round trip over the link
}

TEST_CASE("ssd component: bad configuration is refused before anything is built") {
  const auto refused = [](SsdConfig c, const std::string& name) {
    try {
      Ssd ssd(name.c_str(), c);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  SsdConfig c = tiny();
  c.overrides.push_back("nvme.interface=command");
  CHECK_THAT(refused(c, "a"), Catch::Contains("nvme.interface"));
  c = tiny();
  c.bar0_base = kBar0 + 0x1000;
  CHECK_THAT(refused(c, "b"), Catch::Contains("bar0_base"));
  c = tiny();
  c.overrides.push_back("geometry.channels=0");
  CHECK_THAT(refused(c, "c"), Catch::Contains("geometry.channels"));
  c = tiny();
  c.files.push_back("no_such_ssd_config.json");
  CHECK_THAT(refused(c, "d"), Catch::Contains("no_such_ssd_config.json"));
}
