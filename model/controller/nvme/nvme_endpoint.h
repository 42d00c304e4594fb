// The SSD's PCIe/NVMe endpoint at register and transaction level: BAR0 with the NVMe controller registers and
// doorbells (a TLM target socket), DMA to host memory (a TLM initiator socket) for submission entries, PRP
// lists, data, completion entries and MSI-X messages, the PCIe link those cross (pcie_link.h), command
// arbitration and interrupt coalescing (arbiter.h). Fetched I/O commands go to the FTL through CommandSink as
// with the command-level front end; the FTL hands them back through CompletionSink.
//
// Timing: each access is charged on the link's wires at the time it happens (the wires are timelines, as
// the channel controllers' buses); host memory is read and written functionally at once (DMI when the target
// grants it), except completion entries and MSI-X messages, written at the time they reach the host (one
// SC_METHOD wakes per distinct time), so a host sees a completion no earlier than it arrives.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include "common/nvme_command.h"
#include "common/quantum_keeper.h"
#include "controller/dram.h"
#include "controller/nvme/arbiter.h"
#include "controller/nvme/due_queue.h"
#include "controller/nvme/nvme_spec.h"
#include "controller/nvme/pcie_link.h"
#include "controller/nvme/prp.h"
#include "controller/nvme/sgl.h"
#include "power/power_params.h"

namespace ssdtlm {

class Apst;
class ZoneManager;

struct EndpointParams {
  PcieParams pcie;
  uint32_t io_queues = 64;       // I/O queue pairs the controller offers (Number of Queues)
  uint32_t mqes = 4095;          // CAP.MQES: largest queue, 0's based
  uint32_t msix_vectors = 65;    // MSI-X table entries
  uint32_t mdts = 5;             // largest transfer: 2^mdts memory pages of 4 KiB (5 = 128 KiB)
  uint32_t lba_bytes = 512;      // the namespace's LBA size (512 or 4096)
  uint64_t ns_bytes = 16ull << 30;  // namespace capacity
  bool zoned = false;            // the ZNS command set's I/O commands are accepted
  // A zoned namespace's zone descriptor extension size in bytes (zns.zone_ext_bytes: 64-byte units, at most 255 of
  // them; Identify's ZDES): Set Zone Descriptor Extension and Extended Report Zones; 0 = not supported.
  uint32_t zone_ext_bytes = 0;
  // I/O commands processed at once (the controller's command slots, as an NVMe controller IP's outstanding-command
  // limit, e.g. AMD/Xilinx PG329's C_NUM_CMD_INDX): the fetch engine leaves entries in the submission queues while
  // all are busy and arbitrates again when one completes; 0 = no limit.
  uint32_t max_commands = 0;
  uint64_t fetch_ps = 20000;     // arbitration and fetch engine time per command
  uint64_t host_mem_ps = 100000; // host memory (root complex + DRAM) answers a read this long after its request
  uint64_t admin_ps = 2000000;   // firmware time per admin command
  uint64_t ready_ps = 1000000;   // CC.EN written to CSTS.RDY following it
  uint64_t shutdown_ps = 1000000;  // CC.SHN written to CSTS.SHST complete (after the commands in flight)
  // sim.timing=lt: completion entries and MSI-X messages due within the current TLM global quantum are written
  // at once with their time annotated (a write's delay; entries through DMI), one activation per quantum;
  // false: each at its own instant (approximately timed, the reference).
  bool loosely_timed = false;
  // The non-operational power states PS1.. (power.ps_*) the controller reports (Identify: NPSS, APSTA, the power
  // state descriptors) and enters by APST once the host enables it; empty: PS0 only, no APST.
  std::vector<PowerState> power_states;
  // The version VS and Identify's VER report (MJR 31:16, MNR 15:8); 0: NVMe 2.0 with a zoned namespace (the I/O
  // Command Set structures are 2.0's), 1.4 without. A platform (or a test) may report an older controller.
  uint32_t version = 0;
  // The Commands Supported and Effects log page (LPA bit 1); false: a controller without it (tests of the driver).
  bool effects_log = true;
};

// What the endpoint counted (SMART data units, interrupts, link use).
struct EndpointCounters {
  uint64_t commands = 0, admin_commands = 0, reads = 0, writes = 0, bytes_read = 0, bytes_written = 0;
  uint64_t completions = 0, interrupts = 0, errors = 0, doorbell_errors = 0;
  uint64_t fatal_errors = 0;  // host memory errors no completion entry could report (CSTS.CFS set)
  uint64_t zone_reports = 0;  // Zone Management Receive Report Zones and Extended Report Zones served
  uint64_t zones_selected = 0;  // zones Zone Management Send's Select All sent its action to
};

class NvmeEndpoint : public sc_core::sc_module, public CompletionSink, private tlm::tlm_fw_transport_if<> {
 public:
  // Host MMIO: BAR0, bound to this module's own transport interface (one virtual call per access, as
  // common/at_socket.h's modules; any TLM-2.0 initiator socket binds to it).
  tlm::tlm_target_socket<> bar;
  tlm_utils::simple_initiator_socket<NvmeEndpoint> dma;  // bus master: host memory and MSI-X addresses
  DramPort<NvmeEndpoint> dram;  // the data's way through the controller DRAM (unbound: free)

