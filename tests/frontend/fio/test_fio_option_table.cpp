// fio's whole option table: every name and alias of fio 3.42 is known (modelled, without effect, or refused with
// its reason), engines are classed by what they do, and one run reports every error of a job file.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "job_text.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kDevice = test::kFioDevice;
FioJobFile parse(const std::string& text) { return test::parse_fio(text); }
std::string error_of(const std::string& text) { return test::fio_error(text); }

std::vector<std::string> fio_option_names() {
  std::ifstream in(std::string(SSDTLM_SOURCE_DIR) + "/tests/frontend/fio/data/fio_option_names.txt");
  std::vector<std::string> names;
  for (std::string l; std::getline(in, l);)
    if (!l.empty() && l[0] != '#') names.push_back(l);
  return names;
}

}  // namespace

TEST_CASE("fio options: every option and alias of fio 3.42 is known by name", "[fio][options]") {
  const auto names = fio_option_names();
  REQUIRE(names.size() > 390);
  size_t ignored = 0, refused = 0;
  for (const std::string& name : names) {
    INFO(name);
    const std::string e = error_of("[j]\nrw=write\nsize=1m\n" + name + "=1\n");
    CHECK_THAT(e, !Contains("unknown fio option"));
    if (e.empty())
      ++ignored;
    else
      ++refused;
  }
  CHECK(ignored > 200);
  CHECK(refused > 50);
}

TEST_CASE("fio options: a name fio does not have is unknown, naming file and line", "[fio][options]") {
  CHECK_THAT(error_of("[j]\n\nrw=write\nblocksise=4k\n"), Contains("job.fio:4: unknown fio option 'blocksise'"));
}

TEST_CASE("fio options: aliases read as their option", "[fio][options]") {
  const auto a = parse("[j]\nrw=write\ntimeout=3\n");
  const auto b = parse("[j]\nrw=write\nruntime=3\n");
  CHECK(a.jobs.at(0).config == b.jobs.at(0).config);
  CHECK(parse("[j]\nrw=write\nfileoffset=1m\n").jobs.at(0).config["address_offset"] == 1 << 20);
  CHECK(error_of("[j]\nrw=trim\nratemin=1m\nnr_files=2\nnum_range=2\n") ==
        "job.fio:5: option 'num_range=2': not modelled by ssdtlm: TRIM commands with several ranges");
}

TEST_CASE("fio options: engines that are not block I/O are refused by engine", "[fio][options]") {
  for (const char* e : {"libaio", "io_uring", "io_uring_cmd", "psync", "pvsync2", "sg", "xnvme", "mmap", "posixaio"}) {
    INFO(e);
    CHECK(error_of(std::string("[j]\nrw=write\nioengine=") + e + "\n").empty());
  }
  CHECK_THAT(error_of("[j]\nioengine=nbd\n"), Contains("job.fio:2: option 'ioengine=nbd': a network block device, not this drive"));
  CHECK_THAT(error_of("[j]\nioengine=filecreate\n"), Contains("metadata, no block I/O"));
  CHECK_THAT(error_of("[j]\nioengine=cpuio\n"), Contains("CPU load only"));
  CHECK_THAT(error_of("[j]\nioengine=null\n"), Contains("without any device"));
  CHECK_THAT(error_of("[j]\nioengine=external:/x.so\n"), Contains("external engine"));
  CHECK_THAT(error_of("[j]\nioengine=warpdrive\n"), Contains("not an I/O engine fio has"));
  // An option of a network engine, met with a block engine, names its engine.
  CHECK_THAT(error_of("[j]\nrw=write\nhttp_host=x\n"), Contains("fio's http engine"));
}

TEST_CASE("fio options: offset=0% is fio's default and reads as offset 0", "[fio][options]") {
  CHECK(parse("[j]\nrw=write\noffset=0%\nsize=10%\n").jobs.at(0).config["address_offset"] == 0);
  CHECK_THAT(error_of("[j]\nrw=write\noffset=100%\n"), Contains("[0, 100)"));
  CHECK_THAT(error_of("[j]\nrw=write\nsize=0%\n"), Contains("(0, 100]"));
}

