// fio job files: fio's syntax and inheritance, every class of option, what is ignored, what is refused
// (naming file, line and option), and the shipped examples.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>


#include "common/temp_dir.h"
#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

constexpr uint64_t kDevice = 16ull << 30;

FioJobFile parse(const std::string& text, uint64_t device = kDevice, const std::string& path = "job.fio") {
  return parse_fio_job_text(text, path, device);
}

std::string error_of(const std::string& text, uint64_t device = kDevice) {
  return test::config_error_of([&] { parse(text, device); });
}

const nlohmann::json& job(const FioJobFile& f, size_t j) { return f.jobs.at(j).config; }

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("fio") {}
};

}  // namespace

TEST_CASE("fio: a [global] section sets defaults for the jobs below it only", "[fio]") {
  const auto f = parse(R"(
[global]
rw=randwrite
bs=8k
iodepth=4
[a]
[global]
bs=16k
[b]
rw=read
[c]
bs=4k
iodepth=1
)");
  REQUIRE(f.jobs.size() == 3);
  CHECK(job(f, 0)["name"] == "a");
  CHECK(job(f, 0)["pattern"] == "random");
  CHECK(job(f, 0)["read_fraction"] == 0.0);
  CHECK(job(f, 0)["block_bytes"] == 8192);  // the later [global] does not reach back
  CHECK(job(f, 0)["queue_depth"] == 4);
  CHECK(job(f, 0)["queues"] == 1);
  CHECK(job(f, 1)["pattern"] == "sequential");
  CHECK(job(f, 1)["read_fraction"] == 1.0);
  CHECK(job(f, 1)["block_bytes"] == 16384);  // the second [global] applies from here on
  CHECK(job(f, 2)["pattern"] == "random");   // the first [global] still does
  CHECK(job(f, 2)["block_bytes"] == 4096);   // a job's own option wins
  CHECK(job(f, 2)["queue_depth"] == 1);
  CHECK(f.global_options.size() == 4);
  CHECK(f.jobs[2].options.size() == 2);
  CHECK(f.config["jobs"].size() == 3);
}

TEST_CASE("fio: comments, flags, include, ${VAR} and (expressions)", "[fio]") {
  TempDir dir;
  dir.write("inc.fio", "rw=randrw   # from the include\nrwmixread=30\n");
  setenv("SSDTLM_TEST_FIO_SIZE", "1g", 1);
  unsetenv("SSDTLM_TEST_FIO_UNSET");
  const std::string path = dir.write("main.fio", R"(
; a comment
# another
[global]
ioengine=libaio ; a trailing comment
include inc.fio
[job]
size=${SSDTLM_TEST_FIO_SIZE}
description=${SSDTLM_TEST_FIO_UNSET}
iodepth=(4*8)
bs=(2*2k)
norandommap
time_based
runtime=(1000*1000)
)");
  const auto f = read_fio_job_file(path, kDevice);
  REQUIRE(f.jobs.size() == 1);
  const auto& j = job(f, 0);
  CHECK(j["pattern"] == "random");
  CHECK(j["read_fraction"] == Approx(0.3));
  CHECK(j["address_range"] == 1ull << 30);
  CHECK(j["queue_depth"] == 32);
  CHECK(j["block_bytes"] == 4096);
  CHECK(j["random_map"] == false);
  CHECK(j["runtime_ms"] == Approx(1000));  // fio: microseconds inside expressions
  CHECK(j["io_count"] == 0);
  CHECK(j["io_bytes"] == 0);
  CHECK(f.ignored == std::vector<std::string>{"ioengine", "description"});
  CHECK_THAT(error_of("[j]\nsize=$ncpus\n"), Contains("job.fio:2") && Contains("$ncpus"));
  CHECK_THAT(error_of("[j]\nsize=${OPEN\n"), Contains("unterminated"));
  CHECK_THAT(error_of("[j]\nbs=(4k*\n"), Contains("job.fio:2") && Contains("bs"));
}

