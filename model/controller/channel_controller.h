// Per-channel flash controller: a queue per die, the bus arbiter and the NAND operation sequencer.
//
// ONFI timing: a program is data-in on the bus (command + bytes) then tPROG on the die; a read is tR on the
// die then data-out on the bus; an erase is tBERS. Dies overlap array time with each other's transfers, and
// cache programming lets the next program's data-in proceed while the array is in tPROG. Read and erase
// command cycles (a few tens of ns) are folded into the array time rather than occupying the bus.
//
// Event economy (see docs/reference/design.md): one SC_METHOD per channel. Whenever an operation's timing is already
// determined when it starts, it is scheduled as a whole: a program whose die is idle occupies the array from
// its data-in to the end of tPROG (one wake, at the end); a read is completed, with its completion time
// annotated, when its data-out is granted (one wake, at the end of tR); an op whose firmware time ends within
// kLookaheadPs of the bus's next free slot starts then instead of costing a wake of its own; a cache program's
// tPROG starts when both its data-in and the previous tPROG are over. The bus is a timeline: a die that needs
// it takes the next free slot, first come first served (round-robin among simultaneous requests), so the end
// of a transfer wakes nobody.
// Each activation touches only the dies that changed (bit masks over the channel's dies, at most 64).
//
// Suspend (flash.suspend, docs/reference/hardware.md): a read at the head of a die's queue while the die's array is in
// tPROG (or tBERS) suspends it at the read's ready time: t_suspend, the read's tR, its data-out, then t_resume
// and the remaining array time, tracked exactly. The suspension serves every read at the head of the queue
// that was ready when it began (reads arriving later wait for the resume or suspend it again), at most
// max_suspends times per operation. All of it is scheduled when it is decided: no extra wakes.
// Die scheduling (flash.die_sched): each die's queue is a DieQueue (fifo or read_first).
// Multi-plane (flash.multiplane, channel_multiplane.cpp): never = a die works one plane at a time (planes x the
// array time); opportunistic = a read starting on an idle die takes along the reads directly behind it in the
// queue that work other planes and satisfy flash.plane_rule: one tR for the group, then a data-out each.
// DRAM (optional dram port): each bus transfer also moves its bytes to or from the controller DRAM, paced by
// the bus; a DRAM that cannot keep up holds the bus until it has (annotated b_transport, no event).
//
// Waveform (trace()): every bus transfer and array operation is recorded with its exact start and end when
// it is scheduled (chN.bus.owner, chN.bus.dir, chN.dieK.state), so nothing wakes to draw it; untraced, the
// cost is one pointer test per transfer and per array operation.
#pragma once
#include <nlohmann/json_fwd.hpp>
#include <systemc>
#include <tlm>

#include <vector>

#include "common/at_socket.h"
#include "controller/dram.h"
#include "flash/channel.h"
#include "flash/die.h"
#include "flash/die_queue.h"
#include "flash/flash_op.h"
#include "flash/flash_params.h"
#include "flash/nand_timing.h"
#include "power/budget_waiter.h"
#include "power/power_params.h"

