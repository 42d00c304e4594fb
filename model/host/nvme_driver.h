// The host's NVMe driver, as Linux's nvme driver works a controller, through the register interface alone:
// MMIO to BAR0 (a TLM initiator socket) and host memory it shares with the device (HostMemory). init() brings
// the controller up from reset (disable, wait for CSTS.RDY = 0, admin queue in AQA/ASQ/ACQ, enable, wait for
// RDY, Identify, Set Features Number of Queues, arbitration, interrupt coalescing, then one completion and one
// submission queue per host core, blk-mq style). submit() writes a submission entry into the queue's memory
// and rings its tail doorbell; completions arrive by MSI-X (or polling), are reaped by their phase tag and
// acknowledged with the head doorbell. Host CPU time per submission, interrupt and completion is charged.
#pragma once
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "controller/nvme/nvme_spec.h"
#include "host/host_memory.h"

namespace ssdtlm {

struct DriverParams {
  uint32_t io_queues = 1;          // queue pairs (one per host core)
  uint32_t queue_entries = 64;     // entries per I/O queue (at most CAP.MQES + 1)
  uint32_t admin_entries = 32;
  uint64_t submit_cpu_ps = 0;      // host CPU time to build an entry and ring the doorbell
  uint64_t interrupt_cpu_ps = 0;   // interrupt entry to the handler reaping its queue
  uint64_t completion_cpu_ps = 0;  // per completion entry reaped
  bool polling = false;            // no interrupts: the queue is polled every poll_ps
  uint64_t poll_ps = 1000000;
  uint32_t coalesce_threshold = 0; // Interrupt Coalescing's aggregation threshold (0 = no coalescing)
  uint32_t coalesce_time_100us = 0;  // its aggregation time, in 100 us units
  bool wrr = false;                // weighted round robin with urgent class (CC.AMS = 001b)
  uint8_t hpw = 0, mpw = 0, lpw = 0;  // its weights, 0's based
  uint8_t arbitration_burst = 0;      // Set Features Arbitration AB: 2^n commands, 7 = no limit
  std::vector<uint8_t> queue_prio;    // per I/O queue: 0 urgent, 1 high, 2 medium (default), 3 low
  // Autonomous Power State Transition: when the controller supports it (Identify APSTA), the driver writes its table
  // and enables it, as Linux's nvme_configure_apst. apst_itpt_ms: per non-operational state PS1.., the idle time (ms)
  // in the state before it prior to the transition into it, each state to the next; empty: Linux's rule, each
  // non-operational state with an exit latency up to 100 ms entered from the state before after 50 x (its entry +
  // exit latency), rounded up to ms.
  bool apst = false;
  std::vector<uint32_t> apst_itpt_ms;
  uint64_t bar_base = 0;              // BAR0's bus address: MMIO goes to bar_base + the register's offset
  // sim.timing=lt: an interrupt is handled in the context that raised it, at the message's annotated time (the
  // driver runs ahead of sc_time with its initiator); false: at its own instant, one activation per interrupt.
  bool loosely_timed = false;
};

struct Completion {
  uint16_t status = 0;  // status code type and code (nvme::Status), without DNR
  uint32_t result = 0;  // DW0
  uint32_t hint = 0;    // DW1: the model's account of a read (controller/nvme/nvme_io.cpp), not an NVMe field
  uint64_t done_ps = 0; // when the host CPU has it (after interrupt and completion costs)
};

class NvmeDriver : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<NvmeDriver> bar;

  NvmeDriver(sc_core::sc_module_name name, HostMemory& mem, const DriverParams& p);
  // Host memory the driver needs for `p` with transfers up to `max_transfer` bytes.
  static uint64_t memory_bytes(const DriverParams& p, uint64_t max_transfer);
  // From an SC_THREAD: brings the controller up; false with `error` set when it fails (CSTS.CFS, a timeout, an
  // admin command's status).
  bool init(std::string* error);
  // Disables the controller after a normal shutdown (CC.SHN, wait for CSTS.SHST complete). From an SC_THREAD.
  bool shutdown(std::string* error);

  struct Io {
    uint8_t opcode = nvme::kRead;
    uint64_t slba = 0;
    uint32_t nlb = 1;             // LBAs (not 0's based)
    uint16_t queue = 0;           // I/O queue, 0-based
    uint8_t dtype = 0;            // directive type: 1 streams, 2 FDP
    uint16_t dspec = 0;
    bool fua = false;
    uint32_t ranges = 0;          // Dataset Management: its one range (nlb LBAs at slba) is written to memory
    uint32_t zsa = 0;             // Zone Management Send action
    uint32_t hint_pc = 0, hint_proc = 0, hint_slot_run = 0, hint_next = ~0u;  // simulator hints (endpoint)
  };
  // Submits now (plus the submission's CPU time); false when the queue is full. `done` runs at completion.
  bool submit(const Io& io, std::function<void(const Completion&)> done);
  // The same at `at_ps` >= now (a loosely-timed caller's local time: the doorbell write carries the difference).
  bool submit(const Io& io, std::function<void(const Completion&)> done, uint64_t at_ps);
  bool loosely_timed() const { return p_.loosely_timed; }
  // A raw entry on I/O queue `queue` or on the admin queue (kAdminQueue) without waiting (tests: malformed
  // commands, asynchronous event requests); the driver sets the command id.
  static constexpr uint16_t kAdminQueue = 0xFFFF;
  bool submit_raw(uint16_t queue, nvme::Sqe e, std::function<void(const Completion&)> done);
  // From an SC_THREAD: an admin command, waited for.
  Completion admin(nvme::Sqe e);
  // MMIO, from an SC_THREAD (reads wait for their completion).
  uint32_t read32(uint32_t off);
  uint64_t read64(uint32_t off);
  void write32(uint32_t off, uint32_t v);

