// Builder's work (fio_job_internal.h): one fio job (a Spec) as its numjobs ssdtlm job objects. What is common to
// the clones (fio_job_config.cpp): the pattern, block sizes, region and distribution; each clone's range and
// distribution (fio_job_config.cpp), then its amount, timing, logs, durability, rates, zones and pattern
// (fio_job_clone.cpp). Internal to model/frontend/fio.
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "frontend/fio/fio_job_internal.h"

namespace ssdtlm {
namespace fio {

// The directions a job uses: read, write, trim.
struct Directions {
  bool r = false, w = false, t = false;
};

// rw=: the directions, their shares, random or sequential, and fio's modifier after ':' (rw=randread:8, rw=write:4k).
struct Pattern {
  Directions d;
  std::string rw, modifier;
  bool random = false;
  double rf = 0, tf = 0;  // the read and trim fractions
};

// A number as job-object text (12 significant digits).
std::string num(double v);

// One fio job (a Spec) as its numjobs ssdtlm job objects: what is common to the clones first (pattern, block
// sizes, region, distribution), then each clone's range, amount, timing, logs, durability, rates, zones and pattern.
class JobBuilder {
 public:
  JobBuilder(Interpreter& in, const Spec& s, uint64_t device, uint64_t zone_bytes)
      : in_(in), s_(s), device_(device), zone_bytes_(zone_bytes) {}

  std::vector<nlohmann::json> build();

 private:
  void check_sectors(const Line& at, uint64_t b) const;
  void set_block_sizes(nlohmann::json& j);
  uint64_t bssplit_sizes(const std::string& split, nlohmann::json& j);
  uint64_t bsrange_sizes(const std::string& range, nlohmann::json& j);
  uint64_t resolve(const Amount& a, bool round_up) const;
  void read_distribution();
  nlohmann::json clone(const nlohmann::json& common, uint64_t k, uint64_t off);
  uint64_t clone_size(uint64_t k, uint64_t off) const;
  std::string clone_distribution(uint64_t size) const;
  void set_amount_and_timing(nlohmann::json& c, uint64_t k, uint64_t size) const;
  void set_logs_and_targets(nlohmann::json& c) const;
  void set_verify_and_durability(nlohmann::json& c) const;
  double job_rate(const std::array<std::optional<std::string>, 3>& v, const Line& at, const char* what) const;
  void set_zones_and_placement(nlohmann::json& c) const;
  void set_pattern(nlohmann::json& c, uint64_t k, uint64_t size) const;

  Interpreter& in_;
  const Spec& s_;
  const uint64_t device_;
  const uint64_t zone_bytes_;  // the zoned namespace's zone size, 0 = not zoned
  Pattern p_;
  bool trace_ = false;         // an iolog replay (read_iolog)
  uint64_t min_bs_ = 4096;     // the smallest block size
  bool aligned_ = false;       // blockalign given
  uint64_t align_ = 4096;      // what percentages of the device round to
  std::string dist_, dname_;   // the random distribution and its name
};

}  // namespace fio
}  // namespace ssdtlm
