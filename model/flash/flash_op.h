// A NAND operation as carried over the FTL -> channel controller TLM socket (extension of the
// generic payload). Reads name the units wanted by a slot mask; programs carry the OOB of every unit.
#pragma once
#include <tlm>

#include <cstdint>

#include "flash/die.h"
#include "flash/geometry.h"

namespace ssdtlm {

enum class FlashCmd : uint8_t { Read, Program, Erase };
enum class ReadKind : uint8_t { User = 0, Map = 1, Gc = 2 };

struct FlashOp : tlm::tlm_extension<FlashOp> {
  FlashCmd cmd = FlashCmd::Read;
  uint32_t die = 0;        // global die index (channel-first numbering)
  uint32_t block = 0;      // within the die
  uint32_t page = 0;
  uint32_t slot_mask = 0;  // reads: units to transfer
  uint32_t bytes = 0;      // reads: bytes to transfer when not whole units (map segments); 0 = per slot_mask
  uint32_t waits = 0;      // initiator's: map operations this op's completion waits for
  UnitKind kind = UnitKind::UD;      // programs: what is written
  uint8_t stream = 0;                // programs: frontier stream the page belongs to
  ReadKind read_kind = ReadKind::User;
  bool slc = false;        // the block is in SLC mode: SLC array times (slc.*)
  // reads (reliability.*): extra tR + data-out (read-retry steps, soft sensing reads), the ECC's outcome, and
  // the soft decoding time on the controller after the data-out
  uint8_t extra_reads = 0, retries = 0, soft_tier = 0;
  bool uncorrectable = false;
  bool fold = false;       // GC work of a fold (slc.*): a read of an SLC block or a program of its units (waveforms)
  uint64_t decode_ps = 0;
  uint64_t ready_ps = 0;   // not before this time (firmware finished issuing it)
  uint64_t done_ps = 0;    // set by the channel controller on completion
  // Initiator bookkeeping: who waits for this operation. (Header fields share the first cache lines; the
  // per-unit arrays follow.)
  void* owner = nullptr;
  uint32_t tag = 0;
  FlashOp* next = nullptr;  // intrusive queue link, owned by whoever queues the op
  uint64_t seq = 0;         // arrival number in a die's queue (DieQueue)
  tlm::tlm_generic_payload* payload = nullptr;  // the payload this extension rides on
  uint32_t lpn[kMaxUnitsPerPage];      // programs: OOB to write; reads: OOB read back
  uint32_t version[kMaxUnitsPerPage];
  uint32_t aux[kMaxUnitsPerPage];      // initiator's per-unit data (buffer slot, wanted LPN, old address)

  // Clears the header; the per-unit arrays are written by whoever fills the op.
  void reset() {
    cmd = FlashCmd::Read;
    die = block = page = slot_mask = tag = bytes = waits = 0;
    kind = UnitKind::UD;
    stream = 0;
    read_kind = ReadKind::User;
    slc = false;
    extra_reads = retries = soft_tier = 0;
    uncorrectable = fold = false;
    decode_ps = 0;
    ready_ps = done_ps = 0;
    owner = nullptr;
    next = nullptr;
  }

  tlm::tlm_extension_base* clone() const override { return new FlashOp(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override { *this = static_cast<const FlashOp&>(other); }
};

}  // namespace ssdtlm