TEST_CASE("fio options: an unset ${VAR} is named in the error its empty value causes", "[fio][options]") {
  unsetenv("SSDTLM_TEST_UNSET_BS");
  CHECK_THAT(error_of("[j]\nrw=write\nbs=${SSDTLM_TEST_UNSET_BS}\n"),
             Contains("${SSDTLM_TEST_UNSET_BS} not set in the environment"));
}

TEST_CASE("fio options: one run reports every error of the job file, each once, FILE:LINE", "[fio][options]") {
  const std::string e = error_of(R"([global]
bogus_global=1
[a]
rw=write
bs=4q
ioengine=nbd
[b]
rw=sideways
percentage_random=150
blocksise=4k
)");
  CHECK_THAT(e, Contains("6 errors in the fio job file"));
  for (const char* at : {"job.fio:2:", "job.fio:5:", "job.fio:6:", "job.fio:8:", "job.fio:9:", "job.fio:10:"}) {
    INFO(at);
    CHECK_THAT(e, Contains(at));
  }
  // The [global] line is applied to both jobs but reported once.
  CHECK(e.find("bogus_global") == e.rfind("bogus_global"));
}

TEST_CASE("fio options: errors past the bound are counted, not listed", "[fio][options]") {
  std::string text = "[j]\nrw=write\n";
  for (int i = 0; i < 30; ++i) text += "nosuch" + std::to_string(i) + "=1\n";
  const std::string e = error_of(text);
  CHECK_THAT(e, Contains("30 errors in the fio job file"));
  CHECK_THAT(e, Contains("... and 10 more"));
}

TEST_CASE("fio options: verify, exitall/exit_what and wait_for become job keys", "[fio][options]") {
  const auto f = parse(R"([global]
size=16m
[w]
rw=randwrite
verify=crc32c
verify_backlog=64
exitall
[r]
rw=randread
verify=md5
[n]
rw=write
verify=0
exitall
exit_what=all
wait_for=w
[d]
rw=write
verify=null
do_verify=0
)");
  const auto& w = f.jobs.at(0).config;
  CHECK(w["verify"] == true);
  CHECK(w["verify_backlog"] == 64);
  CHECK(w["exit_what"] == "group");
  CHECK(f.jobs.at(1).config["verify"] == false);  // a read job checks what it reads: no I/O of its own
  CHECK(f.jobs.at(2).config["verify"] == false);
  CHECK(f.jobs.at(2).config["exit_what"] == "all");
  CHECK(f.jobs.at(2).config["wait_for"] == "w");
  CHECK(f.jobs.at(3).config["verify"] == false);  // do_verify=0: no read-back phase
  CHECK(f.jobs.at(1).config["exit_what"] == "none");
  CHECK_THAT(error_of("[j]\nrw=write\nexit_what=some\n"), Contains("expected group, stonewall or all"));
}