  NvmeEndpoint(sc_core::sc_module_name name, const EndpointParams& p);
  ~NvmeEndpoint() override;
  void bind_backend(CommandSink* b) { backend_ = b; }
  uint64_t complete(NvmeCommand& cmd, uint64_t ready_ps) override;
  // Composite temperature for the SMART log (a thermal model, when the platform has one).
  void set_temperature(std::function<double()> celsius) { temperature_ = std::move(celsius); }
  // The zoned namespace's zone state (the FTL's zoned layer, read only) that Report Zones lists; without it a zoned
  // endpoint answers Zone Management Receive with Invalid Opcode.
  void set_zones(const ZoneManager* zones) { zones_ = zones; }
  // The drive's power states (power/apst.h), driven by Set Features Autonomous Power State Transition: the host's
  // table sets when each state is entered (none until APSTE is set); the first I/O command after idle waits for
  // the exit latency. Needs EndpointParams::power_states, the same states.
  void set_apst(Apst* apst);
  // The controller changed zone `zone`'s state on its own (a media failure made it Read Only): the Changed Zone List
  // log lists it and, when the host enabled them, a Zone Descriptor Changed notice completes an Asynchronous Event
  // Request (nvme_zones.cpp).
  void zone_changed(uint64_t zone);

  const EndpointParams& params() const { return p_; }
  const PcieTlpLink& link() const { return link_; }
  const EndpointCounters& counters() const { return n_; }
  uint32_t csts() const { return csts_; }
  uint32_t version() const { return p_.version ? p_.version : p_.zoned ? nvme::kVersion20 : nvme::kVersion14; }

  struct Command;  // a fetched command in flight (nvme_endpoint.cpp)

 private:
  struct Sq {
    bool live = false;
    uint64_t base = 0;
    uint32_t size = 0, head = 0, tail = 0;
    uint16_t cqid = 0;
  };
  struct Cq {
    bool live = false;
    uint64_t base = 0;
    uint32_t size = 0, head = 0, tail = 0;
    bool phase = true, ien = false;
    uint16_t vector = 0;
    uint32_t sqs = 0;  // submission queues attached
    std::deque<nvme::Cqe> backlog;  // entries waiting for room (the queue was full when they were due)
  };
  enum class Due : uint8_t { Cqe, Msi, Timer, Ready, Fetch };
  struct Event {
    uint64_t t;
    uint64_t seq;
    Due what;
    uint16_t q;  // CQ id (Cqe), vector (Msi, Timer)
    nvme::Cqe cqe;
    bool operator>(const Event& o) const { return t != o.t ? t > o.t : seq > o.seq; }
  };

