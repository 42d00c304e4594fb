// The verify step (README.md): after the rebuild, the live state holds every unit's acknowledged (or recovered)
// version; the first mismatch is an integrity error, every one is counted (recovery.mismatches).
#include "controller/buffer/write_buffer.h"
#include "controller/power_loss/recovery_plan.h"

namespace ssdtlm {

namespace {

void mismatch(const LossContext& x, RecoveryReport& r, uint32_t lpn, uint32_t got, uint32_t want) {
  if (r.mismatches++ == 0)
    x.checker.violation("after the power loss: LPN " + std::to_string(lpn) + " holds version " +
                        (got == kInvalid ? std::string("none (torn)") : std::to_string(got)) + ", expected " +
                        std::to_string(want), x.now_ps);
}

// The version of lpn at ppa straight from the die's out-of-band data, if that copy is durable and trusted.
bool durable(const LossContext& x, const RecoveryPlan& plan, uint32_t lpn, uint32_t ppa, uint32_t* v) {
  const Geometry& g = x.g;
  const uint32_t blk = g.block_of(ppa), pg = g.page_of(ppa);
  const Die& die = x.drive.die(g.die_of(ppa));
  if (!plan.usable[g.gblock_of(ppa)] || !die.programmed(blk, pg)) return false;
  const uint32_t u = blk * g.units_per_block + pg * g.units_per_page + g.slot_of(ppa);
  if (die.lpn(u) != lpn || x.state.untrusted(lpn, die.version(u))) return false;
  *v = die.version(u);
  return true;
}

}  // namespace

void verify_recovery(const LossContext& x, RecoveryPlan& plan, RecoveryReport& r) {
  std::vector<uint32_t>& map_ver = x.state.map_ver;
  // The logical space (the checked LPNs), live: every unit reads back its acknowledged (or recovered) version.
  for_each_checked(x, plan, [&](uint32_t lpn) {
    const uint32_t want = x.checker.expected(lpn);
    uint32_t got = 0;
    if (!plan.in_dump.test(lpn) || !x.buffer.lookup(lpn, &got)) {  // only what the dump saved is still buffered
      const uint32_t e = x.drive.lookup(lpn);
      if (e != kInvalid && !(got = map_ver[lpn])) got = kInvalid;  // in flight, with no copy in DRAM
    }
    map_ver[lpn] = 0;  // ready for the next loss
    if (got != want) mismatch(x, r, lpn, got, want);
  });
  for (uint32_t lpn : plan.scanned_lpns) {
    x.state.scan_ver[lpn] = 0;
    x.state.scan_ppa[lpn] = kInvalid;
  }
  // The units the recovery remapped, once more straight from the dies' out-of-band data.
  for (uint32_t lpn : plan.moved) {
    uint32_t got = 0;
    const uint32_t want = x.checker.expected(lpn), e = x.drive.lookup(lpn);
    if (x.buffer.lookup(lpn, &got)) continue;
    if (e != kInvalid && !durable(x, plan, lpn, e, &got)) got = kInvalid;
    if (e == kInvalid) got = 0;
    if (got != want) mismatch(x, r, lpn, got, want);
  }
}

}  // namespace ssdtlm
