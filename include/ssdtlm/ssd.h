// ssdtlm::Ssd — the SSD as a SystemC/TLM-2.0 component a virtual platform instantiates: a PCIe NVMe endpoint
// (NVMe 1.4 registers and doorbells in BAR0, submission entries, PRP lists and data moved by bus-master DMA,
// completion entries with their phase tag, MSI-X) over the whole drive model (FTL, write buffer, controller
// DRAM, flash channels and dies), timed as the ssdtlm-generic platform with nvme.interface=register.
//
// Sockets (TLM-2.0 base protocol, blocking transport, 32-bit bus width):
//   bar  target socket: the host's MMIO to BAR0. Addresses are bus addresses in [bar0_base, bar0_base +
//        kBar0Bytes): controller registers at +0 (CAP, VS, INTMS, INTMC, CC, CSTS, AQA, ASQ, ACQ), doorbells at
//        +1000h (stride 4 bytes), the MSI-X table at +10000h. 4- and 8-byte accesses, naturally aligned; anything
//        else answers TLM_ADDRESS_ERROR_RESPONSE. A read returns `delay` = its round trip over the PCIe link.
//   dma  initiator socket: the endpoint as bus master, with the bus addresses the host wrote into the queues,
//        PRPs and MSI-X table: submission entries and PRP lists read, completion entries written, data charged on
//        the link (the model carries no data values), and each MSI-X message written (4 bytes of message data to
//        the message address). It asks for DMI and uses it when granted; it honours invalidate_direct_mem_ptr.
// Interrupts: MSI-X only, as PCIe delivers them: a memory write through `dma` of the vector's message data to
// its message address, at the time the message reaches the host. Route that address to your interrupt
// controller (a local APIC window, an IMSIC, a GIC ITS). There is no legacy INTx pin and no callback.
// Configuration: the ssdtlm configuration keys (docs/reference/config.md; `ssdtlm-generic --help-config`):
// the generic platform's defaults, then each file of `files`, then each of `overrides` ("key.path=value"), with
// nvme.interface=register implied. Keys of the host side (host.*, jobs) do not apply: the host is yours; workload.*
// only as the pattern precondition.drive_writes overwrites with. precondition.* is applied at construction (the
// drive is filled before time 0, as in a platform run). The endpoint offers 64 I/O queue pairs of up to 4096
// entries, 65 MSI-X vectors and an MDTS of 1 MiB.
// Timing: approximately timed by default; sim.timing=lt makes the endpoint loosely timed (completion entries
// written through DMI and MSI-X messages sent with their time as the b_transport delay, a quantum at a time;
// docs/reference/timing_modes.md), on your platform's TLM global quantum when it has set one, else sim.quantum_ns.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

struct SsdConfig {
  std::vector<std::string> files;      // configuration files (JSON), applied in order over the defaults
  std::vector<std::string> overrides;  // "key.path=value", applied after the files
  uint64_t bar0_base = 0;              // BAR0's bus address (what enumeration writes into the BAR)
};

// What the drive counted since construction (after preconditioning).
struct SsdStatus {
  uint64_t commands = 0, admin_commands = 0;   // fetched from the submission queues
  uint64_t reads = 0, writes = 0;              // Read and Write commands
  uint64_t bytes_read = 0, bytes_written = 0;  // the host's data (SMART data units count these)
  uint64_t completions = 0, errors = 0;        // completion entries posted; those with a non-zero status
  uint64_t interrupts = 0;                     // MSI-X messages sent
  uint64_t doorbell_errors = 0;                // doorbell writes refused (asynchronous event: invalid doorbell)
  uint64_t nand_programs = 0;                  // page programs (host, map, GC, fold)
  double waf = 0;                              // NAND bytes programmed / host bytes written
  double link_up_busy = 0, link_down_busy = 0; // PCIe link: fraction of simulated time each direction was busy
  bool integrity_enabled = false;              // check.integrity: every read checked against the last write
  uint64_t integrity_checked_reads = 0, integrity_errors = 0;
  std::string integrity_first_error;
};

class Ssd : public sc_core::sc_module {
 public:
  static constexpr uint64_t kBar0Bytes = 0x20000;  // BAR0's size: a 128 KiB memory BAR, naturally aligned

  tlm_utils::simple_target_socket<Ssd> bar;  // MMIO to BAR0, from the host's bus
  tlm::tlm_initiator_socket<> dma;            // bus master, to host memory (and the MSI-X address)

  // Reads and checks the configuration, builds the drive and preconditions it. Bad input throws an exception
  // derived from std::runtime_error whose message names the file or key and what was expected; nothing is
  // simulated then.
  Ssd(sc_core::sc_module_name name, const SsdConfig& config = {});
  ~Ssd() override;

  uint64_t bar0_base() const { return bar0_base_; }
  uint64_t namespace_bytes() const;  // the namespace's capacity (Identify Namespace reports it in LBAs)
  SsdStatus status() const;
  // Fault injection (tests, fault studies): zone `zone` of a zoned namespace turns Read Only, a media failure the
  // ZNS specification lets a controller report (its data stays readable; Offline Zone may then take it offline). The
  // endpoint lists it in the Changed Zone List and sends a Zone Descriptor Changed notice if the host enabled it.
  // False without zns.enabled or for a zone the namespace does not have.
  bool fail_zone_read_only(uint64_t zone);
  // At the end of the simulation: the whole logical-to-physical map checked once against the integrity
  // checker (as a platform run ends), then status().
  SsdStatus finish();

 private:
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);
  struct Drive;  // the drive model behind the endpoint (component/ssd.cpp)
  std::unique_ptr<Drive> drive_;
  tlm_utils::simple_initiator_socket<Ssd> to_endpoint_;  // bar, its address made BAR-relative
  uint64_t bar0_base_ = 0;
};

}  // namespace ssdtlm