  // Registers and doorbells (nvme_endpoint.cpp): BAR0's transport interface. An approximately-timed initiator's
  // BEGIN_REQ is answered at once (TLM_COMPLETED, the access's time in `delay`); no DMI, no debug access.
  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) override;
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  bool get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi&) override { return false; }
  unsigned int transport_dbg(tlm::tlm_generic_payload&) override { return 0; }
  uint64_t reg_read(uint32_t off, uint32_t bytes) const;
  void reg_write(uint32_t off, uint64_t v, uint64_t t);
  void write_cc(uint32_t v, uint64_t t);
  bool enable(uint64_t t);
  void reset_queues();
  void doorbell(uint32_t index, uint32_t v, uint64_t t);
  void doorbell_error(uint8_t info);
  void post_event(uint32_t dw0);  // an asynchronous event, to an outstanding request or kept until one comes
  void deliver_events();
  // Fetch, post, interrupt (nvme_endpoint.cpp).
  void fetch(uint64_t t);
  void schedule(uint64_t t, Due what, uint16_t q, const nvme::Cqe& cqe = {});
  void notify_lt(uint64_t t, Due what);  // LT: wake at the start of t's quantum for an entry or a message
  void on_due();
  void write_cqe(uint16_t cqid, nvme::Cqe cqe, uint64_t t);
  void interrupt(uint16_t vector, uint64_t t);
  void send_msi(uint16_t vector, uint64_t delay_ps);  // vector's MSI-X message through `dma`, its time the delay
  // `status` for command `c` of SQ `sqid`, posted when it reaches the host after `t` (DW0 `result`).
  void finish(uint16_t sqid, uint16_t cid, uint16_t status, uint64_t t, uint32_t result = 0, uint32_t dw1 = 0) {
    post(sqid, cid, status, t, result, dw1);
  }
  // Posts the completion entry (ready at t); returns when it is in host memory.
  uint64_t post(uint16_t sqid, uint16_t cid, uint16_t status, uint64_t t, uint32_t result = 0, uint32_t dw1 = 0);
  // Host memory through `dma` (DMI when granted): false when the target answered with an error response.
  bool dma_read(uint64_t addr, void* dst, uint32_t bytes);
  bool dma_write(uint64_t addr, const void* src, uint32_t bytes, uint64_t delay_ps = 0);
  // A PRP list reader for walk_prps that sets `failed` when a list read fails (the entries then read as 0).
  nvme::PrpReader prp_reader(bool& failed);
  // The host memory of a command's data: its PRPs (CDW0.PSDT 00b) or its SGL (01b, 10b; 11b: Invalid Field), a
  // list read the host refused setting `failed`.
  nvme::PrpWalk walk_data(const nvme::Sqe& s, uint64_t bytes, bool& failed);
  void walk_data(const nvme::Sqe& s, uint64_t bytes, bool& failed, nvme::PrpWalk& out);  // into `out`'s capacity
  // An error the controller cannot report in a completion queue (a submission entry it cannot read, a completion
  // entry it cannot write): CSTS.CFS, RDY cleared, nothing more fetched until the host resets (NVMe 1.4 §3.1.6).
  void fatal();
  void invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end);  // the target withdrew its DMI grant
  // Admin commands (nvme_admin.cpp).
  void admin(const nvme::Sqe& s, uint64_t t);
  uint16_t create_cq(const nvme::Sqe& s);
  uint16_t create_sq(const nvme::Sqe& s);
  uint16_t delete_sq(const nvme::Sqe& s);
  uint16_t delete_cq(const nvme::Sqe& s);
  uint16_t identify(const nvme::Sqe& s, uint64_t t, uint64_t& done);
  // Identify CNS 03h (the namespace's Command Set Identifier), 05h and 06h (I/O Command Set specific: ZNS's with
  // CSI 02h), 1Ch (the command set combinations) into `d` (nvme_zones.cpp); false: not one of these CNS values.
  bool identify_command_set(const nvme::Sqe& s, uint8_t* d, uint16_t& status) const;
  uint16_t features(const nvme::Sqe& s, bool set, uint32_t& result);
  uint16_t log_page(const nvme::Sqe& s, uint64_t t, uint64_t& done);
  std::vector<uint8_t> effects_log(uint32_t csi) const;  // Commands Supported and Effects; empty: a CSI not served
  uint64_t copy_out(const nvme::Sqe& s, const void* data, uint32_t bytes, uint64_t t, uint16_t& status);
  uint64_t copy_in(const nvme::Sqe& s, void* data, uint32_t bytes, uint64_t t, uint16_t& status);  // host to device
  // Power states and APST (nvme_power.cpp).
  void power_descriptors(uint8_t* identify_controller) const;
  uint16_t apst_feature(const nvme::Sqe& s, bool set, uint64_t t, uint64_t& done, uint32_t& result);
  // Power Management (FID 02h) at `t` (PS0 chosen: `t` moves past the exit latency).
  uint16_t power_feature(bool set, uint32_t value, uint64_t& t, uint32_t& result);
  // The host's APST table as Apst's idle times (Apst::kNever: a state not entered); false: a transition the model
  // refuses (to an operational, a shallower or an unsupported state).
  bool apst_idle_times(const std::array<uint64_t, 32>& table, std::vector<uint64_t>& idle) const;
  // I/O commands (nvme_io.cpp).
  void io(uint16_t sqid, const nvme::Sqe& s, uint64_t t);
  uint16_t check_range(const nvme::Sqe& s, uint64_t slba, uint32_t nlb) const;
  void submit_rw(uint16_t sqid, const nvme::Sqe& s, uint64_t t);
  void submit_dsm(uint16_t sqid, const nvme::Sqe& s, uint64_t t);
  void submit_zone(uint16_t sqid, const nvme::Sqe& s, uint64_t t);
  // Zone Management Receive (nvme_zones.cpp): Report Zones from zone `first_zone` on, `filter` its Reporting
  // Options, into `bytes` bytes.
  void submit_zone_receive(uint16_t sqid, const nvme::Sqe& s, uint64_t t);
  // `extended`: Extended Report Zones, each descriptor followed by its zone descriptor extension.
  std::vector<uint8_t> zone_report(uint64_t first_zone, uint32_t filter, bool partial, bool extended,
                                   uint32_t bytes) const;
  // Set Zone Descriptor Extension (nvme_zones.cpp): the extension read from host memory, the zone's state change
  // left to the FTL's zoned layer; `c` the command submitted.
  void submit_zone_extension(Command* c, const nvme::Sqe& s, uint64_t t);
  void keep_extension(Command& c);  // the zone took the extension: Extended Report Zones lists it
  // The Changed Zone List log page (4 KiB); `clear` (Retain Asynchronous Event 0): the list empties, the notice
  // is unmasked.
  std::vector<uint8_t> changed_zone_log(bool clear);
  void submit_zone_all(uint16_t sqid, const nvme::Sqe& s, uint64_t t);  // Select All: the action on each zone it selects
  Command* make(uint16_t sqid, const nvme::Sqe& s);
  void release(Command* c);

  EndpointParams p_;
  PcieTlpLink link_;
  CommandSink* backend_ = nullptr;
  std::function<double()> temperature_;
  const ZoneManager* zones_ = nullptr;
  std::unordered_map<uint64_t, std::vector<uint8_t>> zone_ext_;  // the extensions the host set, by zone
  Apst* apst_ = nullptr;
  bool apste_ = false;                       // Autonomous Power State Transition Enable
  std::array<uint64_t, 32> apst_table_{};    // the host's table as it wrote it (Get Features returns it)
  // Registers.
  uint32_t cc_ = 0, csts_ = 0, aqa_ = 0, intms_ = 0;
  uint64_t asq_ = 0, acq_ = 0;
  uint32_t page_ = 4096;
  std::vector<uint32_t> msix_;  // 4 dwords per vector
  std::vector<Sq> sq_;
  std::vector<Cq> cq_;
  nvme::Arbiter arb_;
  std::vector<nvme::Coalescer> coalesce_;
  std::vector<bool> coalesce_off_;  // Interrupt Vector Configuration's CD per vector
  uint32_t granted_queues_ = 0;      // Number of Queues granted (0's based in the feature; here a count)
  uint32_t arbitration_ = 0;         // Set Features Arbitration's value
  uint32_t coalescing_ = 0;          // Set Features Interrupt Coalescing's value
  // Time.
  uint64_t engine_free_ = 0;
  uint64_t ready_at_ = 0;
  bool in_fetch_ = false;
  bool fetch_due_ = false;  // a Due::Fetch is scheduled (the engine is busy beyond the fetch window)
  uint32_t active_ = 0;     // I/O commands fetched whose completion entry is not yet posted (max_commands)
  nvme::DueQueue<Event> due_;
  uint64_t seq_ = 0;
  sc_core::sc_event due_ev_;
  QuantumKeeper qk_;  // LT: how far on_due may run ahead
  bool in_due_ = false;              // on_due is running (LT: it takes what is scheduled meanwhile)
  // When due_ev_ is notified for (none: ~0). AT: a notification for a later time than one pending is not made (the
  // kernel would ignore it); LT: the start of the quantum the next item is due in.
  uint64_t wake_at_ = ~uint64_t(0);
  std::vector<uint16_t> msi_now_;    // AT: the vectors whose messages on_due sends after its loop
  // Commands in flight and a pool of free ones; asynchronous event requests waiting; the error log.
  std::vector<Command*> free_;
  uint32_t in_flight_ = 0;
  std::vector<uint16_t> aer_cids_;
  std::vector<uint32_t> pending_aen_;  // events (completion DW0) not yet reported
  uint32_t aec_ = 0;                  // Asynchronous Event Configuration (Set Features 0Bh)
  bool zdc_masked_ = false;           // a Zone Descriptor Changed notice sent, its log not yet read
  std::vector<uint64_t> changed_zones_;  // the Changed Zone List: zones changed since the host last read it
  bool changed_overflow_ = false;        // more than the log's 511 identifiers
  std::deque<std::array<uint32_t, 16>> error_log_;
  uint64_t error_count_ = 0;
  EndpointCounters n_;
  tlm::tlm_dmi dmi_;
  bool dmi_ok_ = false;
  nvme::PrpWalk walk_;                // submit_rw's walk: its data vector trades places with the command's
  tlm::tlm_generic_payload dma_gp_;  // dma_write's payload, reused
  bool dma_busy_ = false;            // a write is under way (a nested one takes a payload of its own)
};

}  // namespace ssdtlm
