// Reading the user's input files safely: only regular files (a FIFO or a device such as /dev/zero would be read
// without end), and at most a documented size for the files read whole (configuration and fio job files).
#pragma once
#include <cstdint>
#include <string>

namespace ssdtlm {

// The most bytes a configuration file or a fio job file may hold (docs/reference/command_line.md).
constexpr uint64_t kMaxInputFileBytes = 16ull << 20;

// Refuses (ConfigError, exit 2) a path that does not name a regular file; `what` names the option or key
// ("--config", "workload.trace_path"). A path that does not exist is left to the caller's own open.
void require_regular_file(const std::string& path, const std::string& what);

// The whole file, after require_regular_file; refused beyond max_bytes. `what` as above.
std::string read_input_file(const std::string& path, const std::string& what, uint64_t max_bytes = kMaxInputFileBytes);

// "N bytes, fnv H": the size and 64-bit FNV-1a hash of a file's content, read in 64 KiB pieces; `missing` when it
// cannot be opened (snapshot keys: a replayed trace's content, the executable's).
std::string file_digest(const std::string& path, const char* missing);

// A file the run writes under --out by a name the user gave (fio's log names, which may hold folders): what is
// wrong with `name` as such a path ("" when nothing): absolute, climbing out with "..", or without a file name at
// its end. normal_output_path gives the path to use (lexically normal, '/'-separated).
std::string output_path_problem(const std::string& name);
std::string normal_output_path(const std::string& name);

}  // namespace ssdtlm
