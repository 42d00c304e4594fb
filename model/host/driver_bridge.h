// The block layer between NvmeHost's jobs and the NVMe driver (nvme.interface=register): each command the host
// issues on its queue pair q becomes one or more NVMe commands on the driver's I/O queue q (requests larger
// than the controller's MDTS are split, as Linux's block layer splits at max_hw_sectors), submitted through
// the registers; the host gets its completion at the time the driver has the last part's. Commands the host
// issues before the driver has brought the controller up wait for it. The workloads and NvmeHost are
// unchanged: the bridge is the target of NvmeHost's socket.
//
// Zoned namespaces (the zone size the driver learnt from Identify at bring-up): a Write must start at its zone's
// write pointer (NVMe ZNS Command Set 1.1, Sequential Write Required zones: else Zone Invalid Write), and commands
// on different submission queues are processed in any order (NVMe Base 2.0 §3.4.4), so the host keeps one Write per zone in flight and the others of that zone waiting in
// the order they were issued, as Linux's block layer does (mq-deadline's zone write locking; zone write plugging
// since Linux 6.10); a zone reset or finish takes its place in that order too (fio resets a zone synchronously
// before writing it again). Zone Append is not held: the drive picks its LBA; one beyond the driver's max_append_bytes
// is refused (Invalid Field, not sent), as Linux's block layer refuses it (bio_split_zone_append).
#pragma once
#include <systemc>
#include <tlm>

#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/at_socket.h"
#include "host/nvme_driver.h"

namespace ssdtlm {

class DriverBridge : public sc_core::sc_module, private AtTarget {
 public:
  tlm::tlm_target_socket<> tsock;  // from the host, bound to this module's nb_transport_fw (common/at_socket.h)

  DriverBridge(sc_core::sc_module_name name, NvmeDriver& driver);
  bool up() const { return up_; }
  uint64_t zone_bytes() const { return zone_bytes_; }   // the namespace's zone size from the driver (0: not zoned)
  uint64_t zone_waits() const { return zone_waits_; }   // writes that waited for their zone's write in flight
  uint64_t up_at_ps() const { return up_ps_; }
  uint64_t appends_refused() const { return appends_refused_; }  // Zone Appends beyond max_append_bytes, not sent

 private:
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                     sc_core::sc_time& delay) override;
  void bring_up();  // SC_THREAD
  void answer_refused();  // SC_METHOD: the requests refused at issue() get their completion
  void issue(tlm::tlm_generic_payload& gp, uint64_t at_ps);  // at the host's time (LT: ahead of sc_time)
  static constexpr uint64_t kNoZone = ~uint64_t(0);
  // A part done; `zone`: the zone whose write lock it held (kNoZone: none).
  void part_done(tlm::tlm_generic_payload& gp, const Completion& c, uint64_t zone);
  // A part to the driver now, or when its zone's write lock is free (a Write to a zoned namespace).
  void send_part(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps);
  void send(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps, uint64_t zone);  // or wait for an entry
  bool submit(tlm::tlm_generic_payload& gp, const NvmeDriver::Io& io, uint64_t at_ps, uint64_t zone);

  NvmeDriver& drv_;
  bool up_ = false;
  uint64_t up_ps_ = 0;
  std::deque<tlm::tlm_generic_payload*> early_;  // issued before the controller was up
  struct Part {
    tlm::tlm_generic_payload* gp;
    NvmeDriver::Io io;
    uint64_t zone = kNoZone;
  };
  std::vector<std::deque<Part>> waiting_;  // per queue: parts of split requests waiting for a free entry
  uint64_t zone_bytes_ = 0;  // the driver's, once it is up
  struct ZoneLock {
    bool busy = false;          // a Write of the zone is in flight
    std::deque<Part> waiting;   // the zone's next Writes, in issue order
  };
  std::unordered_map<uint64_t, ZoneLock> zones_;
  uint64_t zone_waits_ = 0;
  uint64_t appends_refused_ = 0;
  std::deque<tlm::tlm_generic_payload*> refused_;
  sc_core::sc_event refused_ev_;
};

}  // namespace ssdtlm