TEST_CASE("fio: rw and the read/write/trim mix", "[fio]") {
  struct Case {
    const char* rw;
    const char* pattern;
    double read, trim;
  };
  for (const Case& k : {Case{"read", "sequential", 1, 0}, Case{"write", "sequential", 0, 0},
                        Case{"trim", "sequential", 0, 1}, Case{"randread", "random", 1, 0},
                        Case{"randwrite", "random", 0, 0}, Case{"randtrim", "random", 0, 1},
                        Case{"rw", "sequential", 0.5, 0}, Case{"readwrite", "sequential", 0.5, 0},
                        Case{"randrw", "random", 0.5, 0}}) {
    INFO("rw=" << k.rw);
    const auto f = parse(std::string("[j]\nrw=") + k.rw + "\n");
    CHECK(job(f, 0)["pattern"] == k.pattern);
    CHECK(job(f, 0)["read_fraction"] == Approx(k.read));
    CHECK(job(f, 0)["trim_fraction"] == Approx(k.trim));
  }
  CHECK(job(parse("[j]\n"), 0)["read_fraction"] == 1.0);  // fio's default is rw=read
  CHECK(job(parse("[j]\nreadwrite=randrw\nrwmixread=70\n"), 0)["read_fraction"] == Approx(0.7));
  CHECK(job(parse("[j]\nrw=randrw\nrwmixwrite=20\n"), 0)["read_fraction"] == Approx(0.8));
  CHECK(job(parse("[j]\nrw=randrw\nrwmixread=40\nrwmixwrite=70\n"), 0)["read_fraction"] == Approx(0.3));  // the later wins
  CHECK(parse("[j]\nrw=randread:8\n").jobs.at(0).config["random_run"] == 8);
  CHECK(parse("[j]\nrw=randread:8\nrw_sequencer=identical\n").jobs.at(0).config["random_run_repeat"] == true);
  CHECK(parse("[j]\nrw=write:4k\n").jobs.at(0).config["sequential_skip"] == 4096);
  CHECK_THAT(error_of("[j]\nrw=randread:\n"), Contains("job.fio:2") && Contains("after ':'"));
  CHECK_THAT(error_of("[j]\nrw=trimwrite\n"), Contains("not modelled") && Contains("trim+write"));
  CHECK_THAT(error_of("[j]\nrw=sideways\n"), Contains("job.fio:2") && Contains("expected read, write"));
  CHECK_THAT(error_of("[j]\nrwmixread=120\n"), Contains("percentage"));
}

TEST_CASE("fio: block sizes, size mixes, ranges, alignment and kb_base", "[fio]") {
  CHECK(job(parse("[j]\nrw=randwrite\nbs=4k,64k\n"), 0)["block_bytes"] == 65536);  // writes use the second
  CHECK(job(parse("[j]\nrw=randread\nbs=4k,64k\n"), 0)["block_bytes"] == 4096);
  CHECK(job(parse("[j]\nrw=randrw\nbs=16k,16k,\n"), 0)["block_bytes"] == 16384);
  CHECK_THAT(error_of("[j]\nrw=randrw\nbs=4k,64k\n"), Contains("different block sizes") && Contains("not modelled"));
  const auto split = parse("[j]\nrw=randwrite\nbssplit=4k/50:64k/30:1m/\n");
  CHECK(job(split, 0)["bssplit"] == "4096/50:65536/30:1048576/");
  CHECK(job(split, 0)["block_bytes"] == 4096);
  CHECK_THAT(error_of("[j]\nbssplit=4k/70:64k/70\n"), Contains("job.fio:2") && Contains("bssplit"));
  CHECK(job(parse("[j]\nbsrange=4k-16k\n"), 0)["bssplit"] == "4096/:8192/:12288/:16384/");
  CHECK_THAT(error_of("[j]\nbsrange=16k:4k\n"), Contains("job.fio:2") && Contains("smaller block size first"));  // fio swaps them silently
  const auto aligned = parse("[j]\nrw=randwrite\nbs=8k\nblockalign=4k\n");
  CHECK(job(aligned, 0)["block_align"] == 4096);
  CHECK(job(aligned, 0)["random_map"] == false);  // fio: blockalign turns the random map off
  CHECK(job(parse("[j]\nrw=randwrite\n"), 0)["random_map"] == true);
  CHECK(job(parse("[j]\nkb_base=1000\nbs=4k\n"), 0)["block_bytes"] == 4000);
  const auto iec = parse("[j]\nbs=4KiB\n");  // fio reads KiB as 1000 bytes under kb_base=1024
  CHECK(job(iec, 0)["block_bytes"] == 4000);
  REQUIRE(iec.notes.size() == 1);
  CHECK_THAT(iec.notes[0], Contains("job.fio:2") && Contains("kb_base"));
  CHECK(job(parse("[j]\nkb_base=1000\nbs=4KiB\n"), 0)["block_bytes"] == 4096);
  CHECK_THAT(error_of("[j]\nkb_base=512\n"), Contains("1024 or 1000"));
  CHECK_THAT(error_of("[j]\nbs=4x\n"), Contains("job.fio:2") && Contains("unknown unit"));
  CHECK_THAT(error_of("[j]\nbs=128m\n"), Contains("job 'j'") && Contains("block_bytes"));  // schema range, by job
}

