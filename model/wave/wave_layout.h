// What a GTKWave layout (save file) shows: groups of rows, each row a traced signal, in the order the
// components registered them. WaveTracer::write_layout (wave_layout.cpp) turns it into FILE.gtkw plus one
// translate filter file per value table, so enumerated states read as names ("prog gc", "in user").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ssdtlm {

enum class WaveStyle : uint8_t {
  Enum,     // a state: drawn with the names of its value table (translate filter)
  Counter,  // a quantity: drawn as analog steps, a few rows tall
  Number,   // an index (a die number): drawn in decimal
  Real,     // a real quantity (watts, degrees): a VCD real (the value's double bits), drawn as analog steps
};

struct WaveEnumValue {
  uint64_t value;
  std::string label;  // what GTKWave shows
  std::string color;  // GTKWave color name, or "" for the default
};

struct WaveEnum {
  std::string name;  // file name part: FILE.<name>.flt
  std::vector<WaveEnumValue> values;
};

struct WaveRow {
  uint32_t signal;
  uint32_t height = 1;  // rows (counters are drawn taller)
};

struct WaveGroup {
  std::string name;
  std::vector<WaveRow> rows;      // drawn first
  std::vector<WaveGroup> groups;  // then these, nested
  bool fold = false;              // closed when the whole layout would not fit on a screen
  bool closed = false;            // always closed
};

struct WaveLayout {
  std::vector<WaveGroup> groups;
};

// Rows a group takes on screen (open, or the header only when closed).
uint32_t wave_rows(const WaveGroup& g, bool open);

}  // namespace ssdtlm
