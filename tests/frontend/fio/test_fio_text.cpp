// fio's normal and terse reports: fio's number formatting (num2str), the normal layout on the numbers of fio's
// own HOWTO example ("Normal output": a 5.9 s write job), and the terse lines of a run checked field by field
// against its fio.json, as fio's t/latency_percentiles.py checks fio's terse output against fio's JSON.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "frontend/fio/fio_json.h"
#include "frontend/fio/fio_text.h"
#include "platform/platform_run.h"

using namespace ssdtlm;
using namespace ssdtlm::test;
using Json = nlohmann::ordered_json;

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  for (auto& l : lines(text))
    if (l == line) return true;
  return false;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t at = 0;
  while (true) {
    const size_t next = s.find(sep, at);
    out.push_back(s.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) return out;
    at = next + 1;
  }
}

Json lat(uint64_t n, uint64_t min, uint64_t max, double mean, double dev) {
  return {{"min", min}, {"max", max}, {"mean", mean}, {"stddev", dev}, {"N", n}};
}

Json idle_direction() {
  return {{"io_bytes", 0}, {"io_kbytes", 0}, {"bw_bytes", 0}, {"bw", 0}, {"iops", 0.0}, {"runtime", 0},
          {"total_ios", 0}, {"slat_ns", lat(0, 0, 0, 0, 0)}, {"clat_ns", lat(0, 0, 0, 0, 0)},
          {"lat_ns", lat(0, 0, 0, 0, 0)}, {"bw_samples", 0}, {"iops_samples", 0}};
}

// fio HOWTO's "Normal output" example job (a write job of 921 I/Os, 3684 KiB in 5914 ms), as fio.json.
Json howto_example() {
  Json w = idle_direction();
  w["io_bytes"] = 3684 * 1024;
  w["io_kbytes"] = 3684;
  w["runtime"] = 5914;
  w["total_ios"] = 921;
  w["clat_ns"] = lat(921, 313, 20000, 1040.43, 1016.71);
  Json pct = Json::object();
  const uint64_t v[17] = {322, 334, 346, 386, 498, 588, 652, 740, 836, 948, 1240, 1848, 4256, 6176, 11200, 14016, 20096};
  const char* keys[17] = {"1.000000", "5.000000", "10.000000", "20.000000", "30.000000", "40.000000",
                          "50.000000", "60.000000", "70.000000", "80.000000", "90.000000", "95.000000",
                          "99.000000", "99.500000", "99.900000", "99.950000", "99.990000"};
  for (int i = 0; i < 17; ++i) pct[keys[i]] = v[i];
  w["clat_ns"]["percentile"] = pct;
  w["lat_ns"] = lat(921, 313, 20000, 1049.84, 1016.74);
  w["bw_min"] = 528, w["bw_max"] = 768, w["bw_agg"] = 100.0, w["bw_mean"] = 627.86, w["bw_dev"] = 70.22;
  w["bw_samples"] = 11;
  w["iops_min"] = 132, w["iops_max"] = 192, w["iops_mean"] = 156.95, w["iops_stddev"] = 17.55;
  w["iops_samples"] = 11;
  Json job = {{"jobname", "Client1"}, {"groupid", 0}, {"error", 0}, {"read", idle_direction()}, {"write", w},
              {"trim", idle_direction()}, {"usr_cpu", 0.0}, {"sys_cpu", 0.0}, {"ctx", 0}, {"majf", 0}, {"minf", 0}};
  job["iodepth_level"] = {{"1", 100.0}, {"2", 0.0}, {"4", 0.0}, {"8", 0.0}, {"16", 0.0}, {"32", 0.0}, {">=64", 0.0}};
  job["iodepth_submit"] = {{"0", 0.0}, {"4", 100.0}, {"8", 0.0}, {"16", 0.0}, {"32", 0.0}, {"64", 0.0}, {">=64", 0.0}};
  job["iodepth_complete"] = job["iodepth_submit"];
  job["latency_ns"] = {{"2", 0.0},  {"4", 0.0},   {"10", 0.0},    {"20", 0.0},    {"50", 0.0},
                       {"100", 0.0}, {"250", 0.0}, {"500", 27.10}, {"750", 31.46}, {"1000", 32.73}};
  job["latency_us"] = {{"2", 5.59},  {"4", 1.22},  {"10", 1.57}, {"20", 0.33}, {"50", 0.004},
                       {"100", 0.0}, {"250", 0.0}, {"500", 0.0}, {"750", 0.0}, {"1000", 0.0}};
  job["latency_ms"] = Json::object();
  for (const char* k : {"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"})
    job["latency_ms"][k] = 0.0;
  job["latency_depth"] = 1, job["latency_target"] = 0, job["latency_percentile"] = 100.0, job["latency_window"] = 0;
  Json disk = {{"name", "ssdtlm"}, {"read_ios", 0}, {"write_ios", 921}, {"read_sectors", 0}, {"write_sectors", 7368},
               {"read_merges", 0}, {"write_merges", 0}, {"read_ticks", 0}, {"write_ticks", 1}, {"in_queue", 1},
               {"util", 12.5}};
  return {{"fio version", "ssdtlm-test"}, {"jobs", Json::array({job})}, {"disk_util", Json::array({disk})}};
}

}  // namespace