TEST_CASE("fio: random distributions", "[fio]") {
  CHECK(job(parse("[j]\nrw=randwrite\nrandom_distribution=zipf:1.2\n"), 0)["distribution"] == "zipf:1.2");
  CHECK(job(parse("[j]\nrw=randwrite\nrandom_distribution=pareto:0.5\n"), 0)["distribution"] == "pareto:0.5");
  CHECK(job(parse("[j]\nrw=randwrite\nrandom_distribution=zoned:60/10:30/20:10/70\n"), 0)["distribution"] ==
        "zoned:60/10:30/20:10/70");
  // zoned_abs: absolute zone sizes become shares of the job's range (the rest is not accessed).
  const auto abs = parse("[j]\nrw=randwrite\nsize=8g\nrandom_distribution=zoned_abs:60/2g:40/4g\n");
  CHECK(job(abs, 0)["distribution"] == "zoned:60/25:40/50:0/25");
  CHECK_THAT(error_of("[j]\nrw=randread\nsize=1g\nrandom_distribution=zoned_abs:60/2g:40/4g\n"), Contains("more than the job's range"));
  CHECK_THAT(error_of("[j]\nrandom_distribution=zipf:1.2:0.25\n"), Contains("job.fio:2") && Contains("centre"));
  CHECK_THAT(error_of("[j]\nrandom_distribution=sequence:2,0,1\n"), Contains("not modelled"));
  CHECK_THAT(error_of("[j]\nrw=randwrite\nrandom_distribution=zipf:abc\n"), Contains("job.fio:3") && Contains("zipf"));
  CHECK_THAT(error_of("[j]\nrw=randrw\nrandom_distribution=zipf:1.2,zipf:0.8\n"), Contains("per direction"));
  const auto seq = parse("[j]\nrw=write\nrandom_distribution=zipf:1.2\n");
  CHECK_THAT(seq.notes.at(0), Contains("no effect on sequential"));
  CHECK(job(seq, 0)["distribution"] == "random");  // not used: a sequential job with normal/zipf is valid
  CHECK(job(parse("[j]\nrw=write\nrandom_distribution=normal\n"), 0)["distribution"] == "random");
}

TEST_CASE("fio: size, offset, percentages, offset_increment and numjobs", "[fio]") {
  const auto f = parse("[j]\nrw=randwrite\nsize=25%\noffset=10%\noffset_increment=1g\nnumjobs=3\n");
  REQUIRE(f.jobs.size() == 3);
  const uint64_t first = ((kDevice / 10) + 4095) / 4096 * 4096;  // rounded up to the block size, as fio
  for (size_t k = 0; k < 3; ++k) {
    CHECK(job(f, k)["name"] == "j." + std::to_string(k));
    CHECK(f.jobs[k].name == "j");
    CHECK(f.jobs[k].clone == k);
    CHECK(job(f, k)["address_offset"] == first + k * (1ull << 30));
    CHECK(job(f, k)["address_range"] == kDevice / 4);
  }
  const auto whole = parse("[j]\noffset=4g\n");
  CHECK(job(whole, 0)["address_range"] == kDevice - (4ull << 30));  // no size: the rest of the device
  CHECK(job(parse("[j]\nfilesize=2g\n"), 0)["address_range"] == 2ull << 30);
  CHECK_THAT(error_of("[j]\noffset=16g\n"), Contains("beyond the device") && Contains("16 GiB"));
  CHECK_THAT(error_of("[j]\noffset=12g\nsize=8g\n"), Contains("job.fio:1") && Contains("offset + size"));
  CHECK_THAT(error_of("[j]\nsize=150%\n"), Contains("percentage"));
  CHECK_THAT(error_of("[j]\nnumjobs=0\n"), Contains("at least 1"));
}

