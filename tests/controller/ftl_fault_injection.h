// Faults the integrity checker's tests inject into the FTL, kept out of the production classes: each test shows
// that the check it exercises catches its fault (tests/controller/test_integrity_invariants.cpp).
#pragma once
#include <cstdint>

#include "controller/gc/gc_engine.h"
#include "controller/page_ftl.h"

namespace ssdtlm {

// GC erases its victims as soon as they are scanned, before their copies are programmed (the fault the erase check
// exists for); a block erased with live units loses them (unmapped), as a real early erase would. Installed on the
// FTL's GC engine for this object's lifetime.
class EarlyErase : public GcFaultInjection {
 public:
  explicit EarlyErase(PageFtl& ftl) : ftl_(ftl) { ftl_.gc().set_fault_injection(this); }
  ~EarlyErase() override { ftl_.gc().set_fault_injection(nullptr); }
  EarlyErase(const EarlyErase&) = delete;
  EarlyErase& operator=(const EarlyErase&) = delete;

  bool erase_early() const override { return true; }
  void erased_live(uint32_t gblock) override {
    const Geometry& g = ftl_.state().geometry();
    const uint32_t die = g.die_of_gblock(gblock), first = gblock * g.units_per_block, base = g.ppa(die, 0, 0);
    for (uint32_t ppa = first; ppa < first + g.units_per_block; ++ppa)
      if (ftl_.state().valid(ppa)) ftl_.state().unmap(ftl_.state().die(die).lpn(ppa - base));
  }

 private:
  PageFtl& ftl_;
};

}  // namespace ssdtlm
