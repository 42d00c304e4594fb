// ssdtlm-capture -o FILE [--root DIR] [--stats FILE] -- COMMAND [ARGS...]
// Runs COMMAND with the capture library preloaded (libssdtlm_capture.so, next to this program), waits for it, then
// merges the records every process wrote into FILE, the compressed capture (workload/trace/capture_format.h).
// Refuses (exit 2) a command it cannot capture: not found, or statically linked (no program interpreter, so
// LD_PRELOAD has no effect). Exits with the command's status. README.md.
#include <dirent.h>
#include <elf.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "workload/trace/capture_format.h"

using namespace ssdtlm::capture;

namespace {

[[noreturn]] void fail(const std::string& what, int code = 2) {
  std::fprintf(stderr, "ssdtlm-capture: %s\n", what.c_str());
  std::exit(code);
}

std::string find_in_path(const std::string& cmd) {
  if (cmd.find('/') != std::string::npos) return cmd;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const std::string cand = (end > start ? dirs.substr(start, end - start) : ".") + "/" + cmd;
    if (access(cand.c_str(), X_OK) == 0) return cand;
    start = end + 1;
  }
  return "";
}

// True when the ELF executable has a program interpreter (dynamically linked); scripts (#!) count as dynamic,
// their interpreter is checked by the kernel's exec (a static interpreter would be missed: documented).
bool dynamically_linked(const std::string& exe, std::string& why) {
  std::ifstream in(exe, std::ios::binary);
  if (!in) return why = "cannot read " + exe, false;
  Elf64_Ehdr eh{};
  in.read(reinterpret_cast<char*>(&eh), sizeof eh);
  if (in.gcount() >= 2 && eh.e_ident[0] == '#' && eh.e_ident[1] == '!') return true;
  if (in.gcount() != sizeof eh || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64)
    return why = exe + " is not a 64-bit ELF executable or script", false;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph{};
    in.seekg(std::streamoff(eh.e_phoff + uint64_t(i) * eh.e_phentsize));
    in.read(reinterpret_cast<char*>(&ph), sizeof ph);
    if (ph.p_type == PT_INTERP) return true;
  }
  return why = exe + " is statically linked: LD_PRELOAD cannot interpose its calls, nothing would be captured", false;
}

struct Rec {
  CaptureRecord r;
  std::string path;
  size_t file, seq;
};

void read_raw(const std::string& path, size_t file, std::vector<Rec>& out) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t at = 0, seq = 0;
  while (at + sizeof(CaptureRecord) <= data.size()) {
    Rec x;
    std::memcpy(&x.r, data.data() + at, sizeof x.r);
    at += sizeof x.r;
    if (at + x.r.path_bytes > data.size()) break;  // a process killed mid-flush: its torn last record is dropped
    x.path.assign(data.data() + at, x.r.path_bytes);
    at += x.r.path_bytes;
    x.file = file;
    x.seq = seq++;
    out.push_back(std::move(x));
  }
}

struct Stats {
  uint64_t records = 0, processes = 0, writes = 0, bytes_written = 0, reads = 0, bytes_read = 0, fsyncs = 0;
  std::set<uint64_t> pcs;
  std::set<uint32_t> call_sites;
  std::map<uint32_t, uint64_t> unseen;
};

Stats merge(const std::string& dir, const std::string& out_path) {
  std::vector<Rec> recs;
  DIR* d = opendir(dir.c_str());
  size_t file = 0;
  while (dirent* e = d ? readdir(d) : nullptr) {
    const std::string name = e->d_name;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".raw") == 0) read_raw(dir + "/" + name, file++, recs);
  }
  if (d) closedir(d);
  std::stable_sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) {
    if (a.r.time_ns != b.r.time_ns) return a.r.time_ns < b.r.time_ns;
    return a.file != b.file ? a.file < b.file : a.seq < b.seq;
  });
  gzFile gz = gzopen(out_path.c_str(), "wb6");
  if (!gz) fail("cannot write " + out_path);
  char header[kFileHeaderBytes] = {};
  std::memcpy(header, kMagic, 8);
  const uint32_t version = kCaptureVersion, hb = kFileHeaderBytes;
  std::memcpy(header + 8, &version, 4);
  std::memcpy(header + 12, &hb, 4);
  gzwrite(gz, header, sizeof header);
  Stats s;
  for (const Rec& x : recs) {
    gzwrite(gz, &x.r, sizeof x.r);
    if (x.r.path_bytes) gzwrite(gz, x.path.data(), unsigned(x.path.size()));
    ++s.records;
    const Kind k = Kind(x.r.kind);
    if (k == Kind::ProcessStart) ++s.processes;
    if (k == Kind::Write) ++s.writes, s.bytes_written += x.r.bytes, s.pcs.insert(x.r.pc), s.call_sites.insert(x.r.aux);
    if (k == Kind::Read) ++s.reads, s.bytes_read += x.r.bytes;
    if (k == Kind::Fsync || k == Kind::Fdatasync) ++s.fsyncs;
    if (k == Kind::Unseen) ++s.unseen[x.r.aux];
  }
  if (gzclose(gz) != Z_OK) fail("error writing " + out_path);
  return s;
}

