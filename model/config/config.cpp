#include <algorithm>
#include "config/config.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/text.h"
#include "common/units.h"

namespace ssdtlm {
namespace {

// A key's place in the document: the section (before the first dot), then the rest as one member, so that
// workload.app and workload.app.lsm_fanout are two members of "workload" ("app" and "app.lsm_fanout").
nlohmann::json::json_pointer pointer(const std::string& dotted) {
  std::string p = "/" + dotted;
  const size_t dot = p.find('.');
  if (dot != std::string::npos) p[dot] = '/';
  return nlohmann::json::json_pointer(p);
}

const char* type_name(KeyType t) {
  switch (t) {
    case KeyType::Int: return "an integer";
    case KeyType::Real: return "a number";
    case KeyType::Bool: return "true or false";
    case KeyType::String: return "a string";
    case KeyType::Jobs: return "an array of job objects";
  }
  return "?";
}

bool is_bytes(const KeySpec& k) { return k.type == KeyType::Int && k.unit == "bytes"; }
bool is_time(const KeySpec& k) { return k.type == KeyType::Real && time_unit_ns(k.unit) > 0; }
bool is_ratio(const KeySpec& k) { return k.type == KeyType::Real && k.unit == "ratio"; }

std::string expected(const KeySpec& k) {
  std::ostringstream os;
  if (is_bytes(k))
    os << "a size";
  else if (is_time(k))
    os << "a time";
  else if (is_ratio(k))
    os << "a ratio";
  else
    os << type_name(k.type);
  if (k.type == KeyType::Int || k.type == KeyType::Real) os << " in [" << key_limit(k, k.min) << ", " << key_limit(k, k.max) << "]";
  if (!k.choices.empty()) {
    os << " (one of";
    for (auto& c : k.choices) os << " " << c;
    os << ")";
  }
  if (is_bytes(k))
    os << " (bytes, or with a unit: 4k, 64M, 1GiB)";
  else if (is_time(k))
    os << " (" << k.unit << " unless a unit is given: ns, us, ms, s)";
  else if (is_ratio(k))
    os << " (or a percentage: 25%)";
  else if (k.type == KeyType::Bool)
    os << " (also 1/0, yes/no, on/off)";
  else if (k.unit == "MB/s")
    os << " [MB/s = 10^6 B/s; or with a unit: 3.9GB/s, 500MiB/s]";
  else if (k.unit == "MT/s")
    os << " [MT/s; or 1.2GT/s]";
  else if (k.unit == "IOPS")
    os << " [IOPS; or 10k, 1.5M]";
  else if (!k.unit.empty())
    os << " [" << k.unit << "]";
  return os.str();
}

// A value written as text ("64M", "0.7ms", "25%", "yes") in the key's own type; throws UnitError.
nlohmann::json from_text(const KeySpec& k, const std::string& text) {
  switch (k.type) {
    case KeyType::Int: {
      if (is_bytes(k)) return nlohmann::json(int64_t(parse_size(text)));
      try {
        return nlohmann::json(parse_integer(text));
      } catch (const UnitError&) {
        const double v = parse_number(text);  // "1e6"
        if (v != std::floor(v) || std::fabs(v) >= 9e15) throw UnitError("an integer", text);
        return nlohmann::json(int64_t(v));
      }
    }
    case KeyType::Real:
      if (is_time(k)) return nlohmann::json(parse_time_ns(text, time_unit_ns(k.unit)) / time_unit_ns(k.unit));
      if (is_ratio(k)) return nlohmann::json(parse_ratio(text));
      if (k.unit == "MB/s") return nlohmann::json(parse_bandwidth_mbps(text));
      if (k.unit == "MT/s") return nlohmann::json(parse_transfer_rate_mts(text));
      if (k.unit == "IOPS") return nlohmann::json(parse_si(text));
      return nlohmann::json(parse_number(text));
    case KeyType::Bool:
      return nlohmann::json(parse_bool(text));
    default:
      return nlohmann::json(text);
  }
}

// Walks a nested document, reporting every leaf as a dotted path.
void flatten(const nlohmann::json& j, const std::string& prefix, std::vector<std::pair<std::string, const nlohmann::json*>>& out,
             const std::string& origin) {
  if (!j.is_object()) {
    out.emplace_back(prefix, &j);
    return;
  }
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string p = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it.value().is_object() && !find_key(p))
      flatten(it.value(), p, out, origin);
    else
      out.emplace_back(p, &it.value());
  }
}

}  // namespace