TEST_CASE("fio: how much a job does: size, io_size, loops, number_ios, runtime, time_based", "[fio]") {
  const auto once = parse("[j]\nrw=randwrite\nsize=1g\n");
  CHECK(job(once, 0)["io_bytes"] == 1ull << 30);  // fio's default: size bytes, then stop
  CHECK(job(once, 0)["io_count"] == 0);
  CHECK(job(once, 0)["runtime_ms"] == 0.0);
  CHECK(job(parse("[j]\nsize=1g\nio_size=5g\n"), 0)["io_bytes"] == 5ull << 30);
  CHECK(job(parse("[j]\nsize=1g\nio_limit=2g\nloops=3\n"), 0)["io_bytes"] == 6ull << 30);
  CHECK(job(parse("[j]\nsize=1g\nnumber_ios=1000\n"), 0)["io_count"] == 1000);
  const auto capped = parse("[j]\nsize=1g\nruntime=2m\n");  // runtime caps, whichever comes first
  CHECK(job(capped, 0)["runtime_ms"] == Approx(120000));
  CHECK(job(capped, 0)["io_bytes"] == 1ull << 30);
  const auto timed = parse("[j]\nsize=1g\ntime_based\nruntime=30\nnumber_ios=10\n");
  CHECK(job(timed, 0)["runtime_ms"] == Approx(30000));
  CHECK(job(timed, 0)["io_bytes"] == 0);
  CHECK(job(timed, 0)["io_count"] == 0);
  // fio's fixup_options: time_based without a runtime is an error message and the job runs without it.
  const auto untimed = parse("[j]\nsize=1g\ntime_based\n");
  CHECK(job(untimed, 0)["io_bytes"] == 1ull << 30);
  CHECK(job(untimed, 0)["runtime_ms"] == Approx(0));
  CHECK_THAT(untimed.notes.at(0), Contains("job.fio:3") && Contains("time_based requires a runtime"));
  CHECK_THAT(error_of("[j]\nruntime=soon\n"), Contains("job.fio:2") && Contains("runtime"));
}

