// A drive for algorithm-level tests without SystemC: the geometry from `geometry.*` settings, its dies and
// a page FTL with the named victim policy (and static wear levelling at `wear_level_spread` erases, 0 = none).
// Not copyable (the FTL refers to the geometry member).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "config/config.h"
#include "config/params.h"
#include "common/rng.h"
#include "controller/fast_forward.h"
#include "controller/page_ftl.h"
#include "host/io_request.h"

namespace ssdtlm {

struct FfDrive {
  Config c;
  Geometry g;
  std::vector<std::unique_ptr<Die>> dies;
  std::unique_ptr<IntegrityChecker> checker;  // checked: the FTL's fast-forward GC checks its erases and copies
  std::unique_ptr<PageFtl> ftl;
  FfDrive(const std::vector<std::string>& settings, const std::string& victim = "greedy", bool keep_versions = false,
          uint32_t wear_level_spread = 0, bool checked = false) {
    for (const auto& s : settings) c.set(s);
    g = read_geometry(c, 4);
    std::vector<Die*> raw;
    for (uint32_t d = 0; d < g.dies; ++d) {
      dies.push_back(std::make_unique<Die>(g, d, keep_versions));
      raw.push_back(dies.back().get());
    }
    PageFtlParts parts;
    parts.victim = make_victim_policy(victim, g, "ftl.gc_victim");
    if (wear_level_spread) parts.wear_level = std::make_unique<WearLevel>(g, wear_level_spread);
    if (checked) checker = std::make_unique<IntegrityChecker>(g.logical_units);
    parts.checker = checker.get();
    ftl = std::make_unique<PageFtl>(g, raw, std::move(parts));
  }
  FfDrive(const FfDrive&) = delete;
  FfDrive& operator=(const FfDrive&) = delete;
};

// Independent uniform 4 KiB writes over `units` logical units, endless.
class UniformWrites : public Workload {
 public:
  UniformWrites(uint64_t units, uint64_t seed) : units_(units), rng_(seed) {}
  bool next(IoRequest& r) override {
    r.op = IoOp::Write;
    r.offset = rng_.below(units_) * kUnitBytes;
    r.bytes = kUnitBytes;
    return true;
  }

 private:
  uint64_t units_;
  Rng rng_;
};

}  // namespace ssdtlm