TEST_CASE("fio text: num2str formats as fio's lib/num2str.c", "[fio][fio-text]") {
  CHECK(fio_num2str(4096, 4, 1, true, FioUnit::Byte) == "4096B");
  CHECK(fio_num2str(65536, 4, 1, true, FioUnit::Byte) == "64.0KiB");  // fio: "bs=(R) 64.0KiB-64.0KiB"
  CHECK(fio_num2str(637878, 4, 1, true, FioUnit::BytePerSec) == "623KiB/s");  // 622 KiB + 950 B: carried
  CHECK(fio_num2str(637878, 4, 1, false, FioUnit::BytePerSec) == "638kB/s");
  CHECK(fio_num2str(3684 * 1024, 4, 1, true, FioUnit::Byte) == "3684KiB");
  CHECK(fio_num2str(3684 * 1024, 4, 1, false, FioUnit::Byte) == "3772kB");
  CHECK(fio_num2str(155, 4, 1, false, FioUnit::None) == "155");
  CHECK(fio_num2str(122884, 4, 1, false, FioUnit::None) == "123k");
  CHECK(fio_num2str(20000, 6, 1, false, FioUnit::None) == "20000");
  CHECK(fio_num2str(1234567, 6, 1, false, FioUnit::None) == "1234.6k");  // room for a decimal
  CHECK(fio_num2str(503316480, 4, 1, true, FioUnit::BytePerSec) == "480MiB/s");
  CHECK(fio_num2str(1, 4, 1, true, FioUnit::Bit) == "8bit");
}

