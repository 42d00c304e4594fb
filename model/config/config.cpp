#include <algorithm>
#include "config/config.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/input_file.h"
#include "common/text.h"
#include "config/json_input.h"
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
  {
    std::string_view t = trim(text);
    if (!t.empty() && (t[0] == '-' || t[0] == '+')) t.remove_prefix(1);
    if (t.size() > 1 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
      throw UnitError(k.type == KeyType::Int ? "an integer" : "a number", text,
                      "hexadecimal is not read in configuration values: write the number in decimal");
  }
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

// Whether some schema key lies under `prefix` (a section such as "host", or "workload.app").
bool is_section(const std::string& prefix) {
  for (auto& k : config_schema())
    if (k.path.size() > prefix.size() && k.path.compare(0, prefix.size(), prefix) == 0 && k.path[prefix.size()] == '.')
      return true;
  return false;
}

// Walks a nested document, reporting every leaf as a dotted path; an object that is neither a key nor a section
// is reported as a leaf too (an unknown key, even when empty). Iterative in depth up to kMaxConfigDepth.
void flatten(const nlohmann::json& j, const std::string& prefix, std::vector<std::pair<std::string, const nlohmann::json*>>& out,
             const std::string& origin, int depth = 0) {
  if (!j.is_object()) {
    out.emplace_back(prefix, &j);
    return;
  }
  if (depth >= kMaxConfigDepth)
    throw ConfigError(origin + ": key '" + escape_text(prefix) + "': nested deeper than " + std::to_string(kMaxConfigDepth) +
                      " levels of objects and arrays (the most a configuration may have)");
  for (auto it = j.begin(); it != j.end(); ++it) {
    std::string p = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it.value().is_object() && !find_key(p) && is_section(p))
      flatten(it.value(), p, out, origin, depth + 1);
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
  if (field == "queues" || field == "queue_depth" || field == "sq_priority") return "host." + field;
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
        throw ConfigError(origin + ": unknown key '" + at + "." + escape_text(it.key()) +
                          "' (a job takes name, queues, queue_depth, sq_priority and the workload.* keys without 'workload.')");
      job[it.key()] = checked(*k, it.value(), origin, at + "." + it.key());
    }
    out.push_back(job);
  }
  return out;
}

void Config::assign(const KeySpec& k, const nlohmann::json& v, const std::string& origin) {
  doc_[pointer(k.path)] = checked(k, v, origin, k.path);
}

// Copies everything but the jobs (a copy of them all for each job made numjobs=4096 quadratic: minutes).
Config Config::job_config(size_t j) const {
  if (j >= job_count()) return *this;
  nlohmann::json doc = nlohmann::json::object();
  for (auto it = doc_.begin(); it != doc_.end(); ++it)
    if (it.key() != "jobs") doc[it.key()] = it.value();
  doc["jobs"] = nlohmann::json::array();
  Config c(std::move(doc));
  for (auto it = doc_["jobs"][j].begin(); it != doc_["jobs"][j].end(); ++it)
    if (it.key() != "name") c.doc_[pointer(job_key(it.key()))] = it.value();
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
  for (size_t i = 0; i < leaves.size(); ++i) {
    const auto& [path, value] = leaves[i];
    const KeySpec* k = find_key(path);
    if (!k) throw ConfigError(origin + ": unknown key " + quote_text(path) + " (--help-config lists the keys; docs/reference/config.md)");
    for (size_t e = 0; e < i; ++e)  // "host.queues" and {"host": {"queues": ...}} in one document
      if (leaves[e].first == path && *leaves[e].second != *value)
        throw ConfigError(origin + ": key '" + path + "' given twice (once as a dotted name, once nested) with "
                          "different values");
    assign(*k, *value, origin);
  }
}

void Config::merge_text(const std::string& text, const std::string& origin) {
  merge(parse_config_json(text, origin), origin);
}

void Config::merge_file(const std::string& path) {
  merge_text(read_input_file(path, "--config"), path);
}

void Config::set(const std::string& assignment) {
  auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw ConfigError("--set " + quote_text(assignment) + ": expected key.path=value");
  std::string path = assignment.substr(0, eq), text = assignment.substr(eq + 1);
  const KeySpec* k = find_key(path);
  if (!k) throw ConfigError("--set: unknown key " + quote_text(path) + " (--help-config lists the keys; docs/reference/config.md)");
  nlohmann::json v;
  if (k->type == KeyType::String) {
    v = text;
  } else if (k->type == KeyType::Jobs) {
    v = parse_config_json(text, "--set", path);
  } else {
    // A number or true/false as JSON; anything else ("64M", "0.7ms", "25%", "yes") as text in the key's units
    // (where a number that overflows or underflows a double is refused).
    try {
      v = nlohmann::json::parse(text);
      if ((!v.is_number() && !v.is_boolean()) || (v.is_number() && number_underflows(text))) v = text;
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
