#include "report/output_dir.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <stdexcept>

#include "config/config.h"

namespace ssdtlm {

namespace fs = std::filesystem;

OutputDir::OutputDir(const std::string& dir) : dir_(dir) {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec || !fs::is_directory(dir_))
    throw ConfigError("option --out " + dir + ": cannot create the output directory (" +
                      (ec ? ec.message() : "a file of that name exists") + ")");
  staging_ = dir_ / (".ssdtlm-staging-" + std::to_string(::getpid()));
  fs::remove_all(staging_, ec);
  if (!fs::create_directory(staging_, ec) || ec)
    throw ConfigError("option --out " + dir + ": cannot write in the output directory (" +
                      (ec ? ec.message() : "cannot create " + staging_.string()) + ")");
}

OutputDir::~OutputDir() {
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void OutputDir::write(const std::string& name, const std::string& text) {
  const fs::path p = staging_ / name;
  std::ofstream out(p, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error((dir_ / name).string() + ": cannot write");
  staged_.push_back(name);
}

void OutputDir::commit(const std::vector<std::string>& known) {
  for (const auto& name : staged_) fs::rename(staging_ / name, dir_ / name);
  std::error_code ec;
  for (const auto& name : known)
    if (std::find(staged_.begin(), staged_.end(), name) == staged_.end()) fs::remove(dir_ / name, ec);
  staged_.clear();
}

const std::vector<std::string>& output_file_names() {
  static const std::vector<std::string> names = {"config.json",     "summary.json",   "timeseries.csv",
                                                 "latency_cdf.csv", "lpn_writes.csv", "fio.json"};
  return names;
}

}  // namespace ssdtlm
