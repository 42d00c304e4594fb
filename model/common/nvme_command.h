// An NVMe command as carried over the host -> controller TLM socket (extension of the generic payload),
// and the two small interfaces between the NVMe front end and the FTL back end.
#pragma once
#include <tlm>

#include <cstdint>
#include <vector>

#include "common/io_op.h"

namespace ssdtlm {

// How the controller served a host read, for the read-latency breakdown (host.read_paths): from DRAM
// only; data reads only; it waited for a map segment read; it waited for a map write-back; one of its
// data reads went to a die that was collecting garbage. A read is counted under the first that applies
// of MapWrite, MapRead, GcWait, Data, Buffer.
enum class ReadPath : uint8_t { Buffer = 0, Data = 1, MapRead = 2, MapWrite = 3, GcWait = 4 };
constexpr int kReadPaths = 5;

struct NvmeCommand : tlm::tlm_extension<NvmeCommand> {
  IoOp op = IoOp::Read;
  uint32_t lpn = 0;     // first 4 KiB mapping unit
  uint32_t units = 0;   // mapping units covered
  uint32_t bytes = 0;   // transfer length
  uint8_t partial = 0;  // bit 0: first unit only partly covered, bit 1: last unit (sub-page / unaligned)
  uint16_t qid = 0;
  uint16_t stream = 0;
  // Directives: the directive type (0 none, 2 FDP) and directive specific field (FDP: the placement
  // identifier) of a write (controller/placement/fdp.h).
  uint8_t dtype = 0;
  uint16_t dspec = 0;
  // Zoned namespaces: a zone append (lpn = the zone's first unit; the device picks where it goes and returns it
  // in result_lpn), and the completion status (0 = success, else the NVMe status it failed with).
  bool append = false;
  bool fua = false;  // a write with Force Unit Access: completes once its data is on non-volatile media
  bool uncounted = false;  // host side: not in the job's statistics (IoRequest::setup, IoRequest::after_end)
  bool after_end = false;   // host side: IoRequest::after_end (a close's writes after the job's runtime)
  bool background = false;  // host side: a workload's own request (Workload::next_background), in no job slot
  ZoneAction zone_action = ZoneAction::None;  // op Trim: a Zone Management Send (its lpn: the zone's first unit)
  uint16_t status = 0;
  uint32_t result_lpn = 0;
  // The issuing program context and process (IoRequest::pc, proc, proc_slot): host-kernel state a
  // host-side stream policy (PCStream) reads; carried with the command so that the policy can sit with the
  // others in the controller's stream assignment (assignment costs no simulated time). Not NVMe fields.
  uint16_t proc_slot = 0;
  uint16_t run = 0;  // IoRequest::run
  uint32_t pc = 0, proc = 0;
  // Simulator-speed hint, no effect on simulated behaviour: the first unit and the kind of the request
  // the same host job will submit next (next_lpn = kNoNextLpn: not known), so that the controller can
  // prefetch that request's per-LPN state (write count, map entry) into the CPU caches while this one is
  // served. Not an NVMe field; the model never reads it for a decision.
  static constexpr uint32_t kNoNextLpn = ~uint32_t(0);
  uint32_t next_lpn = kNoNextLpn;
  IoOp next_op = IoOp::Read;
  uint64_t submit_ps = 0;    // host rang the doorbell
  uint64_t complete_ps = 0;  // completion entry visible to the host
  // controller-side state
  uint32_t pending = 0;         // flash reads (or map operations) outstanding
  bool map_wait = false;        // waiting for map operations before its own flash work
  ReadPath path = ReadPath::Buffer;
  // reliability.*: the most read-retry steps and the highest soft tier any of its flash reads needed, and
  // whether one was uncorrectable (host.read_paths.ecc)
  uint8_t retries = 0, soft_tier = 0;
  bool uncorrectable = false;
  uint64_t ready_ps = 0;        // data ready in the controller
  std::vector<uint32_t> expect; // integrity: version expected per unit, captured at lookup
  NvmeCommand* next = nullptr;  // intrusive queue link (submission queue, buffer wait queue)
  tlm::tlm_generic_payload* payload = nullptr;

  void reset() {
    op = IoOp::Read;
    lpn = units = bytes = pending = 0;
    partial = 0;
    map_wait = false;
    path = ReadPath::Buffer;
    retries = soft_tier = 0;
    uncorrectable = false;
    qid = stream = proc_slot = run = dspec = status = 0;
    dtype = 0;
    append = false;
    fua = false;
    zone_action = ZoneAction::None;
    result_lpn = 0;
    pc = proc = 0;
    next_lpn = kNoNextLpn;
    next_op = IoOp::Read;
    submit_ps = complete_ps = ready_ps = 0;
    expect.clear();
    next = nullptr;
  }
  tlm::tlm_extension_base* clone() const override { return new NvmeCommand(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { *this = static_cast<const NvmeCommand&>(o); }
};

// The FTL side of the controller takes fetched commands...
class CommandSink {
 public:
  virtual ~CommandSink() = default;
  virtual void submit(NvmeCommand& cmd, uint64_t arrival_ps) = 0;
};

// ...and hands them back when the controller's part is done at ready_ps (data in DRAM / buffered). Returns when
// the host sees the completion (its entry in host memory; the front end's data transfer and entry post done): the
// command is in the drive until then (the FTL's idle test, slc.*). The command may be released by the call.
class CompletionSink {
 public:
  virtual ~CompletionSink() = default;
  virtual uint64_t complete(NvmeCommand& cmd, uint64_t ready_ps) = 0;
};

}  // namespace ssdtlm
