// A real program captured and replayed (issue 41): the sqlite3 shell runs a 1,000-row script under ssdtlm-capture;
// strace -k counts its writes, bytes and distinct call stacks independently; the capture must agree, and its replay
// through the file system and the drive must keep every byte (integrity checker) and be deterministic.
// sqlite3 and strace come from scripts/setup.sh (Debian packages).
#include <catch2/catch.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "workload/trace/capture_reader.h"

using namespace ssdtlm;

namespace {

void write_script(const std::string& path) {
  std::ofstream s(path);
  s << "PRAGMA journal_mode=WAL;\nCREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT);\nBEGIN;\n";
  for (int i = 0; i < 1000; ++i) s << "INSERT INTO t VALUES(" << i << ", '" << std::string(100, 'x') << i << "');\n";
  s << "COMMIT;\nUPDATE t SET v = v || 'u' WHERE id % 3 = 0;\nDELETE FROM t WHERE id % 5 = 0;\n"
    << "SELECT count(*) FROM t;\n";
}

struct Count {
  uint64_t writes = 0, bytes = 0;
  std::set<std::string> stacks;  // distinct call stacks above the C library's write function
  std::set<std::string> sites;   // distinct call sites: the frame that called the C library's write function
};

// strace -f -k -y: each write line "pid pwrite64(4</dir/db-wal>, ..., n, off) = n" followed by " > module(sym+off)
// [0xoff]" frames, frame 0 inside the C library's wrapper.
Count strace_count(const std::string& file, const std::string& dir) {
  std::ifstream in(file);
  const std::regex call(R"(^\d+\s+(write|pwrite64|writev|pwritev|pwritev2)\(\d+<([^>]*)>.*\)\s+=\s+(\d+))");
  Count c;
  std::string line, stack;
  bool in_call = false;
  int frame = 0;
  auto end_call = [&] {
    if (in_call) c.stacks.insert(stack);
    in_call = false;
  };
  while (std::getline(in, line)) {
    if (line.rfind(" > ", 0) == 0) {
      if (in_call && frame++ > 0) {
        const std::string at = line.substr(line.find('[')) + line.substr(3, line.find('(') - 3) + ";";
        if (frame == 2) c.sites.insert(at);
        stack += at;
      }
      continue;
    }
    end_call();
    std::smatch m;
    if (std::regex_search(line, m, call) && m[2].str().rfind(dir + "/", 0) == 0 && std::stoull(m[3]) > 0) {
      ++c.writes;
      c.bytes += std::stoull(m[3]);
      in_call = true;
      frame = 0;
      stack.clear();
    }
  }
  end_call();
  return c;
}

int run(const std::string& cmd) { return std::system(cmd.c_str()); }

}  // namespace

TEST_CASE("sqlite3 captured: writes, bytes and program contexts match strace, the replay keeps every byte and repeats",
          "[platform][capture]") {
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/";
  REQUIRE(run("command -v sqlite3 >/dev/null && command -v strace >/dev/null") == 0);  // scripts/setup.sh installs both
  write_script("rows.sql");
  REQUIRE(run("mkdir -p cap st") == 0);
  REQUIRE(run(bin + "ssdtlm-capture -o app.cap --root cap --stats cap.json -- sqlite3 cap/db < rows.sql > cap.out") == 0);
  REQUIRE(run("strace -f -k -y -qq -e trace=write,pwrite64,writev,pwritev,pwritev2 -o st.txt sqlite3 st/db < rows.sql "
              "> st.out") == 0);
  char cwd[4096];
  REQUIRE(getcwd(cwd, sizeof cwd));
  const Count s = strace_count("st.txt", std::string(cwd) + "/st");
  INFO("strace: " << s.writes << " writes, " << s.bytes << " bytes, " << s.stacks.size() << " stacks, "
                   << s.sites.size() << " call sites");
  REQUIRE(s.writes > 100);

  CaptureReader r("app.cap");
  CaptureEvent e;
  Count c;
  std::set<uint64_t> pcs;
  std::set<uint32_t> sites;
  while (r.next(e))
    if (e.kind() == capture::Kind::Write) ++c.writes, c.bytes += e.rec.bytes, pcs.insert(e.rec.pc), sites.insert(e.rec.aux);
  CHECK(c.writes == s.writes);
  CHECK(c.bytes == s.bytes);
  CHECK(pcs.size() == s.stacks.size());
  CHECK(pcs.count(0) == 0);
  CHECK(sites.size() == s.sites.size());
  CHECK(sites.count(0) == 0);
  CHECK(sites.size() <= pcs.size());  // a call site reached through several call paths is several contexts
  std::ifstream out("cap.out");
  std::string last;
  for (std::string l; std::getline(out, l);) last = l;
  CHECK(last == "800");  // the program ran unchanged

  // The replay, twice through the command line (one simulation per process): same capture, same seed.
  const std::string sets = " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=128"
                           " --set geometry.pages_per_block=64 --set workload.pattern=trace --set workload.trace_format=capture"
                           " --set workload.trace_path=app.cap --set workload.capture_page_cache=dirty_only"
                           " --set check.integrity=true --set streams.assign=pcstream --set streams.count=4";
  REQUIRE(run(bin + "ssdtlm-generic --quiet --out r1" + sets) == 0);
  REQUIRE(run(bin + "ssdtlm-generic --quiet --out r2" + sets) == 0);
  const auto a = nlohmann::json::parse(std::ifstream("r1/summary.json"));
  const auto b = nlohmann::json::parse(std::ifstream("r2/summary.json"));
  const auto& cs = a["capture"];
  INFO(cs.dump(1));
  CHECK(a["integrity"]["errors"] == 0);
  CHECK(a["integrity"]["checked_reads"].get<uint64_t>() > 10);
  CHECK(cs["writes"] == s.writes);
  CHECK(cs["write_bytes"] == s.bytes);
  CHECK(cs["distinct_pcs"] == s.stacks.size());
  CHECK(cs["write_call_sites"] == s.sites.size());
  // PCStream receives at least one context per write call site the capture saw (issue 41).
  CHECK(a["streams"]["pcstream"]["pcs_seen"].get<uint64_t>() >= s.sites.size());
  CHECK(cs["file_layer_check"] == "");
  CHECK(cs["unseen"]["shared_writable_mmaps"].get<uint64_t>() >= 1);  // the WAL index (-shm) is a shared mapping
  // What the program wrote reached the drive in whole pages; the host wrote that plus the file system's own.
  CHECK(cs["data_bytes"].get<uint64_t>() >= 400000);
  CHECK(a["host"]["bytes_written"].get<uint64_t>() ==
        cs["data_bytes"].get<uint64_t>() + cs["journal_bytes"].get<uint64_t>() + cs["metadata_bytes"].get<uint64_t>());
  for (const char* k : {"host", "ftl", "streams", "capture", "integrity", "nand"}) CHECK(a[k] == b[k]);
}

