// OutputDir with names that hold folders (issue 45: fio's log names, "bench/4k/x_bw.1.log"): staged as one flat
// file, moved to that path under --out with its folders made, all or nothing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/temp_dir.h"
#include "report/output_dir.h"

using namespace ssdtlm;
using test::TempDir;
namespace fs = std::filesystem;

namespace {

void put(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

std::string text_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("output dir: a name with folders is staged flat and moved there under --out", "[report][outputs]") {
  TempDir dir("outdir_folders");
  const fs::path out = fs::path(dir.path()) / "out";
  CHECK(OutputDir::staged_name("a/b/x_bw.1.log") == "a%2Fb%2Fx_bw.1.log");
  CHECK(OutputDir::staged_name("a%2Fb") != OutputDir::staged_name("a/b"));  // distinct names stay distinct
  {
    OutputDir staged(out.string());
    put(staged.staging() / OutputDir::staged_name("bench/4k/x_bw.1.log"), "first");
    put(staged.staging() / "top.log", "top");
    staged.adopt({"bench/4k/x_bw.1.log", "top.log"});
    staged.commit({});
  }
  CHECK(text_of(out / "bench/4k/x_bw.1.log") == "first");
  CHECK(text_of(out / "top.log") == "top");
  {  // a second run replaces it in place
    OutputDir staged(out.string());
    put(staged.staging() / OutputDir::staged_name("bench/4k/x_bw.1.log"), "second");
    staged.adopt({"bench/4k/x_bw.1.log"});
    staged.commit({});
  }
  CHECK(text_of(out / "bench/4k/x_bw.1.log") == "second");
  // Only the run's files and folders remain: no staging folder, no flat names.
  for (const auto& e : fs::directory_iterator(out)) CHECK(e.path().filename().string().find('%') == std::string::npos);
}

TEST_CASE("output dir: a folder that cannot be made leaves the previous set whole", "[report][outputs]") {
  TempDir dir("outdir_blocked");
  const fs::path out = fs::path(dir.path()) / "out";
  fs::create_directories(out);
  put(out / "blocked", "a file where the log's folder would be");
  put(out / "top.log", "old");
  OutputDir staged(out.string());
  put(staged.staging() / "top.log", "new");
  put(staged.staging() / OutputDir::staged_name("new/deeper/x.log"), "x");
  put(staged.staging() / OutputDir::staged_name("blocked/x.log"), "x");
  staged.adopt({"top.log", "new/deeper/x.log", "blocked/x.log"});
  CHECK_THROWS_AS(staged.commit({}), OutputError);
  CHECK(text_of(out / "top.log") == "old");  // renamed back
  CHECK_FALSE(fs::exists(out / "new"));      // the folders it made are gone again
  CHECK(text_of(out / "blocked") == "a file where the log's folder would be");
}
