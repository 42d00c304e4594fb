// Run configuration: one JSON document validated against a schema written in code.
// Every key is known, typed, ranged and documented; defaults fill what a file leaves out,
// and the effective configuration (defaults filled) runs again unchanged.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ssdtlm {

// Bad input: the message names the file or key and what was expected. Exit status 2.
struct ConfigError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

enum class KeyType { Int, Real, Bool, String, Jobs };

struct KeySpec {
  std::string path;      // dotted, e.g. "geometry.channels"
  KeyType type;
  nlohmann::json def;    // default value
  double min = 0, max = 0;  // inclusive range for Int and Real
  std::vector<std::string> choices;  // allowed strings (empty = any)
  std::string unit;
  std::string help;
  // Does the fast-forward preconditioning read this key (so a preconditioned-drive snapshot is keyed by it)?
  // Reads (the default: when unsure, it does), Overwriting (only when it overwrites with the workload's pattern,
  // precondition.drive_writes > 0: the workload and job keys), Never (timing, host, buffer, power: the timed run's).
  enum class Precondition : uint8_t { Reads, Overwriting, Never } precondition = Precondition::Reads;
};

// The schema: every key the model knows (config_schema.cpp).
const std::vector<KeySpec>& config_schema();

class Config {
 public:
  Config();  // every key at its default

  // Overlays a JSON document; `origin` names it in error messages (a file name).
  void merge(const nlohmann::json& doc, const std::string& origin);
  void merge_text(const std::string& text, const std::string& origin);
  void merge_file(const std::string& path);
  // "key.path=value": value parsed according to the key's type.
  void set(const std::string& assignment);

  int64_t i(const std::string& path) const;
  uint64_t u(const std::string& path) const { return uint64_t(i(path)); }
  double d(const std::string& path) const;
  bool b(const std::string& path) const;
  std::string s(const std::string& path) const;

  const nlohmann::json& json() const { return doc_; }

  // Jobs (key "jobs"): an array of objects, each overriding workload.* keys (by their name without
  // "workload.") and host.queues / host.queue_depth ("queues", "queue_depth"), plus a "name".
  // Empty = one job made of workload.* and host.*.
  size_t job_count() const { return doc_["jobs"].size(); }
  // The configuration seen by job j: workload.* and host.* with the job's overrides applied.
  Config job_config(size_t j) const;
  std::string job_name(size_t j) const;

 private:
  explicit Config(nlohmann::json doc) : doc_(std::move(doc)) {}  // as it is (job_config)
  void assign(const KeySpec& spec, const nlohmann::json& value, const std::string& origin);
  nlohmann::json checked(const KeySpec& spec, const nlohmann::json& value, const std::string& origin,
                         const std::string& shown) const;
  nlohmann::json checked_jobs(const nlohmann::json& value, const std::string& origin) const;
  const nlohmann::json& at(const std::string& path) const;
  nlohmann::json doc_;
};

const KeySpec* find_key(const std::string& path);

// A range limit in the key's own units: "1 TiB" for sizes, "100 ms" for times, "1099511627776" for counts.
std::string key_limit(const KeySpec& k, double v);

}  // namespace ssdtlm