namespace ssdtlm {

struct ChannelStats {
  uint64_t bus_busy_ps = 0;
  uint64_t die_array_busy_ps = 0;         // summed over the channel's dies
  std::vector<uint64_t> die_array_ps;     // per die of the channel (local index): tR, tPROG and tBERS scheduled
  uint64_t ops[3] = {0, 0, 0};            // array operations finished, by FlashCmd (read, program, erase)
  uint64_t suspends[3] = {0, 0, 0};       // suspensions, by FlashCmd of the suspended op (program, erase)
  uint64_t suspended_reads = 0;           // reads served while an operation was suspended
  uint64_t suspended_ps = 0;              // how much later suspended operations ended (suspend to end of resume)
  uint64_t read_overtakes = 0;            // read_first: reads served ahead of an older program or erase
  // flash.multiplane: array operations as the die runs them (never: one per plane), those on several
  // planes at once, and reads that joined another read's tR (opportunistic)
  uint64_t plane_ops = 0, multiplane_ops = 0, combined_reads = 0;
  // Power (model/power): array time by FlashCmd (suspend and resume count as the suspended op's), bytes moved
  // on the bus, and how long dies waited for the power budget (from when an op could start to its start).
  uint64_t array_ps[3] = {0, 0, 0};
  uint64_t slc_array_ps[3] = {0, 0, 0};  // the part of array_ps spent on blocks in SLC mode (slc.*)
  uint64_t bus_bytes = 0;
  uint64_t budget_wait_ps = 0;
};

class WaveTracer;
class PowerBudget;

class ChannelController : public sc_core::sc_module, public BudgetWaiter, public AtTarget {
 public:
  tlm::tlm_target_socket<> tsock;  // bound to this module's nb_transport_fw (common/at_socket.h)
  DramPort<ChannelController> dram;  // flash DMA: data-in read from DRAM, data-out written into it (optional)

  ChannelController(sc_core::sc_module_name name, const Geometry& g, uint32_t channel, std::vector<Die*> dies,
                    const Channel& bus, const DieTiming& timing);
  ChannelController(sc_core::sc_module_name name, const Geometry& g, uint32_t channel, std::vector<Die*> dies,
                    const Channel& bus, const FlashParams& params);

  // Adds this channel's signals (chN.bus.owner, chN.bus.dir, chN.dieK.state) and its layout group.
  void trace(WaveTracer& w);
  const ChannelStats& stats() const;
  size_t queued(uint32_t local_die) const { return dies_[local_die].queue.size(); }
  // The dies with work, in words (queued operations, the head's command and ready time, what the array and the
  // bus hold; empty when no die has work): for a run that stopped making progress.
  std::string describe() const;

  static constexpr uint64_t kLookaheadPs = 1000000;  // 1 us

  // Power budget (power.budget_w, thermal throttling): array operations start only within `budget`, each
  // drawing `power` by its command (channel_power.cpp). Without a call, nothing is gated.
  // `power`: the dies' cell type's operation powers; `slc`: those of blocks run in SLC mode (slc.*).
  void set_power_budget(PowerBudget* budget, const NandOpPower& power, const NandOpPower& slc);
  void budget_freed(uint32_t die) override;

 private:
  struct DieState {
    Die* die = nullptr;
    DieQueue queue;               // waiting ops
    FlashOp* array_op = nullptr;  // owns the array (from its start, possibly in the future) until array_done_
    FlashOp* staged = nullptr;    // cache program: data-in (ending at staged_at) into the cache register
    uint64_t staged_at = 0;
    FlashOp* read_out = nullptr;  // read sensed, waiting for the bus
    FlashOp* joined[8];           // multi-plane read (opportunistic): reads sensed with read_out's, in order
    uint32_t joined_n = 0, joined_out = 0;  // joined, and those whose data-out has been granted
    uint64_t free_at = 0;         // the die's data-out ends then: no new array op before
    uint64_t array_from = 0;      // the array op's own array time starts then (after data-in, suspend or resume)
    uint32_t suspends = 0;        // suspensions of the current array op (or of the suspended one)
    FlashOp* suspended = nullptr; // the program or erase suspended for reads (flash.suspend)
    uint64_t remaining = 0;       // its array time left
    uint64_t suspended_at = 0;    // when the suspension began (reads ready by then are served within it)
  };

  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase, sc_core::sc_time& delay) override;
  void on_wake();  // the process
  void step();     // advance to now and schedule the next wake; also called directly when work arrives
  void advance(uint64_t now);
  void update(uint32_t k, uint64_t now);  // start what die k can start; recompute whether it wants the bus
  void grant(uint32_t k, uint64_t now);   // the bus goes to die k
  // Die k's array takes op from `start` for `duration`, of which its own array time t (timing_.array_ps(*op),
  // computed once by the caller) is the end.
  void start_array(uint32_t k, FlashOp* op, uint64_t start, uint64_t duration, uint64_t t);
  bool try_suspend(uint32_t k, uint64_t now);  // a read at the head suspends the die's program or erase
  void resume(uint32_t k, uint64_t now);
  void finish_array(uint32_t k);          // the array op of die k ends now
  void set_done(uint32_t k, uint64_t t);  // die k's array operation ends at t (keeps next_done_)
  void trace_bus(uint32_t k, const FlashOp& op, uint64_t start, uint64_t end);
  void complete(FlashOp* op, uint64_t done);
  void count_planes(uint32_t planes);             // statistics of one array operation on these planes
  uint64_t join_reads(DieState& d, FlashOp* op, uint64_t start);  // opportunistic: returns the group's tR
  // A bus transfer of op starting at `start`: ends when the bus has moved the bytes and the DRAM has
  // (the bus is held while a DRAM that cannot keep up lags behind).
  uint64_t transfer_end(const FlashOp& op, uint64_t start);
  // Power budget (channel_power.cpp): may die k start op's array work at `start`? (true without a budget:
  // one pointer test inline)
  bool admit(uint32_t k, const FlashOp& op, uint64_t start) { return !budget_ || admit_in_budget(k, op, start); }
  bool admit_in_budget(uint32_t k, const FlashOp& op, uint64_t start);
  void give_back(uint32_t k);  // the die's array operation ended: its power returns to the budget

