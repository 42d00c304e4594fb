// Enum-like keys: one table per key maps each name to what it parses to. The schema lists the table's names as the
// key's choices (config_schema.cpp, keyed_choices() in choices.h) and the reader maps them (params.cpp:
// parse_choice), so adding a value is one line in its table and the schema cannot offer a name the reader does not
// map (tests/config/test_choices.cpp).
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/config.h"

namespace ssdtlm {

template <class V>
struct Choice {
  const char* name;
  V value;
};

template <class V, size_t N>
std::vector<std::string> choice_names(const Choice<V> (&table)[N]) {
  std::vector<std::string> names;
  for (const Choice<V>& c : table) names.push_back(c.name);
  return names;
}

// Whether `name` is in the table; its value in *value if so (input checked elsewhere than a configuration key,
// such as a fio job's option, says its own error).
template <class V, size_t N>
bool find_choice(const Choice<V> (&table)[N], const std::string& name, V* value) {
  for (const Choice<V>& c : table)
    if (name == c.name) {
      *value = c.value;
      return true;
    }
  return false;
}

// The name of `value` in the table (summaries and messages name a parsed value as the configuration did).
template <class V, size_t N>
const char* choice_name(const Choice<V> (&table)[N], V value) {
  for (const Choice<V>& c : table)
    if (c.value == value) return c.name;
  throw std::logic_error("choice_name: a value outside its key's table");  // every enumerator is in its table
}

// The value of `name` in the table; a ConfigError naming `key` and the choices otherwise (Config refuses an unknown
// name first: the schema's choices are the table's).
template <class V, size_t N>
V parse_choice(const Choice<V> (&table)[N], const std::string& name, const std::string& key) {
  V value{};
  if (find_choice(table, name, &value)) return value;
  std::string known;
  for (const Choice<V>& c : table) known += std::string(" ") + c.name;
  throw ConfigError("key '" + key + "': unknown value '" + name + "', expected one of" + known);
}

// The value of the configuration's `key` in the table.
template <class V, size_t N>
V parse_choice(const Choice<V> (&table)[N], const Config& c, const std::string& key) {
  return parse_choice(table, c.s(key), key);
}

}  // namespace ssdtlm
