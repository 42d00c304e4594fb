// The controller DRAM as a TLM-2.0 target (docs/reference/hardware.md, "Controller DRAM"): bandwidth dram.mts x
// dram.width_bytes, access latency dram.latency_ns, per-initiator accounting. Initiators (the NVMe front end's
// DMA, each channel controller's flash DMA, the FTL's map lookups) call b_transport with the access's start
// annotated as the delay; the DRAM returns with the delay annotated to the access's end. No process, no
// kernel event: the timing is DramModel's (dram_model.h), the module is the socket and the bookkeeping.
//
// An initiator holds a DramPort (an optional initiator socket and one reused payload): unbound, an access
// costs nothing and takes no time, so modules built without a DRAM (module tests) time as before.
//
// Direct timing access (the timing counterpart of TLM-2.0's DMI): Dram::attach(port, side) binds the port's
// socket and also hands the port the DRAM's timing model, which the port then asks directly: the same call of
// DramModel::access with the same start, bytes, use and pace as b_transport makes, without the socket's
// virtual calls, the payload and two sc_time conversions per access (5-10 % of a random read's request phase).
// The socket stays bound (b_transport serves any initiator bound by attach(socket, side)); a test pins that
// both paths time and account alike.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include <algorithm>
#include <vector>

#include "common/sim_time.h"
#include "controller/dram_model.h"

namespace ssdtlm {


constexpr uint32_t kDramBurstBytes = 64;  // the smallest access: one burst (a map entry lookup or update)

struct DramParams {
  double mts = 3200;       // mega-transfers per second
  uint32_t width_bytes = 4;
  uint64_t latency_ps = 30000;
  double bytes_per_s() const { return mts * 1e6 * width_bytes; }
};

// On an access's payload: the bytes stream to or from a slower partner over pace_ps (DramModel::access).
struct DramPace : tlm::tlm_extension<DramPace> {
  uint64_t pace_ps = 0;
  tlm::tlm_extension_base* clone() const override { return new DramPace(*this); }
  void copy_from(const tlm::tlm_extension_base& o) override { pace_ps = static_cast<const DramPace&>(o).pace_ps; }
};

// Which side an initiator is: its accesses are accounted by side and direction (DramUse).
enum class DramSide : uint8_t { Host, Flash, Map };

// How an access of a side and direction is accounted.
inline DramUse dram_use(DramSide side, bool write) {
  switch (side) {
    case DramSide::Host: return write ? DramUse::HostWrite : DramUse::HostRead;
    case DramSide::Flash: return write ? DramUse::FlashDataOut : DramUse::FlashDataIn;
    case DramSide::Map: break;
  }
  return DramUse::MapLookup;
}

template <class Owner>
class DramPort;

class Dram : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Dram> tsock;

  Dram(sc_core::sc_module_name name, const DramParams& p);

  // Binds an initiator socket to tsock and records its side.
  template <class Socket>
  void attach(Socket& isock, DramSide side) {
    isock.bind(tsock);
    side_.push_back(side);
  }
  // Binds a DramPort's socket and grants it direct timing access (above).
  template <class Owner>
  void attach(DramPort<Owner>& port, DramSide side) {
    attach(port.isock, side);
    port.direct(&model_, side);
  }

  const DramParams& params() const { return p_; }
  const DramModel& model() const { return model_; }
  // summary.json "dram": bandwidth, utilization over span_ps, bytes and accesses per initiator, mean wait.
  nlohmann::json report(double span_ps) const;
  void reset_stats() { model_.reset_stats(); }

 private:
  void b_transport(int port, tlm::tlm_generic_payload& gp, sc_core::sc_time& delay);

  DramParams p_;
  DramModel model_;
  std::vector<DramSide> side_;  // per bound port
};

// An initiator's handle on the DRAM: the socket and one payload reused for every access (b_transport
// returns before the next call, so one is enough: no allocation per access).
template <class Owner>
class DramPort {
 public:
  tlm_utils::simple_initiator_socket_optional<Owner> isock;
  explicit DramPort(const char* name) : isock(name) {
    gp_.set_data_ptr(nullptr);
    gp_.set_streaming_width(0);
    gp_.set_extension(&pace_);
  }
  ~DramPort() { gp_.clear_extension(&pace_); }
  // An access of `bytes` starting at t_ps (not before now), streaming over pace_ps (0: at the DRAM's pace):
  // returns when it is over. Unbound: t_ps.
  uint64_t access(uint64_t t_ps, uint32_t bytes, tlm::tlm_command cmd, uint64_t pace_ps = 0) {
    if (bytes == 0) return t_ps;
    if (direct_)
      return direct_->access(std::max(t_ps, now_ps()), bytes, dram_use(side_, cmd == tlm::TLM_WRITE_COMMAND), pace_ps);
    if (isock.size() == 0) return t_ps;
    const uint64_t now = now_ps();
    gp_.set_command(cmd);
    gp_.set_data_length(bytes);
    pace_.pace_ps = pace_ps;
    gp_.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    sc_core::sc_time delay = ps_time(t_ps > now ? t_ps - now : 0);
    isock->b_transport(gp_, delay);
    return now + delay.value();
  }
  uint64_t read(uint64_t t_ps, uint32_t bytes, uint64_t pace_ps = 0) {
    return access(t_ps, bytes, tlm::TLM_READ_COMMAND, pace_ps);
  }
  uint64_t write(uint64_t t_ps, uint32_t bytes, uint64_t pace_ps = 0) {
    return access(t_ps, bytes, tlm::TLM_WRITE_COMMAND, pace_ps);
  }

  // Direct timing access, granted by Dram::attach(port, side); nullptr: every access goes through the socket.
  void direct(DramModel* model, DramSide side) {
    direct_ = model;
    side_ = side;
  }

 private:
  tlm::tlm_generic_payload gp_;
  DramPace pace_;
  DramModel* direct_ = nullptr;
  DramSide side_ = DramSide::Host;
};

}  // namespace ssdtlm
