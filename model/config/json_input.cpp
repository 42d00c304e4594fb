#include "config/json_input.h"

#include <cctype>
#include <cstdlib>
#include <set>
#include <vector>

#include "common/text.h"
#include "config/config.h"

namespace ssdtlm {

bool number_underflows(std::string_view literal) {
  bool nonzero = false;
  for (char c : literal) {
    if (c == 'e' || c == 'E') break;
    if (c >= '1' && c <= '9') nonzero = true;
  }
  if (!nonzero) return false;
  const std::string s(literal);
  return std::strtod(s.c_str(), nullptr) == 0.0;
}

namespace {

// The ordinal numbers (0, 1, ...) of the number literals in `text` that underflow, in document order: the
// parser's callback sees the numbers in the same order, but not their text.
std::set<size_t> underflowing_numbers(const std::string& text) {
  std::set<size_t> out;
  size_t ordinal = 0;
  for (size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {  // skip a string
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      size_t j = i;
      while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '-' || text[j] == '+' ||
                                 text[j] == '.' || text[j] == 'e' || text[j] == 'E'))
        ++j;
      if (number_underflows(std::string_view(text).substr(i, j - i))) out.insert(ordinal);
      ++ordinal;
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

nlohmann::json parse_config_json(const std::string& text, const std::string& origin, const std::string& key) {
  // The key being read, so that a refused value names its key.
  std::vector<std::string> keys;
  std::vector<long> index;  // per level: -1 in an object, else the array element being read
  std::vector<std::set<std::string>> seen;  // per level: the keys of the object so far
  const std::set<size_t> underflows = underflowing_numbers(text);
  size_t numbers = 0;
  auto where = [&]() {
    std::string p = key;
    for (size_t i = 0; i < keys.size(); ++i)
      p += index[i] >= 0 ? "[" + std::to_string(index[i]) + "]" : (p.empty() ? "" : ".") + keys[i];
    return escape_text(p.size() > 120 ? p.substr(0, 120) + "..." : p);
  };
  auto at_key = [&]() {
    const std::string at = where();
    return origin + ": " + (at.empty() ? "" : "key '" + at + "': ");
  };
  auto element_done = [&]() {
    if (!index.empty() && index.back() >= 0) ++index.back();
  };
  using E = nlohmann::json::parse_event_t;
  nlohmann::json::parser_callback_t track = [&](int, E event, nlohmann::json& parsed) {
    switch (event) {
      case E::object_start:
      case E::array_start:
        if (int(keys.size()) >= kMaxConfigDepth)
          throw ConfigError(at_key() + "nested deeper than " + std::to_string(kMaxConfigDepth) +
                            " levels of objects and arrays (the most a configuration may have)");
        keys.emplace_back();
        index.push_back(event == E::object_start ? -1 : 0);
        seen.emplace_back();
        break;
      case E::key:
        keys.back() = parsed.get<std::string>();
        if (!seen.back().insert(keys.back()).second)
          throw ConfigError(at_key() + "given twice in the same object (JSON keys must be unique)");
        break;
      case E::object_end:
      case E::array_end:
        keys.pop_back();
        index.pop_back();
        seen.pop_back();
        element_done();
        break;
      case E::value:
        if (parsed.is_number() && underflows.count(numbers++))
          throw ConfigError(at_key() + "expected a number within a double's range, got one so small it reads as 0 "
                                       "(write 0, or a number above about 2.2e-308)");
        element_done();
        break;
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, track);
  } catch (const nlohmann::json::out_of_range& e) {  // number overflow
    throw ConfigError(at_key() + "expected a number within a double's range (about 1.8e308): " + e.what());
  } catch (const nlohmann::json::exception& e) {
    throw ConfigError(origin + ": not valid JSON: " + escape_text(e.what()));
  }
}

}  // namespace ssdtlm
