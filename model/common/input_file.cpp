#include "common/input_file.h"

#include <cstdio>

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "common/text.h"
#include "config/config.h"

namespace ssdtlm {

void require_regular_file(const std::string& path, const std::string& what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return;  // the caller's open reports it
  if (S_ISREG(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO" : S_ISCHR(st.st_mode) ? "a character device"
                   : S_ISBLK(st.st_mode) ? "a block device" : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
  throw ConfigError(what + " " + quote_text(path) + ": expected a regular file, got " + kind);
}

std::string read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes) {
  require_regular_file(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ConfigError(what + " " + quote_text(path) + ": cannot open (" + std::strerror(errno) + ")");
  std::string text;
  char buf[65536];
  while (in.read(buf, sizeof buf) || in.gcount() > 0) {
    text.append(buf, size_t(in.gcount()));
    if (text.size() > max_bytes)
      throw ConfigError(what + " " + quote_text(path) + ": larger than " + std::to_string(max_bytes >> 20) +
                        " MiB, the most a configuration or job file may hold");
  }
  if (in.bad()) throw ConfigError(what + " " + quote_text(path) + ": read error");
  return text;
}

std::string file_digest(const std::string& path, const char* missing) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return missing;
  uint64_t h = 0xcbf29ce484222325ull, n = 0;
  unsigned char buf[1 << 16];
  for (size_t got; (got = std::fread(buf, 1, sizeof buf, f)) > 0; n += got)
    for (size_t i = 0; i < got; ++i) h = (h ^ buf[i]) * 0x100000001b3ull;
  std::fclose(f);
  char out[64];
  std::snprintf(out, sizeof out, "%llu bytes, fnv %016llx", (unsigned long long)n, (unsigned long long)h);
  return out;
}

std::string output_path_problem(const std::string& name) {
  const std::filesystem::path path = std::filesystem::path(name).lexically_normal();
  if (path.is_absolute())
    return "a path outside --out: every output is written under --out; give it relative to --out, as " +
           path.relative_path().generic_string();
  for (const auto& part : path)
    if (part == "..") return "a path climbing out of --out with '..': give one inside it";
  const std::string base = path.filename().string();
  if (name.empty() || base.empty() || base == "." || base == "..") return "expected a file name at the end of the path";
  return "";
}

std::string normal_output_path(const std::string& name) {
  return std::filesystem::path(name).lexically_normal().generic_string();
}

}  // namespace ssdtlm