  const Geometry& g_;
  uint32_t channel_;
  Channel bus_;
  FlashParams params_;
  NandTiming timing_;  // array and bus times of an operation (flash/nand_timing.h), over bus_ and params_
  std::vector<DieState> dies_;
  std::vector<uint64_t> array_done_;   // per die, kNever when the array is idle (one contiguous scan)
  // The least of array_done_, kept as it changes (set_done): a step that ends no array operation scans
  // nothing, and the next wake is read, not searched for.
  uint64_t next_done_ = kNever;
  uint64_t kick_ = 0;                  // dies whose state changed and need update()
  uint64_t bus_want_ = 0;              // dies ready to use the bus
  uint64_t ready_min_ = ~uint64_t(0);  // earliest firmware-ready time beyond the lookahead of a blocking head op
  uint64_t bus_free_at_ = 0;
  // transfer_end's last transfer size and bus time per direction ([0] data-out, [1] data-in: a program's): the
  // time's rounding (timing_.transfer_ps) done once per size, not per transfer
  uint32_t xfer_bytes_[2] = {~0u, ~0u};
  uint64_t xfer_ps_[2] = {0, 0};
  uint64_t scheduled_ = 0;             // time of the pending wake (stale once passed)
  uint32_t bus_die_ = 0;
  uint32_t rr_ = 0;
  bool in_step_ = false, again_ = false;
  mutable ChannelStats stats_;
  WaveTracer* wave_ = nullptr;  // null: not traced
  uint32_t wave_owner_ = 0, wave_dir_ = 0, wave_state_ = 0;  // signal ids (wave_state_: die 0's, then the others)
  sc_core::sc_event wake_;
  PowerBudget* budget_ = nullptr;  // null: no budget
  NandOpPower op_w_, slc_w_;
  std::vector<double> held_w_;     // per die: power held for its array operation (0 = none)
  std::vector<uint64_t> wait_from_;  // per die: when its refused operation could have started (kNever = none)
  uint64_t budget_waiting_ = 0;    // dies refused by the budget, retried when power comes back
};

// The channels' report (channel_report.cpp): what the dies and buses did over span_ps, for summary.json: "nand"'s
// array_ops, suspend, read_overtakes and multiplane, and "utilization"'s channel_bus, die_array, channels and dies.
nlohmann::json channels_report(const std::vector<ChannelController*>& channels, const Geometry& g, double span_ps);

}  // namespace ssdtlm