void write_stats(const std::string& path, const Stats& s, double wall_s, int status) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (!f) fail("cannot write " + path);
  std::fprintf(f,
               "{\"wall_s\": %.6f, \"exit_status\": %d, \"records\": %llu, \"processes\": %llu, \"writes\": %llu, "
               "\"bytes_written\": %llu, \"reads\": %llu, \"bytes_read\": %llu, \"fsyncs\": %llu, "
               "\"distinct_pcs\": %zu, \"write_call_sites\": %zu, \"unseen\": {",
               wall_s, status, (unsigned long long)s.records, (unsigned long long)s.processes,
               (unsigned long long)s.writes, (unsigned long long)s.bytes_written, (unsigned long long)s.reads,
               (unsigned long long)s.bytes_read, (unsigned long long)s.fsyncs, s.pcs.size(), s.call_sites.size());
  const char* names[] = {"", "shared_writable_mmap", "io_uring", "linux_aio", "stdio_write"};
  bool first = true;
  for (auto& [what, n] : s.unseen) {
    std::fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", what < 5 ? names[what] : "other", (unsigned long long)n);
    first = false;
  }
  std::fprintf(f, "}}\n");
  std::fclose(f);
}

std::string self_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) fail("cannot find this program's directory");
  buf[n] = '\0';
  std::string p(buf);
  return p.substr(0, p.rfind('/'));
}

}  // namespace

int main(int argc, char** argv) {
  std::string out, root = ".", stats;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") { ++i; break; }
    if ((a == "-o" || a == "--root" || a == "--stats") && i + 1 < argc) {
      (a == "-o" ? out : a == "--root" ? root : stats) = argv[++i];
    } else {
      fail("usage: ssdtlm-capture -o FILE [--root DIR] [--stats FILE.json] -- COMMAND [ARGS...] (got '" + a + "')");
    }
  }
  if (out.empty() || i >= argc) fail("usage: ssdtlm-capture -o FILE [--root DIR] [--stats FILE.json] -- COMMAND [ARGS...]");
  const std::string exe = find_in_path(argv[i]);
  std::string why;
  if (exe.empty()) fail(std::string("command not found: ") + argv[i]);
  if (!dynamically_linked(exe, why)) fail(why);
  char real_root[PATH_MAX];
  if (!realpath(root.c_str(), real_root)) fail("--root " + root + ": no such directory");
  const std::string lib = self_dir() + "/libssdtlm_capture.so";
  if (access(lib.c_str(), R_OK) != 0) fail("missing " + lib + " (build the target ssdtlm_capture)");
  char tmpl[] = "/tmp/ssdtlm-capture.XXXXXX";
  if (!mkdtemp(tmpl)) fail("cannot create a temporary directory");
  const std::string dir = tmpl;
  const char* pre = std::getenv("LD_PRELOAD");
  const std::string preload = lib + (pre && *pre ? std::string(":") + pre : "");
  const auto t0 = std::chrono::steady_clock::now();
  const pid_t child = fork();
  if (child == 0) {
    setenv("LD_PRELOAD", preload.c_str(), 1);
    setenv("SSDTLM_CAPTURE_DIR", dir.c_str(), 1);
    setenv("SSDTLM_CAPTURE_ROOT", real_root, 1);
    execv(exe.c_str(), argv + i);
    std::perror("ssdtlm-capture: exec");
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const Stats s = merge(dir, out);
  if (!stats.empty()) write_stats(stats, s, wall, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  std::string rm = "rm -rf '" + dir + "'";
  if (std::system(rm.c_str()) != 0) std::fprintf(stderr, "ssdtlm-capture: could not remove %s\n", dir.c_str());
  std::fprintf(stderr, "ssdtlm-capture: %llu records, %llu processes, %llu writes (%llu bytes), %zu program contexts "
               "from %zu call sites, %.3f s -> %s\n", (unsigned long long)s.records, (unsigned long long)s.processes,
               (unsigned long long)s.writes, (unsigned long long)s.bytes_written, s.pcs.size(), s.call_sites.size(),
               wall, out.c_str());
  for (auto& [what, n] : s.unseen)
    std::fprintf(stderr, "ssdtlm-capture: warning: %llu events the capture cannot follow (kind %u; README.md)\n",
                 (unsigned long long)n, what);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
