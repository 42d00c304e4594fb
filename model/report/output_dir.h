// The run's output files, replaced as a set. They are written into a staging folder inside --out
// (`.ssdtlm-staging-PID`, created up front, so an --out that cannot be made or written fails before the
// simulation) and moved into place only when every one is written. The move keeps the previous set until it
// is over: each earlier file is first linked into the staging folder, then the new files are renamed over
// the old ones, and outputs of the set this run did not make (lpn_writes.csv without stats.lpn_writes,
// fio.json, incomplete.json) are moved into the staging folder too. When any step fails, every step made
// is undone (the earlier files renamed back), so --out holds the whole previous set or the whole new one;
// SIGINT, SIGTERM and SIGHUP are held off while the files move. A run that fails, or is interrupted by
// SIGINT, SIGTERM or SIGHUP, leaves the previous set as it was and no staging folder (the signal handler
// removes every file in it and then it, with async-signal-safe calls, then lets the signal take its default course). Only SIGKILL or a
// crash can leave a staging folder behind: the next run into the same --out removes the folders of
// processes that are gone.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace ssdtlm {

// The outputs could not be written or moved into place (exit status 2, naming --out); the previous set is
// whole.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class OutputDir {
 public:
  // Creates `dir` and its staging folder; throws ConfigError naming --out when it cannot. Installs the
  // SIGINT/SIGTERM/SIGHUP handlers that remove the staging folder (one OutputDir at a time).
  explicit OutputDir(const std::string& dir);
  ~OutputDir();  // removes the staging folder (and what a failed run staged in it); restores the handlers
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;

  // Staged; `name` must be one of output_file_names(). Throws OutputError.
  void write(const std::string& name, const std::string& text);
  // Files the run wrote into staging() itself (fio's logs, streamed as the run goes): staged like write()'s.
  // A name may hold folders ("bench/4k/x_bw.1.log", fio's log names): it is written in the staging folder as
  // staged_name(name), one flat file, and moved to that path under `dir` by commit, its folders made then.
  void adopt(const std::vector<std::string>& names);
  static std::string staged_name(const std::string& name);
  const std::filesystem::path& staging() const { return staging_; }
  // Moves the staged files into `dir` and moves out every name in `known` that was not staged, all or
  // nothing (see above); throws OutputError naming the step that failed.
  void commit(const std::vector<std::string>& known);
  // Moves the staged files into `dir`, leaving the other files there alone (incomplete.json); all or nothing.
  void commit_beside();
  const std::filesystem::path& dir() const { return dir_; }

 private:
  void move_in(const std::vector<std::string>& known, bool remove_unstaged);

  std::filesystem::path dir_, staging_;
  std::vector<std::string> staged_;
};

// Every file the runner may write into --out: the set, then incomplete.json (a run stopped by the watchdog).
const std::vector<std::string>& output_file_names();

// A file the signal handlers above also remove (the waveform's partial file), while an OutputDir lives.
// Call before the file is made.
void remove_on_signal(const std::string& path);

}  // namespace ssdtlm