TEST_CASE("fio options: percentage_random and flow become job keys and deprecated options are treated as fio does", "[fio][options]") {
  const auto f = parse(R"([global]
size=16m
flow_sleep=1000
[a]
rw=randrw
percentage_random=50,20
flow=1
[b]
rw=randread
percentage_random=,30,
flow=8
flow_id=2
[c]
rw=write
percentage_random=10
)");
  const auto& a = f.jobs.at(0).config;
  CHECK(a["percentage_random"] == "50,20,20");  // a value not ending in a comma applies to the directions after it
  CHECK(a["flow"] == 1);
  CHECK(a["flow_id"] == 0);
  CHECK(a["flow_sleep_us"] == 1000.0);  // fio's flow_sleep is in microseconds
  CHECK(f.jobs.at(1).config["percentage_random"] == "100,30,100");
  CHECK(f.jobs.at(1).config["flow_id"] == 2);
  CHECK(f.jobs.at(2).config["percentage_random"] == "100");  // sequential: no effect, as in fio (a note says so)
  CHECK_THAT(error_of("[j]\nrw=randread\npercentage_random=101\n"), Contains("job.fio:3:") && Contains("[0, 100]"));
  CHECK_THAT(error_of("[j]\nrw=randread\nflow=1001\n"), Contains("FLOW_MAX_WEIGHT"));
  // fio 3.42 refuses its FIO_OPT_DEPRECATED options and only warns about the soft-deprecated ones.
  CHECK_THAT(error_of("[j]\nrw=randread\npercentage_sequential=50\n"), Contains("deprecated: fio 3.42 refuses it too"));
  CHECK_THAT(error_of("[j]\nrw=randrw\nrwmixcycle=50\n"), Contains("deprecated: fio 3.42 refuses it too"));
  CHECK(error_of("[j]\nrw=randread\nflow_watermark=5\nverifysort=1\n").empty());
}

TEST_CASE("fio options: classes the example job files showed (engines, sg_write_mode, fill_device, zones, backwards)", "[fio][options]") {
  CHECK_THAT(error_of("[j]\nioengine=cpp_null\nrw=read\n"), Contains("without any device"));
  CHECK(error_of("[j]\nioengine=sg\nrw=write\nsg_write_mode=write\n").empty());
  CHECK_THAT(error_of("[j]\nioengine=sg\nrw=write\nsg_write_mode=verify_bytchk_01\n"),
             Contains("job.fio:4:") && Contains("SCSI verify_bytchk_01 commands in place of the writes"));
  CHECK_THAT(error_of("[j]\nioengine=sg\nrw=write\nsg_write_mode=write_same_ndob\n"), Contains("WRITE SAME"));
  // fill_device on a block device: from the offset to the device's end, whatever size says
  const auto fill = parse("[j]\nrw=write\nsize=1m\noffset=1g\nfill_device=1\n");
  CHECK(fill.jobs.at(0).config["address_range"] == kDevice - (1ull << 30));
  // rw=read:-8k reads backwards
  CHECK(parse("[j]\nrw=read:-8k\nsize=128m\n").jobs.at(0).config["sequential_skip"] == -8192);
  CHECK(parse("[j]\nrw=write:112k\n").jobs.at(0).config["sequential_skip"] == 112 * 1024);
  // Sizes in zones (fio's 'z') count the zoned namespace's zones, with zonemode=zbd only.
  const auto z = parse_fio_job_text("[j]\nrw=write\ndirect=1\nzonemode=zbd\noffset=2z\nsize=3z\n", "job.fio", kDevice, 1 << 20);
  CHECK(z.jobs.at(0).config["address_offset"] == 2 << 20);
  CHECK(z.jobs.at(0).config["address_range"] == 3 << 20);
  CHECK_THAT(error_of("[j]\nrw=write\nsize=3z\n"), Contains("job.fio:3:") && Contains("zonemode=zbd"));
  CHECK_THAT(error_of("[j]\nrw=write\nzonemode=zbd\nsize=3z\n"), Contains("zns.enabled"));
  // NVMe passthrough sends whole logical blocks: 4160 bytes is an extended-LBA format; through files any size goes.
  CHECK_THAT(error_of("[j]\nioengine=io_uring_cmd\nrw=write\nbs=4160\n"), Contains("extended-LBA"));
  CHECK(error_of("[j]\nioengine=libaio\nrw=write\nbs=4160\n").empty());
  // wait_for naming an earlier job that has errors of its own: those errors, not "no such job"
  const std::string e = error_of("[w]\nrw=write\nsize=3z\n[x]\nrw=read\nwait_for=w\n");
  CHECK_THAT(e, Contains("job.fio:3:"));
  CHECK_THAT(e, !Contains("an earlier job"));
}
