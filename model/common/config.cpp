#include "common/config.h"

#include <cmath>
#include <fstream>
#include <sstream>

namespace ssdtlm {
namespace {

nlohmann::json::json_pointer pointer(const std::string& dotted) {
  std::string p = "/" + dotted;
  for (auto& c : p)
    if (c == '.') c = '/';
  return nlohmann::json::json_pointer(p);
}

const char* type_name(KeyType t) {
  switch (t) {
    case KeyType::Int: return "an integer";
    case KeyType::Real: return "a number";
    case KeyType::Bool: return "true or false";
    case KeyType::String: return "a string";
  }
  return "?";
}

std::string expected(const KeySpec& k) {
  std::ostringstream os;
  os << type_name(k.type);
  if (k.type == KeyType::Int || k.type == KeyType::Real) os << " in [" << k.min << ", " << k.max << "]";
  if (!k.choices.empty()) {
    os << " (one of";
    for (auto& c : k.choices) os << " " << c;
    os << ")";
  }
  if (!k.unit.empty()) os << " [" << k.unit << "]";
  return os.str();
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

const KeySpec* find_key(const std::string& path) {
  for (auto& k : config_schema())
    if (k.path == path) return &k;
  return nullptr;
}

Config::Config() {
  doc_ = nlohmann::json::object();
  for (auto& k : config_schema()) doc_[pointer(k.path)] = k.def;
}

void Config::assign(const KeySpec& k, const nlohmann::json& v, const std::string& origin) {
  auto fail = [&](const std::string& why) {
    throw ConfigError(origin + ": key '" + k.path + "': expected " + expected(k) + ", got " + v.dump() + why);
  };
  nlohmann::json value = v;
  switch (k.type) {
    case KeyType::Int: {
      if (v.is_number_integer()) break;
      if (v.is_number_float() && std::floor(v.get<double>()) == v.get<double>() && std::fabs(v.get<double>()) < 9e15) {
        value = int64_t(v.get<double>());
        break;
      }
      fail("");
    } break;
    case KeyType::Real:
      if (!v.is_number()) fail("");
      value = v.get<double>();
      break;
    case KeyType::Bool:
      if (!v.is_boolean()) fail("");
      break;
    case KeyType::String:
      if (!v.is_string()) fail("");
      break;
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
  doc_[pointer(k.path)] = value;
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
  try {
    doc = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
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
  } else {
    try {
      v = nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error&) {
      throw ConfigError("--set: key '" + path + "': expected " + expected(*k) + ", got '" + text + "'");
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
