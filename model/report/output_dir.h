// The run's output files, replaced as a set: they are written into a staging folder inside --out
// (created, so an --out that cannot be made or written fails before the simulation), and moved into
// place only when every one is written; outputs the model makes that this run did not (lpn_writes.csv
// without stats.lpn_writes, fio.json) are removed, so the folder never mixes two runs. A run that fails
// leaves the previous set as it was.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace ssdtlm {

class OutputDir {
 public:
  // Creates `dir` and its staging folder; throws ConfigError naming --out when it cannot.
  explicit OutputDir(const std::string& dir);
  ~OutputDir();  // removes the staging folder (and what a failed run staged in it)
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  void write(const std::string& name, const std::string& text);  // staged; throws std::runtime_error
  // Moves the staged files into `dir` and removes every name in `known` that was not staged.
  void commit(const std::vector<std::string>& known);

 private:
  std::filesystem::path dir_, staging_;
  std::vector<std::string> staged_;
};

// Every file the runner may write into --out.
const std::vector<std::string>& output_file_names();

}  // namespace ssdtlm
