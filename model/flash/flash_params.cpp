#include "flash/flash_params.h"

#include <algorithm>
#include <cmath>

#include "common/config.h"
#include "common/units.h"

namespace ssdtlm {

namespace {
uint64_t us_ps(double us) { return uint64_t(std::llround(us * 1e6)); }
const char* const kTypeNames[kMaxPageTypes] = {"LSB", "CSB", "MSB", "TSB"};
}  // namespace

FlashParams FlashParams::plain(const DieTiming& t) {
  FlashParams p;
  p.timing = t;
  return p;
}

void parse_page_times(const std::string& key, const std::string& text, uint32_t types, const std::string& cell,
                      uint64_t fallback, uint64_t* out) {
  if (text.empty()) {
    std::fill(out, out + types, fallback);
    return;
  }
  std::string names;
  for (uint32_t t = 0; t < types; ++t) names += std::string(t ? ", " : "") + (types == 2 && t == 1 ? "MSB" : kTypeNames[t]);
  const std::string expected = key + ": expected " + std::to_string(types) + " times separated by commas, one per page type of flash.cell=" +
                               cell + " (" + names + "), e.g. " + (types == 1 ? "60" : types == 2 ? "50,80" : types == 3 ? "50,70,110" : "50,70,90,130") + " (us)";
  uint32_t n = 0;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    std::string item = text.substr(pos, comma - pos);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t") + 1);
    if (n == types) throw ConfigError(expected + ", got more than " + std::to_string(types) + ": \"" + text + "\"");
    double ns = 0;
    try {
      ns = parse_time_ns(item, 1000.0);
    } catch (const std::exception&) {
      throw ConfigError(expected + ", got \"" + item + "\" in \"" + text + "\"");
    }
    if (!(ns >= 10.0 && ns <= 1e10)) throw ConfigError(expected + "; each in [0.01 us, 10 s], got \"" + item + "\"");
    out[n++] = uint64_t(std::llround(ns * 1e3));
    pos = comma + 1;
  }
  if (n != types) throw ConfigError(expected + ", got " + std::to_string(n) + ": \"" + text + "\"");
}

FlashParams FlashParams::from_config(const Config& c) {
  FlashParams p;
  p.timing = DieTiming{us_ps(c.d("timing.t_read_us")), us_ps(c.d("timing.t_prog_us")), us_ps(c.d("timing.t_erase_us"))};
  const std::string s = c.s("flash.suspend");
  p.suspend = s == "program" ? SuspendMode::Program : s == "program_erase" ? SuspendMode::ProgramErase : SuspendMode::None;
  p.t_suspend_ps = us_ps(c.d("timing.t_suspend_us"));
  p.t_resume_ps = us_ps(c.d("timing.t_resume_us"));
  p.max_suspends = uint32_t(c.i("flash.max_suspends"));
  p.die_sched = c.s("flash.die_sched") == "read_first" ? DieSched::ReadFirst : DieSched::Fifo;
  p.read_first_limit = uint32_t(c.i("flash.read_first_limit"));
  const std::string cell = c.s("flash.cell");
  p.page_types = cell == "qlc" ? 4 : cell == "tlc" ? 3 : cell == "mlc" ? 2 : 1;
  p.one_shot = c.b("flash.one_shot");
  const std::string mp = c.s("flash.multiplane");
  p.multiplane = mp == "never" ? MultiPlane::Never : mp == "opportunistic" ? MultiPlane::Opportunistic : MultiPlane::Always;
  p.plane_any = c.s("flash.plane_rule") == "any";
  const std::string reads = c.s("timing.page_read_us"), progs = c.s("timing.page_prog_us");
  if (p.page_types == 1) {
    if (!reads.empty()) throw ConfigError("timing.page_read_us: expected empty with flash.cell=slc (one page type: timing.t_read_us), got \"" + reads + "\"");
    if (!progs.empty()) throw ConfigError("timing.page_prog_us: expected empty with flash.cell=slc (one page type: timing.t_prog_us), got \"" + progs + "\"");
    if (p.one_shot) throw ConfigError("flash.one_shot: expected false with flash.cell=slc (one page per wordline), got true");
    return p;
  }
  parse_page_times("timing.page_read_us", reads, p.page_types, cell, p.timing.t_read_ps, p.page_read_ps);
  parse_page_times("timing.page_prog_us", progs, p.page_types, cell, p.timing.t_prog_ps, p.page_prog_ps);
  p.one_shot_ps_ = *std::max_element(p.page_prog_ps, p.page_prog_ps + p.page_types);
  return p;
}

}  // namespace ssdtlm