TEST_CASE("fio text: normal output of fio's HOWTO example, line by line", "[fio][fio-text]") {
  const Json f = howto_example();
  const std::string out = fio_normal_report(f, {FioTextEntry()});
  INFO(out);
  const auto l = lines(out);
  REQUIRE(l.size() > 12);
  CHECK(l[0].empty());  // fio starts its report with a new line
  CHECK(l[1].rfind("Client1: (groupid=0, jobs=1): err= 0: pid=", 0) == 0);
  CHECK(l[2] == "  write: IOPS=155, BW=623KiB/s (638kB/s)(3684KiB/5914msec)");
  CHECK(l[3] == "    clat (nsec): min=313, max=20000, avg=1040.43, stdev=1016.71");
  CHECK(l[4] == "     lat (nsec): min=313, max=20000, avg=1049.84, stdev=1016.74");
  // fio's table: usec (min 322 ns is not > 2000: nsec), 4 per row at this width, fio's precision 2.
  CHECK(l[5] == "    clat percentiles (nsec):");
  CHECK(l[6] == "     |  1.00th=[  322],  5.00th=[  334], 10.00th=[  346], 20.00th=[  386],");
  CHECK(l[10] == "     | 99.99th=[20096]");
  CHECK(l[11] == "   bw (  KiB/s): min=  528, max=  768, per=100.00%, avg=627.86, stdev=70.22, samples=11");
  CHECK(l[12] == "   iops        : min=  132, max=  192, avg=156.95, stdev=17.55, samples=11");
  CHECK(l[13] == "  lat (nsec)   : 500=27.10%, 750=31.46%, 1000=32.73%");
  CHECK(l[14] == "  lat (usec)   : 2=5.59%, 4=1.22%, 10=1.57%, 20=0.33%, 50=0.01%");  // 0.004 % shows 0.01
  CHECK(l[15] == "  cpu          : usr=0.00%, sys=0.00%, ctx=0, majf=0, minf=0");
  CHECK(l[16] == "  IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%");
  CHECK(l[17] == "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%");
  CHECK(l[18] == "     complete  : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%");
  CHECK(l[19] == "     issued rwts: total=0,921,0,0 short=0,0,0,0 dropped=0,0,0,0");
  CHECK(l[20] == "     latency   : target=0.00ns, window=0.00ns, percentile=100.00%, depth=1");  // fio 3.42's format
  CHECK(l[21].empty());
  CHECK(l[22] == "Run status group 0 (all jobs):");
  CHECK(l[23] == "  WRITE: bw=623KiB/s (638kB/s), 623KiB/s-623KiB/s (638kB/s-638kB/s), io=3684KiB (3772kB), "
                 "run=5914-5914msec");
  CHECK(l[25] == "Disk stats (read/write):");
  CHECK(l[26] == "  ssdtlm: ios=0/921, sectors=0/7368, merge=0/0, ticks=0/1, in_queue=1, util=12.50%");

  // Larger latencies scale as fio scales them: usec once min > 2000 ns, max > 99999 ns and stdev > 1000 ns.
  Json g = f;
  g["jobs"][0]["write"]["clat_ns"] = lat(921, 250000, 1234567, 500123.4, 100456.7);
  const std::string scaled = fio_normal_report(g, {FioTextEntry()});
  CHECK(has_line(scaled, "    clat (usec): min=250, max=1234, avg=500.12, stdev=100.46"));
  // kb_base=1000 and group_reporting's members
  FioTextEntry e;
  e.pow2 = false;
  e.members = 4;
  const std::string si = fio_normal_report(f, {e});
  CHECK(si.find("(groupid=0, jobs=4)") != std::string::npos);
  CHECK(has_line(si, "  write: IOPS=155, BW=638kB/s (623KiB/s)(3772kB/5914msec)"));
}

