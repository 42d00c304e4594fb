// GTKWave save file (.gtkw) and translate filter files for a WaveTracer's layout.
//
// Save file lines used: "[*]" comments, "[dumpfile]", "[timestart]", "[size]", "[signals_width]",
// "[sst_expanded]", the zoom line "*<zoom> <marker> <markers a-z>", "^<n> <file>" (translate filter file n),
// "@<flags>" (display flags, hex, for the lines that follow), "+{alias} name" (a signal) and "-name" (a blank
// row, a group's begin or end, depending on the flags). A translate filter file has one "value label" line
// per value, "?color?" in front of the label colours it.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "wave/wave_trace.h"

namespace ssdtlm {

namespace {

// GTKWave trace flags (TR_* in its analyzer.h), bit by bit.
constexpr uint32_t kDec = 1u << 2, kRjustify = 1u << 5, kBlank = 1u << 9, kCollapsed = 1u << 12,
                   kFtranslated = 1u << 13, kAnalogStep = 1u << 15, kAnalogBlankStretch = 1u << 17, kReal = 1u << 18,
                   kClosed = 1u << 22, kGroupBegin = 1u << 23, kGroupEnd = 1u << 24;

// The window the layout asks for, and GTKWave's zoom for a span shown in it: GTKWave 3.3 shows
// 2^(kZoomOffset - zoom) ps across a window of this size (measured with its Tcl getZoomFactor).
constexpr int kWidth = 1600, kHeight = 1000, kSignalsWidth = 280;
constexpr double kZoomOffset = 2.62;
constexpr uint32_t kMaxRows = 44;  // rows that fit in kHeight

std::string hex(uint32_t v) {
  char b[16];
  std::snprintf(b, sizeof b, "@%x", v);
  return b;
}

// The groups' open state: foldable groups stay open while the whole fits on the screen; the first one is always open.
std::vector<bool> open_groups(const std::vector<WaveGroup>& groups) {
  uint32_t rows = 0;
  for (auto& g : groups) rows += wave_rows(g, !g.closed && !g.fold);
  std::vector<bool> open(groups.size());
  bool first_fold = true;
  for (size_t i = 0; i < groups.size(); ++i) {
    const WaveGroup& g = groups[i];
    open[i] = !g.closed && !g.fold;
    if (g.fold && !g.closed) {
      const uint32_t extra = wave_rows(g, true) - 1;
      if (first_fold || rows + extra <= kMaxRows) {
        open[i] = true;
        rows += extra;
      }
      first_fold = false;
    }
  }
  return open;
}

}  // namespace

std::vector<std::string> WaveTracer::write_layout(uint64_t span_ps, uint64_t start_ps) const {
  namespace fs = std::filesystem;
  const fs::path dump = fs::absolute(o_.path);
  std::vector<std::string> written = write_filters(dump.string());
  const std::vector<std::string> filters = written;

  std::string s = layout_header(span_ps, start_ps, dump.string());
  const std::vector<bool> open = open_groups(layout_.groups);
  for (size_t i = 0; i < layout_.groups.size(); ++i) layout_group(s, layout_.groups[i], open[i], filters);

  fs::path p = dump;
  p += ".gtkw";
  std::ofstream f(p);
  f << s;
  if (!f) throw std::runtime_error(p.string() + ": cannot write");
  written.push_back(p.string());
  return written;
}

// Translate filters: one file per value table, named by the table.
std::vector<std::string> WaveTracer::write_filters(const std::string& dump) const {
  std::vector<std::string> filters;
  for (auto& e : enums_) {
    std::filesystem::path p = dump;
    p += "." + e.name + ".flt";
    std::ofstream f(p);
    for (auto& v : e.values)
      f << v.value << " " << (v.color.empty() ? "" : "?" + v.color + "?") << v.label << "\n";
    if (!f) throw std::runtime_error(p.string() + ": cannot write");
    filters.push_back(p.string());
  }
  return filters;
}

// The save file's comments, dump file, window and zoom.
std::string WaveTracer::layout_header(uint64_t span_ps, uint64_t start_ps, const std::string& dump) const {
  // The span shown: about ten of the operations that take the states' time (the busy stretches' mean length
  // weighted by length, so a few erases weigh more than many short reads), within the file.
  const uint64_t first = stats_.first_ps, last = std::max(stats_.last_ps, first + 1);
  if (!span_ps)
    span_ps = stats_.busy_ps > 0 ? uint64_t(10 * stats_.busy_ps2 / stats_.busy_ps) : (last - first) / 10;
  span_ps = std::min(std::max<uint64_t>(span_ps, 1000), last - first);
  if (start_ps == kWaveForever) start_ps = first + (last - first - span_ps) / 2;  // the middle of the file
  const double zoom = kZoomOffset - std::log2(double(span_ps));

  std::string s;
  s += "[*] GTKWave layout written by " + (o_.version.empty() ? std::string("ssdtlm") : o_.version) + "\n";
  s += "[*] open with: gtkwave " + o_.path + " " + o_.path + ".gtkw   (signals: docs/guides/waveforms.md)\n";
  if (!o_.comment.empty()) s += "[*] " + o_.comment + "\n";
  s += "[dumpfile] \"" + dump + "\"\n";
  s += "[timestart] " + std::to_string(start_ps) + "\n";
  s += "[size] " + std::to_string(kWidth) + " " + std::to_string(kHeight) + "\n";
  s += "[pos] -1 -1\n";
  char z[64];
  std::snprintf(z, sizeof z, "*%.6f -1", zoom);
  s += z;
  for (int m = 0; m < 26; ++m) s += " -1";
  s += "\n[sst_expanded] 0\n[signals_width] " + std::to_string(kSignalsWidth) + "\n";
  return s;
}

// One signal's row: its display flags, translate filter, alias and name, and the blank rows of its height.
void WaveTracer::layout_row(std::string& s, const WaveRow& r, const std::vector<std::string>& filters) const {
  const Signal& g = sig_[r.signal];
  if (g.style == WaveStyle::Enum) {
    s += hex(kDec | kRjustify | kFtranslated) + "\n";
    s += "^" + std::to_string(g.table + 1) + " " + filters[size_t(g.table)] + "\n";
  } else if (g.style == WaveStyle::Counter) {
    s += hex(kDec | kRjustify | kAnalogStep) + "\n";
  } else if (g.style == WaveStyle::Real) {
    s += hex(kReal | kRjustify | kAnalogStep) + "\n";
  } else {
    s += hex(kDec | kRjustify) + "\n";
  }
  // GTKWave shows only the last dotted part of a name, aliases included: "ch3 die5 state" keeps it all.
  std::string alias = g.path;
  for (char& c : alias)
    if (c == '.') c = ' ';
  s += "+{" + alias + "} " + gtkwave_name(r.signal) + "\n";
  if (r.height > 1) {
    s += hex(kBlank | kAnalogBlankStretch) + "\n";
    for (uint32_t k = 1; k < r.height; ++k) s += "-\n";
  }
}

// A group, open or closed: its begin, its rows, its subgroups, its end.
void WaveTracer::layout_group(std::string& s, const WaveGroup& g, bool open,
                              const std::vector<std::string>& filters) const {
  s += hex(kGroupBegin | kBlank | (open ? 0 : kClosed)) + "\n-" + g.name + "\n";
  for (auto& r : g.rows) layout_row(s, r, filters);
  for (auto& sub : g.groups) layout_group(s, sub, !sub.closed && !sub.fold, filters);
  s += hex(kGroupEnd | kBlank | (open ? 0 : kClosed | kCollapsed)) + "\n-" + g.name + "\n";
}

}  // namespace ssdtlm