// A range limit in the key's own units: "1 TiB", "100 ms", "1099511627776".
std::string key_limit(const KeySpec& k, double v) {
  if (k.type == KeyType::Int && k.unit == "bytes") return v == 0 ? "0" : format_size(v);
  if (k.type == KeyType::Real && time_unit_ns(k.unit) > 0) return v == 0 ? "0" : format_time_ns(v * time_unit_ns(k.unit));
  if (v == std::floor(v) && std::fabs(v) < 1e18) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  return format_number(v);
}

const KeySpec* find_key(const std::string& path) {
  for (auto& k : config_schema())
    if (k.path == path) return &k;
  return nullptr;
}

Config::Config() {
  doc_ = nlohmann::json::object();
  for (auto& k : config_schema()) doc_[pointer(k.path)] = k.def;
}

nlohmann::json Config::checked(const KeySpec& k, const nlohmann::json& v, const std::string& origin,
                               const std::string& shown) const {
  auto fail = [&](const std::string& why) {
    throw ConfigError(origin + ": key '" + shown + "': expected " + expected(k) + ", got " + v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + why);
  };
  nlohmann::json value = v;
  if (v.is_string() && (k.type == KeyType::Int || k.type == KeyType::Real || k.type == KeyType::Bool)) {
    try {
      value = from_text(k, v.get<std::string>());
    } catch (const UnitError& e) {
      throw ConfigError(origin + ": key '" + shown + "': expected " + expected(k) + ", got " + v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) +
                        (e.reason().empty() ? "" : " (" + e.reason() + ")"));
    }
    return checked(k, value, origin, shown);
  }
  if (k.type == KeyType::Bool && v.is_number_integer() && (v.get<int64_t>() == 0 || v.get<int64_t>() == 1))
    return nlohmann::json(v.get<int64_t>() == 1);
  switch (k.type) {
    case KeyType::Int:
      if (v.is_number_integer()) break;
      if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) < 9e15) {
        value = int64_t(v.get<double>());
        break;
      }
      fail("");
      break;
    case KeyType::Real:
      if (!v.is_number()) fail("");
      value = v.get<double>();
      break;
    case KeyType::Bool:
      if (!v.is_boolean()) fail("");
      break;
    case KeyType::String:
      if (v.is_boolean() && std::count(k.choices.begin(), k.choices.end(), "true") &&
          std::count(k.choices.begin(), k.choices.end(), "false")) {  // a tri-state key such as auto/true/false
        value = v.get<bool>() ? "true" : "false";
        break;
      }
      if (!v.is_string()) fail("");
      if (!valid_utf8(v.get<std::string>()))  // config.json and summary.json could not hold it
        throw ConfigError(origin + ": key '" + shown + "': expected UTF-8 text (it is written to config.json), got " +
                          escape_bytes(v.get<std::string>()));
      break;
    case KeyType::Jobs:
      return checked_jobs(v, origin);
  }
  if (k.type == KeyType::Int || k.type == KeyType::Real) {
    double x = value.get<double>();
    if (!(x >= k.min && x <= k.max)) fail(" (out of range)");
  }
  if (!k.choices.empty()) {
    bool ok = false;
    for (auto& c : k.choices) ok |= (c == value.get<std::string>());
    if (!ok) fail("");
  }
  return value;
}

namespace {
// The schema key a job field stands for.
std::string job_key(const std::string& field) {
  if (field == "queues" || field == "queue_depth") return "host." + field;
  return "workload." + field;
}
}  // namespace