TEST_CASE("fio text: terse lines of a run have fio's fields and fio.json's numbers", "[sim][fio-text]") {
  Config c = generic_config({"geometry.channels=2", "geometry.dies_per_channel=2", "geometry.blocks_per_plane=64",
                             "geometry.pages_per_block=64", "buffer.bytes=1M", "precondition.drive_writes=0"});
  c.merge_text(R"({"jobs": [
      {"name": "mixed", "queues": 1, "queue_depth": 8, "read_fraction": 0.3, "io_count": 6000, "report_group": -1},
      {"name": "reader.0", "queues": 1, "queue_depth": 4, "read_fraction": 1, "io_count": 3000, "report_group": 0},
      {"name": "reader.1", "queues": 1, "queue_depth": 4, "read_fraction": 1, "io_count": 3000, "report_group": 0}]})",
               "jobs.json");
  RunOptions o;
  o.fio_json = true;
  o.fio_normal = true;
  o.fio_terse = 3;
  const RunResult r = simulate(c, generic_platform_info(), o);
  const Json& f = r.fio_json;
  const auto entries = fio_text_entries(read_params(c), nullptr);
  REQUIRE(entries.size() == 2);
  CHECK(entries[1].members == 2);

  const auto t = lines(r.fio_terse);
  REQUIRE(t.size() == 2);  // one line per job (the readers are one group)
  const auto v = split(t[0], ';');
  // terse v3: 5 + 2 x 41 (read, write) + 5 cpu + 7 depths + 10 usec + 12 msec + 9 disk fields
  CHECK(v.size() == 130);
  CHECK(v[0] == "3");
  CHECK(v[1] == f["fio version"]);
  CHECK(v[2] == "mixed");
  const Json& w = f["jobs"][0]["write"];
  const Json& rd = f["jobs"][0]["read"];
  CHECK(std::stoull(v[5]) == rd["io_kbytes"].get<uint64_t>());
  CHECK(std::stoull(v[8]) == rd["runtime"].get<uint64_t>());
  CHECK(std::stoull(v[46]) == w["io_kbytes"].get<uint64_t>());
  CHECK(std::stoull(v[47]) == (1000 * w["io_bytes"].get<uint64_t>() / w["runtime"].get<uint64_t>()) / 1024);
  CHECK(std::stoull(v[48]) == 1000 * w["total_ios"].get<uint64_t>() / w["runtime"].get<uint64_t>());
  CHECK(std::stoull(v[55]) == w["clat_ns"]["max"].get<uint64_t>() / 1000);  // clat min, max (usec)
  // fio's t/latency_percentiles.py check_terse: field = floor(json percentile / 1000), fields 58..74 (write)
  // and 17..33 (read) for fio's default list.
  int checked = 0;
  for (size_t i = 0; i < 17; ++i)
    for (auto [at, dir] : {std::pair<size_t, const Json*>{17 + i, &rd}, {58 + i, &w}}) {
      const auto pct = split(v[at], '%');
      REQUIRE(pct.size() == 2);
      const uint64_t json_val = (*dir)["clat_ns"]["percentile"][pct[0]].get<uint64_t>();
      CHECK(std::stoull(pct[1].substr(1)) == json_val / 1000);
      ++checked;
    }
  CHECK(checked == 34);
  CHECK(v[34] == "0%=0");  // fields 18 to 20 of the list: unused
  CHECK(v[121] == "ssdtlm");  // the disk
  CHECK(std::stoull(v[123]) == f["disk_util"][0]["write_ios"].get<uint64_t>());

  // Versions 2, 4, 5: without the fio version and the disk (2), with trim (2, 4, 5), bw samples and iops (5).
  const size_t expected[4] = {4 + 3 * 41 + 34, 130, 5 + 3 * 41 + 34 + 9, 5 + 3 * 47 + 34 + 9};
  for (int version = 2; version <= 5; ++version) {
    const auto line = lines(fio_terse_report(f, entries, version))[0];
    CHECK(split(line, ';').size() == expected[version - 2]);
    CHECK(split(line, ';')[0] == std::to_string(version));
  }
  const auto v5 = split(lines(fio_terse_report(f, entries, 5))[1], ';');
  const Json& readers = f["jobs"][1]["read"];
  CHECK(std::stoull(v5[46]) == readers["bw_samples"].get<uint64_t>());
  CHECK(std::stoull(v5[51]) == readers["iops_samples"].get<uint64_t>());
  CHECK_THROWS(fio_terse_report(f, entries, 6));

  // The normal report: both entries, the readers' "jobs=2", the group line and the disk.
  INFO(r.fio_normal);
  CHECK(r.fio_normal.find("mixed: (groupid=0, jobs=1)") != std::string::npos);
  CHECK(r.fio_normal.find("reader.0: (groupid=0, jobs=2)") != std::string::npos);
  CHECK(r.fio_normal.find("clat percentiles (") != std::string::npos);
  CHECK(r.fio_normal.find("\nRun status group 0 (all jobs):\n   READ: bw=") != std::string::npos);
  CHECK(r.fio_normal.find("  WRITE: bw=") != std::string::npos);
  CHECK(r.fio_normal.find("\nDisk stats (read/write):\n  ssdtlm: ios=") != std::string::npos);
}

TEST_CASE("fio text: the lines fio prints before the run: job lines and clones then version and Starting", "[fio][fio-text]") {
  const FioJobFile f = parse_fio_job_text(
      "[global]\nthread\nioengine=libaio\niodepth=32\n[seq]\nrw=write\nbs=64k\nnumjobs=3\nsize=16m\n"
      "[mixed]\nstonewall\nrw=randrw:8\nbssplit=4k/50:128k/50\nsize=16m\n",
      "head.fio", uint64_t(1) << 30);
  const auto l = lines(fio_normal_header(f, "ssdtlm-test"));
  REQUIRE(l.size() == 5);
  CHECK(l[0] == "seq: (g=0): rw=write, bs=(R) 64.0KiB-64.0KiB, (W) 64.0KiB-64.0KiB, (T) 64.0KiB-64.0KiB, "
                "ioengine=libaio, iodepth=32");
  CHECK(l[1] == "...");  // fio: the clones once
  CHECK(l[2] == "mixed: (g=1): rw=randrw, bs=(R) 4096B-128KiB, (W) 4096B-128KiB, (T) 4096B-128KiB, "
                "ioengine=libaio, iodepth=32");
  CHECK(l[3] == "ssdtlm-test");
  CHECK(l[4] == "Starting 4 threads");
}