TEST_CASE("fio: pacing: ramp_time, startdelay, stonewall, thinktime, rate_iops, rate", "[fio]") {
  const auto f = parse(R"(
[global]
rw=randread
size=1g
[a]
ramp_time=2s
startdelay=500ms
thinktime=100
thinktime_blocks=4
rate_iops=1000
[b]
stonewall
rate=100m
[c]
wait_for_previous
)");
  CHECK(job(f, 0)["ramp_ms"] == Approx(2000));
  CHECK(job(f, 0)["start_delay_ms"] == Approx(500));
  CHECK(job(f, 0)["thinktime_us"] == Approx(100));  // fio: microseconds by default
  CHECK(job(f, 0)["thinktime_blocks"] == 4);
  CHECK(job(f, 0)["rate_iops"] == Approx(1000));
  CHECK(job(f, 0)["stonewall"] == false);
  CHECK(job(f, 1)["stonewall"] == true);
  CHECK(job(f, 1)["rate_mbps"] == Approx(104.8576));  // 100 MiB/s in 10^6 B/s
  CHECK(job(f, 2)["stonewall"] == true);
  CHECK(f.jobs[0].group == 0);
  CHECK(f.jobs[1].group == 1);
  CHECK(f.jobs[2].group == 2);
  CHECK(job(parse("[j]\nthinktime=1ms\n"), 0)["thinktime_us"] == Approx(1000));
  CHECK_THAT(error_of("[j]\nrw=randrw\nrate_iops=100,200\n"), Contains("rate_iops") && Contains("per direction"));
  CHECK_THAT(error_of("[j]\nrw=randrw\nrate_iops=,200\n"), Contains("rate_iops") && Contains("some of the job's directions"));
  // fio caps each direction at its rate: a mixed job in the rates' ratio moves their sum
  CHECK(job(parse("[j]\nrw=randrw\nrate=300\n"), 0)["rate_mbps"] == Approx(600e-6));
  CHECK(job(parse("[j]\nrw=randrw\nrwmixread=75\nrate_iops=300,100\n"), 0)["rate_iops"] == Approx(400));
  CHECK_THAT(error_of("[j]\nrw=randrw\nrwmixread=70\nrate=1m\n"), Contains("shifts the mix"));
  CHECK(job(parse("[j]\nrw=read\nrate=,1m\n"), 0)["rate_mbps"] == Approx(0));  // the write rate of a read job
  CHECK(job(parse("[j]\nrw=randrw\nrandom_distribution=zoned:60/10:40/90,zoned:60/10:40/90\n"), 0)["distribution"] ==
        "zoned:60/10:40/90");
  CHECK(job(parse("[j]\nrw=randwrite\nrate_iops=,200\n"), 0)["rate_iops"] == Approx(200));
  CHECK_THAT(error_of("[j]\nstartdelay=1-5\n"), Contains("not modelled"));
  CHECK_THAT(error_of("[j]\nthinktime_blocks_type=issue\n"), Contains("not modelled"));
  CHECK(parse("[j]\nrate_process=poisson\n").jobs.at(0).config["rate_process"] == "linear");  // no rate to shape
  CHECK(parse("[j]\nrate_iops=1000\nrate_process=poisson\n").jobs.at(0).config["rate_process"] == "poisson");
  CHECK_THAT(error_of("[j]\nrate_process=bursty\n"), Contains("expected linear or poisson"));
  CHECK_THAT(error_of("[j]\nwait_for=other\n"), Contains("job.fio:2") && Contains("an earlier job"));
}

TEST_CASE("fio: reporting groups, group_reporting, randseed, name", "[fio]") {
  const auto f = parse(R"(
[global]
group_reporting
randseed=42
[w]
name=writers
rw=randwrite
numjobs=2
[r]
new_group
rw=randread
)");
  REQUIRE(f.jobs.size() == 3);
  CHECK(f.jobs[0].name == "writers");
  CHECK(job(f, 0)["name"] == "writers.0");
  CHECK(job(f, 0)["report_group"] == 0);
  CHECK(job(f, 1)["report_group"] == 0);
  CHECK(job(f, 2)["report_group"] == 1);
  CHECK(f.config["sim"]["seed"] == 42);
  CHECK(job(parse("[j]\n"), 0)["report_group"] == -1);
  CHECK_THAT(error_of("[a]\nrandseed=1\n[b]\nrandseed=2\n"), Contains("job.fio:4") && Contains("different randseed"));
  const auto rr = parse("[j]\nrandrepeat=0\n");
  CHECK(rr.ignored == std::vector<std::string>{"randrepeat"});
  CHECK_THAT(rr.notes.at(0), Contains("reproducible"));
}

TEST_CASE("fio: strided zones", "[fio]") {
  const auto f = parse("[j]\nrw=randwrite\nzonemode=strided\nzonerange=256m\nzonesize=64m\nzoneskip=256m\n");
  CHECK(job(f, 0)["zone_range"] == 256ull << 20);
  CHECK(job(f, 0)["zone_size"] == 64ull << 20);
  CHECK(job(f, 0)["zone_skip"] == 256ull << 20);
  const auto implied = parse("[j]\nzonesize=64m\n");  // fio: zonesize alone means strided, zonerange = zonesize
  CHECK(job(implied, 0)["zone_range"] == 64ull << 20);
  CHECK(job(parse("[j]\nzonemode=none\n"), 0)["zone_range"] == 0);
  // zonemode=zbd: zoned namespaces (docs/reference/placement.md); the zones are the namespace's.
  const auto zbd = parse("[j]\nrw=randwrite\ndirect=1\nzonemode=zbd\nzonesize=256m\nzonecapacity=128m\nmax_open_zones=8\n"
                         "job_max_open_zones=4\nzone_reset_threshold=0.7\nzone_reset_frequency=0.125\n");
  CHECK(job(zbd, 0)["zbd"] == true);
  CHECK(job(zbd, 0)["zbd_max_open"] == 4);
  CHECK(job(zbd, 0)["zbd_reset_threshold"] == 0.7);
  CHECK(job(zbd, 0)["zbd_reset_frequency"] == 0.125);
  CHECK(job(zbd, 0)["zone_range"] == 0);  // not strided
  CHECK(job(parse("[j]\nrw=write\ndirect=1\nzonemode=zbd\nwrite_mode=zone_append\n"), 0)["zbd_append"] == true);
  CHECK_THAT(error_of("[j]\nzonemode=zbd\nwrite_mode=uncor\n"), Contains("not modelled"));
  CHECK_THAT(error_of("[j]\nzonemode=strided\n"), Contains("needs zonesize"));
  CHECK_THAT(error_of("[j]\nzonemode=zbd\nzone_reset_threshold=2\n"), Contains("between 0 and 1"));
  CHECK_THAT(error_of("[j]\nzonemode=zbd\nread_beyond_wp=1\n"), Contains("not modelled"));
}