TEST_CASE("a shell's redirected output is captured: inherited descriptors are followed across exec and what stdio or "
          "copy_file_range wrote is recorded as the file's growth", "[platform][capture]") {
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/";
  REQUIRE(run("mkdir -p redir") == 0);
  std::ofstream("redir.sh") << "cd \"$1\"\necho hello > a\nprintf 'x%d\\n' 1 2 3 >> a\nseq 1 20000 > b\n"
                               "sed -e s/1/one/ b > c\ncat b c > d\n";
  REQUIRE(run(bin + "ssdtlm-capture -o redir.cap --root redir -- bash redir.sh redir 2> /dev/null") == 0);
  uint64_t on_disk = 0;
  for (const char* f : {"redir/a", "redir/b", "redir/c", "redir/d"}) {
    std::ifstream in(f, std::ios::binary | std::ios::ate);
    REQUIRE(in);
    on_disk += uint64_t(in.tellg());
  }
  REQUIRE(run(bin + "ssdtlm-generic --quiet --out rr --set workload.pattern=trace --set workload.trace_format=capture"
                    " --set workload.trace_path=redir.cap --set check.integrity=true") == 0);
  const auto s = nlohmann::json::parse(std::ifstream("rr/summary.json"));
  const auto& cs = s["capture"];
  INFO(cs.dump(1));
  CHECK(cs["write_bytes"] == on_disk);  // every byte of the four files, none through a recorded write() call
  CHECK(cs["unseen"]["growth_bytes"] == on_disk);
  CHECK(cs["unseen"]["growth_writes"] == 5);  // a (twice), b, c, d
  CHECK(cs["unseen"]["unknown_fd_writes"] == 0);
  CHECK(s["integrity"]["errors"] == 0);
}

TEST_CASE("the capture's exit flush of stdout does not wait for a stream another thread holds", "[platform][capture]") {
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/";
  std::ofstream("hold.c") << "#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>\n"
                             "static void* reader(void* a) { char b[64]; (void)a; fgets(b, sizeof b, stdin); return 0; }\n"
                             "int main(void) { pthread_t t; pthread_create(&t, 0, reader, 0); usleep(100000);\n"
                             "  for (int i = 0; i < 1000; ++i) printf(\"line %d\\n\", i);\n  return 0; }\n";
  REQUIRE(run("cc -O1 -pthread -o hold hold.c") == 0);
  REQUIRE(run("mkdir -p hold_root") == 0);
  // The reader blocks in fgets holding stdin's lock while main exits: a flush that locked every stream would hang.
  REQUIRE(run("sleep 30 | timeout 20 " + bin + "ssdtlm-capture -o hold.cap --root hold_root -- sh -c "
              "'./hold > hold_root/out.txt' 2> /dev/null") == 0);
  REQUIRE(run(bin + "ssdtlm-generic --quiet --out rh --set workload.pattern=trace --set workload.trace_format=capture"
                    " --set workload.trace_path=hold.cap") == 0);
  const auto s = nlohmann::json::parse(std::ifstream("rh/summary.json"));
  std::ifstream out("hold_root/out.txt", std::ios::binary | std::ios::ate);
  CHECK(s["capture"]["unseen"]["growth_bytes"] == uint64_t(out.tellg()));  // printf's 8,890 bytes, flushed at exit
}

TEST_CASE("ssdtlm-capture refuses a statically linked program and a missing one", "[platform][capture]") {
  const std::string bin = std::string(SSDTLM_BINARY_DIR) + "/bin/";
  std::ofstream("main.c") << "int main(void) { return 0; }\n";
  REQUIRE(run("cc -static -o static_prog main.c 2>/dev/null || g++ -x c -static -o static_prog main.c") == 0);
  CHECK(WEXITSTATUS(run(bin + "ssdtlm-capture -o s.cap -- ./static_prog 2> err.txt")) == 2);
  std::ifstream err("err.txt");
  std::stringstream text;
  text << err.rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("statically linked"));
  CHECK(WEXITSTATUS(run(bin + "ssdtlm-capture -o s.cap -- no-such-program-41 2> /dev/null")) == 2);
}
