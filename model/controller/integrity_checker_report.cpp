// IntegrityChecker's report: summary.json "integrity" (check.integrity).
#include <nlohmann/json.hpp>

#include "controller/integrity_checker.h"

namespace ssdtlm {

nlohmann::json IntegrityChecker::report(const IntegrityChecker* c) {
  return {{"enabled", c != nullptr},
          {"checked_reads", c ? c->checked() : 0},
          {"erases_checked", c ? c->erases_checked() : 0},
          {"gc_copies_checked", c ? c->gc_copies_checked() : 0},
          {"errors", c ? c->errors() : 0},
          {"first_error", c ? c->first_error() : ""}};
}

}  // namespace ssdtlm
