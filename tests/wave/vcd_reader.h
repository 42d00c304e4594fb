// A small VCD reader for the waveform tests: declarations and every value change, by signal name.
#pragma once
#include <cstdint>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdtlm::test {

constexpr uint64_t kVcdZ = ~uint64_t(0);  // z (also any value with an x or z bit)

struct VcdSignal {
  std::string name;  // dotted path below the top scope ("ch0.die1.state")
  uint32_t width = 0;
  bool real = false;  // a VCD real (its values read as kVcdZ)
  std::vector<std::pair<uint64_t, uint64_t>> changes;  // (time, value), in file order; $dumpvars first
};

struct Vcd {
  std::string top;        // top scope
  std::string timescale;  // as declared ("1ps")
  std::vector<VcdSignal> signals;
  std::map<std::string, size_t> by_name;
  std::vector<uint64_t> times;  // every #time, in file order
  uint64_t end = 0;             // the last time stamp

  const VcdSignal& at(const std::string& name) const {
    auto it = by_name.find(name);
    if (it == by_name.end()) throw std::runtime_error("VCD has no signal " + name);
    return signals[it->second];
  }
  bool has(const std::string& name) const { return by_name.count(name) != 0; }

  // Time during which `busy(value)` held, from the first time stamp to the end of the file.
  template <class F>
  uint64_t time_where(const std::string& name, F busy) const {
    const VcdSignal& s = at(name);
    uint64_t total = 0, since = 0;
    bool on = false;
    for (auto& [t, v] : s.changes) {
      const bool b = busy(v);
      if (b && !on) since = t;
      if (!b && on) total += t - since;
      on = b;
    }
    if (on) total += end - since;
    return total;
  }
  // Stretches [start, end) during which the signal held a value for which pick(value) is true.
  template <class F>
  std::vector<std::pair<uint64_t, uint64_t>> stretches(const std::string& name, F pick) const {
    const VcdSignal& s = at(name);
    std::vector<std::pair<uint64_t, uint64_t>> out;
    bool on = false;
    uint64_t since = 0, last = kVcdZ;
    for (auto& [t, v] : s.changes) {
      if (v == last) continue;  // a repeated value (e.g. $dumpvars then the same at that time) does not split
      if (on) out.push_back({since, t});
      on = pick(v);
      since = t;
      last = v;
    }
    if (on) out.push_back({since, end});
    return out;
  }
};

// One word of a VCD's header (its definitions) and what follows it: scopes, variables, the timescale. Returns false
// at $enddefinitions (the value changes follow).
inline bool read_vcd_definition(std::istream& f, std::string word, Vcd& vcd, std::vector<std::string>& scope,
                                std::map<std::string, std::vector<size_t>>& by_id) {
  if (word == "$scope") {
    std::string kind, name;
    f >> kind >> name >> word;
    if (scope.empty() && vcd.top.empty()) vcd.top = name;
    scope.push_back(name);
  } else if (word == "$upscope") {
    f >> word;
    scope.pop_back();
  } else if (word == "$var") {
    std::string type, width, id, name;
    f >> type >> width >> id >> name >> word;
    if (word != "$end") f >> word;  // a bit range
    std::string full;
    for (size_t k = 1; k < scope.size(); ++k) full += scope[k] + ".";
    full += name;
    VcdSignal s;
    s.name = full;
    s.width = uint32_t(std::stoul(width));
    s.real = type == "real";
    vcd.by_name[full] = vcd.signals.size();
    by_id[id].push_back(vcd.signals.size());
    vcd.signals.push_back(s);
  } else if (word == "$timescale") {
    f >> vcd.timescale >> word;
    if (word != "$end") {
      vcd.timescale += word;
      f >> word;
    }
  } else if (word == "$enddefinitions") {
    f >> word;
    return false;
  } else if (word[0] == '$') {
    while (word != "$end" && f >> word) {
    }
  }
  return true;
}

inline Vcd read_vcd(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot read");
  Vcd vcd;
  std::map<std::string, std::vector<size_t>> by_id;
  std::vector<std::string> scope;
  std::string word;
  uint64_t now = 0;
  bool defs = true;
  auto value_of = [](const std::string& bits) -> uint64_t {
    uint64_t v = 0;
    for (char c : bits) {
      if (c != '0' && c != '1') return kVcdZ;
      v = v << 1 | uint64_t(c - '0');
    }
    return v;
  };
  auto change = [&](const std::string& id, uint64_t v) {
    auto it = by_id.find(id);
    if (it == by_id.end()) throw std::runtime_error(path + ": value change of an undeclared id " + id);
    for (size_t s : it->second) vcd.signals[s].changes.push_back({now, v});
  };
  while (f >> word) {
    if (defs) {
      defs = read_vcd_definition(f, word, vcd, scope, by_id);
      continue;
    }
    if (word == "$dumpvars" || word == "$end" || word == "$dumpall" || word == "$dumpon" || word == "$dumpoff")
      continue;
    if (word == "$comment") {
      while (word != "$end" && f >> word) {
      }
      continue;
    }
    if (word[0] == '#') {
      now = std::stoull(word.substr(1));
      vcd.times.push_back(now);
      vcd.end = now;
    } else if (word[0] == 'b' || word[0] == 'B') {
      std::string id;
      f >> id;
      change(id, value_of(word.substr(1)));
    } else if (word[0] == 'r' || word[0] == 'R') {
      std::string id;
      f >> id;
      change(id, kVcdZ);
    } else {
      change(word.substr(1), value_of(word.substr(0, 1)));
    }
  }
  return vcd;
}

inline std::string read_text(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw std::runtime_error(path + ": cannot read");
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace ssdtlm::test
