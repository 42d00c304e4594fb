// fio job text parsed as the job-file tests need it: on a 16 GiB device, under the name job.fio; and the
// ConfigError message a text gets ("" when it parses).
#pragma once
#include <string>

#include "common/config_error.h"
#include "frontend/fio/fio_job.h"

namespace ssdtlm::test {

constexpr uint64_t kFioDevice = 16ull << 30;

inline FioJobFile parse_fio(const std::string& text) { return parse_fio_job_text(text, "job.fio", kFioDevice); }
inline std::string fio_error(const std::string& text) {
  return config_error_of([&] { parse_fio(text); });
}

}  // namespace ssdtlm::test
