// GC pacing (ftl.gc_pacing): how host writes and GC share a collecting die, a registered policy. The GC engine asks it
// when a die starts a victim (the credit the die's host writes get), the flush scheduler whether victim lines in GC
// hold every die's host writes, and the superblock victim choice whether a new line waits for a host write. A new
// pacing is one file (a class and its factory) plus one line in gc_pacing.cpp's table.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace ssdtlm {

struct GcDie;

class GcPacing {
 public:
  virtual ~GcPacing() = default;
  // The die starts a victim whose relocated units each earn `ratio` host units (the space the victim frees per unit
  // moved; 1e30 for a victim that frees space nobody waits for): sets the job's credit and ratio.
  virtual void begin_victim(GcDie& job, double ratio) const = 0;
  // Victim lines being collected hold every die's host writes (not only the collecting die's).
  virtual bool lines_hold_host() const { return false; }
  // With free_lines free lines in the group, a new victim line waits for a host write since the last one started.
  virtual bool line_waits_for_host(uint32_t free_lines) const { return false; }
};

// urgent_lines: ftl.gc_urgent_free_blocks (below it, lines follow each other whatever the host does).
using GcPacingFactory = std::unique_ptr<GcPacing> (*)(uint32_t urgent_lines);
std::unique_ptr<GcPacing> make_credit_pacing(uint32_t urgent_lines);
std::unique_ptr<GcPacing> make_gc_first_pacing(uint32_t urgent_lines);

// Name -> pacing; throws ConfigError naming `key` and the known names for an unknown name.
std::unique_ptr<GcPacing> make_gc_pacing(const std::string& name, uint32_t urgent_lines, const std::string& key);
std::vector<std::string> gc_pacing_names();

}  // namespace ssdtlm
