#include "sim/version.h"

#include <cstdio>
#include <filesystem>

// The build may record its version and git revision in a generated header (SSDTLM_VERSION, SSDTLM_GIT_REVISION);
// without it the version is this default and the revision is asked of git at run time (version_string()).
#if __has_include("ssdtlm_version.h")
#include "ssdtlm_version.h"
#endif
#ifndef SSDTLM_VERSION
#define SSDTLM_VERSION "0.14.0"
#endif

namespace ssdtlm {

namespace {
#ifndef SSDTLM_GIT_REVISION
// The git revision of the source tree this file was compiled from, asked of git at run time (the build
// does not record it unless SSDTLM_GIT_REVISION is defined).
std::string source_revision(std::string& where) {
  std::filesystem::path root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  where = root.string();
  if (!std::filesystem::exists(root / ".git")) return "";
  const std::string cmd = "git -C '" + root.string() + "' describe --always --dirty --abbrev=12 2>/dev/null";
  std::string out;
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[128];
    while (std::fgets(buf, sizeof buf, f)) out += buf;
    pclose(f);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}
#endif
}  // namespace

const char* project_version() { return SSDTLM_VERSION; }

std::string version_string() {
#ifdef SSDTLM_GIT_REVISION
  return std::string(SSDTLM_VERSION) + " (git " + SSDTLM_GIT_REVISION + ")";
#else
  std::string where;
  const std::string rev = source_revision(where);
  if (rev.empty()) return std::string(SSDTLM_VERSION) + " (git revision unknown: the build does not record it)";
  return std::string(SSDTLM_VERSION) + " (git " + rev + ", read from the source tree " + where +
         " at run time: the build does not record its revision)";
#endif
}

}  // namespace ssdtlm