  uint32_t lba_bytes() const { return lba_bytes_; }
  uint32_t version() const { return vs_; }  // VS as init() read it
  uint64_t ns_lbas() const { return ns_lbas_; }
  uint32_t max_transfer_bytes() const { return max_bytes_; }
  // A zoned namespace as init() learnt it from Identify, as Linux's nvme_update_zone_info and nvme_set_max_append
  // do: the Command Set Identifier (CNS 03h), the zone size (ZSZE), the zone descriptor extension size (ZDES) and the
  // open and active limits (MOR + 1, MAR + 1; 0 = no limit) of ZNS's Identify Namespace (CNS 05h), the Zone Append
  // limit from ZASL (CNS 06h; 0: MDTS). Not zoned: zone_lbas() 0.
  bool zoned() const { return zone_lbas_ != 0; }
  uint64_t zone_lbas() const { return zone_lbas_; }
  uint64_t zone_bytes() const { return zone_lbas_ * lba_bytes_; }
  uint32_t zone_ext_bytes() const { return zone_ext_bytes_; }
  uint32_t max_open_zones() const { return max_open_; }
  uint32_t max_active_zones() const { return max_active_; }
  uint32_t max_append_bytes() const { return max_append_bytes_; }
  uint64_t interrupts() const { return interrupts_; }
  uint32_t in_flight(uint16_t queue) const { return q_[queue + 1].used; }
  // Host memory the driver gives data buffers from: a region per command slot is not needed (the model
  // moves no data values), so every command's PRPs point into one shared buffer of the largest transfer.
  uint64_t data_buffer() const { return data_; }

 private:
  struct Queue {
    uint64_t sq = 0, cq = 0, ranges = 0;  // SQ, CQ and a DSM range (16 B) per command id
    uint32_t entries = 0, tail = 0, head = 0, used = 0;
    bool phase = true;
    std::vector<std::function<void(const Completion&)>> done;  // by command id
    std::vector<uint16_t> free_cids;
    bool reap_pending = false;
  };
  // A queue of `entries` slots: its SQ, CQ and range memory in host memory, its free command ids.
  void make_queue(Queue& q, uint32_t entries);
  uint64_t alloc(uint64_t bytes, uint64_t align = 4096);
  void mmio(bool write, uint32_t off, void* data, uint32_t bytes, uint64_t delay_ps);
  bool post(uint16_t qi, nvme::Sqe e, std::function<void(const Completion&)> done, uint64_t at_ps);
  void set_prps(nvme::Sqe& e, uint64_t bytes);
  void on_msi(uint32_t vector, uint64_t delay_ps);
  void reap_due();   // SC_METHOD: reaps the queues whose interrupt handler is due
  void poll();       // SC_METHOD (polling mode)
  void reap(uint16_t qi, uint64_t t);
  uint32_t doorbell(uint16_t qi, bool cq) const { return nvme::kDoorbells + (2u * qi + (cq ? 1 : 0)) * stride_; }
  bool wait_ready(bool ready, std::string* error);
  // Set Features Autonomous Power State Transition from the Identify Controller data at `id` (the buffer reused).
  bool configure_apst(uint64_t id, std::string* error);
  // The namespace's command set (Identify CNS 03h) and, zoned, its zone geometry and limits (CNS 05h, 06h; the
  // Commands Supported and Effects log): false with `error` for a namespace the driver refuses, as Linux does.
  bool identify_zones(uint64_t id, uint32_t flbas, std::string* error);
  Completion identify(uint64_t id, uint32_t cns, uint32_t nsid, uint32_t csi);  // into the buffer at `id`

  HostMemory& mem_;
  DriverParams p_;
  uint64_t next_ = 0;  // next free host memory
  uint64_t data_ = 0;
  uint64_t list_ = 0;  // the PRP list of the shared data buffer (every command's list is the same)
  uint32_t stride_ = 4, lba_bytes_ = 512, max_bytes_ = 131072;
  uint64_t ns_lbas_ = 0, timeout_ps_ = 0;
  uint32_t vs_ = 0;
  bool effects_log_ = false;  // Identify Controller LPA bit 1
  bool multi_css_ = false;  // CAP.CSS bit 6: CC.CSS 110b, each namespace reports its command set (nvme_multi_css)
  uint64_t zone_lbas_ = 0;
  uint32_t zone_ext_bytes_ = 0, max_open_ = 0, max_active_ = 0, max_append_bytes_ = 0;
  std::vector<Queue> q_;  // 0 = admin
  std::vector<uint16_t> due_queues_;
  std::vector<uint64_t> due_at_;
  sc_core::sc_event reap_ev_, admin_ev_, poll_ev_;
  uint64_t interrupts_ = 0;
  tlm::tlm_generic_payload mmio_gp_;  // mmio's payload, reused
  bool mmio_busy_ = false;            // an access is under way (a nested one takes a payload of its own)
};

}  // namespace ssdtlm
