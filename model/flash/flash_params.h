// What the flash side does beyond plain ONFI timing, as chosen in the configuration: program/erase suspend,
// die-level scheduling and page-type (MLC/TLC/QLC) latencies. Parsed and validated once, at the edge.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "flash/die.h"

namespace ssdtlm {

// flash.suspend: which array operations a read may suspend.
enum class SuspendMode : uint8_t { None, Program, ProgramErase };
// flash.multiplane: how the planes of a die work together.
enum class MultiPlane : uint8_t { Always, Opportunistic, Never };

// flash.die_sched: the order a die's queue is served in (DieQueue), registered: the schema takes the key's choices
// from the table in die_sched.cpp and the parameters read its entry.
enum class DieSched : uint8_t { Fifo, ReadFirst };
// The entry registered as `name`; a ConfigError naming `key` and the known names otherwise.
DieSched find_die_sched(const std::string& name, const std::string& key);
std::vector<std::string> die_sched_names();

constexpr uint32_t kMaxPageTypes = 4;  // bits per cell of QLC

struct FlashParams {
  DieTiming timing;  // tR, tPROG, tBERS (SLC, or every page type when no per-type list is given)
  DieTiming slc;     // timing.slc_*: a block run in SLC mode (slc.*), whatever flash.cell
  SuspendMode suspend = SuspendMode::None;
  uint64_t t_suspend_ps = 0, t_resume_ps = 0;
  uint32_t max_suspends = 8;      // suspensions of one program or erase, at most
  DieSched die_sched = DieSched::Fifo;
  uint32_t read_first_limit = 8;  // reads that may overtake the oldest queued program/erase of a die
  uint32_t page_types = 1;        // bits per cell: pages of a wordline, typed LSB, CSB, MSB, TSB in page order
  uint64_t page_read_ps[kMaxPageTypes] = {0, 0, 0, 0};
  uint64_t page_prog_ps[kMaxPageTypes] = {0, 0, 0, 0};
  bool one_shot = false;          // a wordline's pages are transferred, then programmed in one tPROG
  MultiPlane multiplane = MultiPlane::Always;
  bool plane_any = false;         // flash.plane_rule=any (else same_page)

  // Plain timing (SLC, no suspend, FIFO): what the channel controller did before these options existed.
  static FlashParams plain(const DieTiming& t);
  // Sets what follows from the per-type times (the one-shot tPROG); after page_types and page_prog_ps.
  void derive();

  // Page type of a page within its block (0 = LSB).
  uint32_t page_type(uint32_t page) const { return page_types == 1 ? 0 : page % page_types; }
  uint64_t read_ps(uint32_t page) const { return page_types == 1 ? timing.t_read_ps : page_read_ps[page % page_types]; }
  // Array time of a program of `page`; with one-shot programming the wordline's last page carries the one
  // tPROG (the longest per-type time) and the others none (their data waits in the die's page registers).
  uint64_t prog_ps(uint32_t page) const {
    if (page_types == 1) return timing.t_prog_ps;
    if (!one_shot) return page_prog_ps[page % page_types];
    return page % page_types == page_types - 1 ? one_shot_ps_ : 0;
  }

 private:
  uint64_t one_shot_ps_ = 0;
};

}  // namespace ssdtlm