TEST_CASE("fio: read_iolog replays a trace at its timing unless replay_no_stall", "[fio]") {
  TempDir dir;
  dir.write("x.iolog", "fio version 2 iolog\n/dev/sda add\n/dev/sda write 0 4096\n");
  const std::string path = dir.write("replay.fio", "[r]\nread_iolog=x.iolog\nreplay_time_scale=200\n[s]\nread_iolog=x.iolog\nreplay_no_stall=1\n");
  const auto f = read_fio_job_file(path, kDevice);
  CHECK(job(f, 0)["pattern"] == "trace");
  CHECK(job(f, 0)["trace_format"] == "fio_iolog");
  CHECK(fs::path(job(f, 0)["trace_path"].get<std::string>()) == fs::path(path).parent_path() / "x.iolog");
  CHECK(job(f, 0)["trace_timing"] == "open");
  CHECK(job(f, 0)["trace_time_scale"] == Approx(0.5));  // 200% of the rate: half the time
  CHECK(job(f, 1)["trace_timing"] == "closed");
  CHECK_THAT(error_of("[r]\nread_iolog=a.log:b.log\n"), Contains("not modelled"));
}

TEST_CASE("fio: unknown options, options outside a section and bad values name file and line", "[fio]") {
  CHECK_THAT(error_of("[global]\nrw=randwrite\n\n[j]\nbs=4k\ncolour=blue\n"),
             Contains("job.fio:6") && Contains("unknown fio option 'colour'"));
  CHECK_THAT(error_of("rw=read\n[j]\n"), Contains("job.fio:1") && Contains("outside of a [section]"));
  CHECK_THAT(error_of("[j\n"), Contains("job.fio:1") && Contains("section header"));
  CHECK_THAT(error_of("[j]\niodepth=many\n"), Contains("job.fio:2") && Contains("iodepth"));
  CHECK_THAT(error_of("[j]\nnorandommap=perhaps\n"), Contains("true or false"));
  CHECK_THAT(error_of("[j]\nrw\n"), Contains("expected a value"));
  CHECK_THAT(error_of("[global]\nbs=4k\n"), Contains("no job section"));
  CHECK_THAT(error_of("[j]\npercentile_list=50:x\n"), Contains("job.fio:2") && Contains("percentiles in (0, 100]"));
  CHECK_THAT(error_of("[j]\nunified_rw_reporting=some\n"), Contains("job.fio:2") && Contains("none, mixed or both"));
  CHECK_THAT(error_of("[j]\nsteadystate=iops\n"), Contains("job.fio:2") && Contains("expected iops, iops_slope"));
  CHECK_THAT(error_of("[j]\nss_dur=10ms\nss_interval=1s\n"), Contains("job.fio:2") && Contains("shorter than ss_interval"));
  CHECK_THAT(error_of("[j]\ninclude /nonexistent/x.fio\n"), Contains("include") && Contains("cannot open"));
  CHECK_THROWS_AS(read_fio_job_file("/nonexistent/job.fio", kDevice), ConfigError);
}

