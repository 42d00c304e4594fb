// The project version and the git revision a binary was built from.
#pragma once
#include <string>

namespace ssdtlm {

// "0.14.0": what --version, the waveform header and fio's JSON report.
const char* project_version();
// The project version and the git revision it was built from ("0.14.0 (git 1a2b3c4d5e6f)").
std::string version_string();

}  // namespace ssdtlm