nlohmann::json Config::checked_jobs(const nlohmann::json& v, const std::string& origin) const {
  if (!v.is_array()) throw ConfigError(origin + ": key 'jobs': expected an array of job objects, got " + v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  nlohmann::json out = nlohmann::json::array();
  for (size_t j = 0; j < v.size(); ++j) {
    const std::string at = "jobs[" + std::to_string(j) + "]";
    if (!v[j].is_object()) throw ConfigError(origin + ": key '" + at + "': expected an object, got " + v[j].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    nlohmann::json job = nlohmann::json::object();
    for (auto it = v[j].begin(); it != v[j].end(); ++it) {
      if (it.key() == "name") {
        if (!it.value().is_string() || !valid_utf8(it.value().get<std::string>()))
          throw ConfigError(origin + ": key '" + at + ".name': expected a UTF-8 string, got " + it.value().dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        job["name"] = it.value();
        continue;
      }
      const KeySpec* k = find_key(job_key(it.key()));
      if (!k || it.key().find('.') != std::string::npos)
        throw ConfigError(origin + ": unknown key '" + at + "." + it.key() +
                          "' (a job takes name, queues, queue_depth and the workload.* keys without 'workload.')");
      job[it.key()] = checked(*k, it.value(), origin, at + "." + it.key());
    }
    out.push_back(job);
  }
  return out;
}

void Config::assign(const KeySpec& k, const nlohmann::json& v, const std::string& origin) {
  doc_[pointer(k.path)] = checked(k, v, origin, k.path);
}

Config Config::job_config(size_t j) const {
  Config c = *this;
  if (j >= job_count()) return c;
  for (auto it = doc_["jobs"][j].begin(); it != doc_["jobs"][j].end(); ++it)
    if (it.key() != "name") c.doc_[pointer(job_key(it.key()))] = it.value();
  c.doc_["jobs"] = nlohmann::json::array();
  return c;
}

std::string Config::job_name(size_t j) const {
  if (j < job_count() && doc_["jobs"][j].contains("name")) return doc_["jobs"][j]["name"].get<std::string>();
  return "job" + std::to_string(j);
}

void Config::merge(const nlohmann::json& doc, const std::string& origin) {
  if (!doc.is_object()) throw ConfigError(origin + ": expected a JSON object at the top level");
  std::vector<std::pair<std::string, const nlohmann::json*>> leaves;
  flatten(doc, "", leaves, origin);
  for (auto& [path, value] : leaves) {
    const KeySpec* k = find_key(path);
    if (!k) throw ConfigError(origin + ": unknown key '" + path + "' (see README, 'Configuration keys')");
    assign(*k, *value, origin);
  }
}

void Config::merge_text(const std::string& text, const std::string& origin) {
  nlohmann::json doc;
  // The key being read, so that a value the parser refuses (1e400 overflows a double) names its key.
  std::vector<std::string> keys;
  std::vector<long> index;  // per level: -1 in an object, else the array element being read
  auto where = [&]() {
    std::string p;
    for (size_t i = 0; i < keys.size(); ++i)
      p += index[i] >= 0 ? "[" + std::to_string(index[i]) + "]" : (p.empty() ? "" : ".") + keys[i];
    return p;
  };
  auto element_done = [&]() {
    if (!index.empty() && index.back() >= 0) ++index.back();
  };
  using E = nlohmann::json::parse_event_t;
  nlohmann::json::parser_callback_t track = [&](int, E event, nlohmann::json& parsed) {
    switch (event) {
      case E::object_start: keys.emplace_back(); index.push_back(-1); break;
      case E::array_start: keys.emplace_back(); index.push_back(0); break;
      case E::key: keys.back() = parsed.get<std::string>(); break;
      case E::object_end: case E::array_end: keys.pop_back(); index.pop_back(); element_done(); break;
      case E::value: element_done(); break;
    }
    return true;
  };
  try {
    doc = nlohmann::json::parse(text, track);
  } catch (const nlohmann::json::out_of_range& e) {  // number overflow
    const std::string key = where();
    throw ConfigError(origin + ": " + (key.empty() ? "" : "key '" + key + "': ") +
                      "expected a number within a double's range (about 1.8e308): " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(origin + ": not valid JSON: " + e.what());
  }
  merge(doc, origin);
}

void Config::merge_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open configuration file");
  std::ostringstream ss;
  ss << in.rdbuf();
  merge_text(ss.str(), path);
}

void Config::set(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set '" + assignment + "': expected key.path=value");
  std::string path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  const KeySpec* k = find_key(path);
  if (!k) throw ConfigError("--set: unknown key '" + path + "' (see README, 'Configuration keys')");
  nlohmann::json v;
  if (k->type == KeyType::String) {
    v = text;
  } else if (k->type == KeyType::Jobs) {
    try {
      v = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception&) {  // parse_error, or out_of_range for a number that overflows
      throw ConfigError("--set: key '" + path + "': expected " + expected(*k) + ", got '" + text + "'");
    }
  } else {
    // A number or true/false as JSON; anything else ("64M", "0.7ms", "25%", "yes") as text in the key's units.
    try {
      v = nlohmann::json::parse(text);
      if (!v.is_number() && !v.is_boolean()) v = text;
    } catch (const nlohmann::json::exception&) {  // not JSON, or a number that overflows (1e400): as text
      v = text;
    }
  }
  assign(*k, v, "--set");
}

const nlohmann::json& Config::at(const std::string& path) const {
  if (!find_key(path)) throw std::logic_error("config key not in schema: " + path);
  return doc_.at(pointer(path));
}

int64_t Config::i(const std::string& path) const { return at(path).get<int64_t>(); }
double Config::d(const std::string& path) const { return at(path).get<double>(); }
bool Config::b(const std::string& path) const { return at(path).get<bool>(); }
std::string Config::s(const std::string& path) const { return at(path).get<std::string>(); }

}  // namespace ssdtlm