TEST_CASE("fio: options without effect on the device are listed once", "[fio]") {
  const auto f = parse(R"(
[global]
ioengine=libaio
direct=1
filename=/dev/nvme0n1
[a]
ioengine=io_uring
log_entries=4096
cpus_allowed=0-3
[b]
)");
  CHECK(f.ignored == std::vector<std::string>{"ioengine", "filename", "log_entries", "cpus_allowed"});  // direct: the page cache
}

namespace {
FioJobFile example(const std::string& name, uint64_t device = kDevice) {
  return read_fio_job_file(std::string(SSDTLM_SOURCE_DIR) + "/examples/fio/" + name, device);
}
}  // namespace

TEST_CASE("fio examples: seed 000 RAND is 4 jobs of 4 KiB random writes, 16 GiB each into 4 GiB", "[fio][examples]") {
  const auto f = example("seed000_rand.fio");
  REQUIRE(f.jobs.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    const auto& j = job(f, k);
    CHECK(j["name"] == "rand." + std::to_string(k));
    CHECK(j["pattern"] == "random");
    CHECK(j["read_fraction"] == 0.0);
    CHECK(j["block_bytes"] == 4096);
    CHECK(j["address_offset"] == 0);
    CHECK(j["address_range"] == 4ull << 30);
    CHECK(j["io_bytes"] == 16ull << 30);
    CHECK(j["queue_depth"] == 32);
    CHECK(j["report_group"] == 0);
  }
  Config c;
  c.merge(f.config, "seed000_rand.fio");
  CHECK(c.job_count() == 4);
}

TEST_CASE("fio examples: seed 000 JESD219 is fio's example inside the 4 GiB area", "[fio][examples]") {
  const auto f = example("seed000_jesd219.fio");
  REQUIRE(f.jobs.size() == 4);
  const auto& j = job(f, 0);
  CHECK(j["pattern"] == "random");
  CHECK(j["read_fraction"] == Approx(0.4));
  CHECK(j["queue_depth"] == 256);
  CHECK(j["bssplit"] ==
        "512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4096/67:8192/10:16384/7:32768/3:65536/3");
  CHECK(j["block_align"] == 4096);
  CHECK(j["random_map"] == false);
  CHECK(j["distribution"] == "zoned:50/5:30/15:20/80");
  CHECK(j["address_range"] == 4ull << 30);
  CHECK(j["io_bytes"] == 16ull << 30);
  CHECK(j["report_group"] == 0);
}

TEST_CASE("fio examples: seed 000 TPC-C replays the converted trace at its timing", "[fio][examples]") {
  const auto f = example("seed000_tpcc.fio");
  REQUIRE(f.jobs.size() == 1);
  const auto& j = job(f, 0);
  CHECK(j["pattern"] == "trace");
  CHECK(j["trace_format"] == "fio_iolog");
  CHECK(j["trace_timing"] == "open");
  CHECK(j["queue_depth"] == 64);
  CHECK(fs::exists(j["trace_path"].get<std::string>()));
}

TEST_CASE("fio examples: seed 004 runs 300 s of 4 KiB random writes per distribution", "[fio][examples]") {
  const uint64_t femu = 768ull << 20;
  for (auto [file, dist] : {std::pair<const char*, const char*>{"seed004_uniform.fio", "random"},
                            {"seed004_zipf08.fio", "zipf:0.8"},
                            {"seed004_zipf12.fio", "zipf:1.2"},
                            {"seed004_pareto05.fio", "pareto:0.5"},
                            {"seed004_normal.fio", "normal:1"}}) {
    INFO(file);
    const auto f = example(file, femu);
    REQUIRE(f.jobs.size() == 1);
    const auto& j = job(f, 0);
    CHECK(j["distribution"] == dist);
    CHECK(j["pattern"] == "random");
    CHECK(j["read_fraction"] == 0.0);
    CHECK(j["block_bytes"] == 4096);
    CHECK(j["runtime_ms"] == Approx(300000));
    CHECK(j["io_count"] == 0);
    CHECK(j["io_bytes"] == 0);
    CHECK(j["address_range"] == femu);
    CHECK(j["queue_depth"] == 32);
    CHECK(f.ignored == std::vector<std::string>{"ioengine", "filename"});
  }
}
