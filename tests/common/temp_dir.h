// A private temporary directory for a test's input files, removed with everything in it at the end.
#pragma once
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>

namespace ssdtlm::test {

class TempDir {
 public:
  // `tag` names the test file in the directory's name (ssdtlm_<tag>_<pid>_<n>).
  explicit TempDir(const std::string& tag) {
    static std::atomic<int> counter{0};
    dir_ = std::filesystem::temp_directory_path() /
           ("ssdtlm_" + tag + "_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  // The directory (for a run's --out, or as the working directory of a process: tests/common/cli_run.h).
  std::string path() const { return dir_.string(); }
  // Writes `text` byte for byte to the file `name`; returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    const std::filesystem::path p = dir_ / name;
    std::ofstream(p, std::ios::binary) << text;
    return p.string();
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace ssdtlm::test
