// JSON read from the user (configuration files, --set values): parsed with bounds and refusals that
// nlohmann's parser does not make by itself.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace ssdtlm {

// The deepest nesting of objects and arrays a configuration document may have (docs/reference/command_line.md);
// the schema's own keys are at most 4 deep (jobs[i].field in a section).
constexpr int kMaxConfigDepth = 64;

// Parses `text`, refusing (ConfigError naming `origin` and the key being read): invalid JSON, nesting deeper than
// kMaxConfigDepth, a key given twice in one object, a number that overflows a double (1e400) or a nonzero
// number that underflows to 0 (1e-400).
// `key` names the document itself in messages (the key of a --set value, "" for a file).
nlohmann::json parse_config_json(const std::string& text, const std::string& origin, const std::string& key = "");

// Whether a JSON number literal is nonzero but reads as 0 (1e-400).
bool number_underflows(std::string_view literal);

}  // namespace ssdtlm
