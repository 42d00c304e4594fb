// fio job files from the wild (issue 45): each class of job file that ran wrongly or was refused for a wrong
// reason, as fio 3.42 reads it: durability options (fsync, fdatasync, end_fsync, sync, writefua), size rules
// (size=0, size=100% with offset_increment, 100%%), values fio cuts at a separator (bs=4k-512k), refused options
// given their default (verify_only=0), log paths with folders, canonical names in "job options", continue_on_error,
// and SPDK's plugins.
#include <catch2/catch.hpp>

#include <string>

#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "job_text.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kDevice = test::kFioDevice;
FioJobFile parse(const std::string& text) { return test::parse_fio(text); }
std::string error_of(const std::string& text) { return test::fio_error(text); }
const nlohmann::json& job(const FioJobFile& f, size_t j) { return f.jobs.at(j).config; }
bool has_note(const FioJobFile& f, const std::string& part) {
  for (const auto& n : f.notes)
    if (n.find(part) != std::string::npos) return true;
  return false;
}

}  // namespace

TEST_CASE("fio wild: fsync, fdatasync, end_fsync and sync become the drive's Flush and FUA", "[fio][wild]") {
  // etcd's recipe: fdatasync after every write (a Flush on a block device).
  const auto etcd = parse("[j]\nrw=write\nioengine=sync\nfdatasync=1\nsize=22m\nbs=2300\n");
  CHECK(job(etcd, 0)["fsync"] == 1);
  CHECK(job(etcd, 0)["fsync_end"] == false);
  CHECK(job(etcd, 0)["write_fua"] == false);
  CHECK(job(parse("[j]\nrw=randwrite\nfsync=32\n"), 0)["fsync"] == 32);
  CHECK(job(parse("[j]\nrw=randwrite\nend_fsync=1\n"), 0)["fsync_end"] == true);
  CHECK(job(parse("[j]\nrw=randwrite\nfsync_on_close=1\n"), 0)["fsync_end"] == true);
  // sync=1 with direct I/O: FUA writes (Linux's O_DSYNC direct write); buffered: a Flush after every write.
  const auto fua = parse("[j]\nrw=randwrite\ndirect=1\nsync=1\n");
  CHECK(job(fua, 0)["write_fua"] == true);
  CHECK(job(fua, 0)["fsync"] == 0);
  CHECK(job(parse("[j]\nrw=randwrite\nsync=dsync\n"), 0)["fsync"] == 1);
  CHECK(job(parse("[j]\nrw=randwrite\nioengine=io_uring_cmd\nwritefua=1\n"), 0)["write_fua"] == true);
  // fio syncs only a job that writes (should_fsync).
  CHECK(job(parse("[j]\nrw=randread\nfsync=1\nend_fsync=1\n"), 0)["fsync"] == 0);
  CHECK(job(parse("[j]\nrw=randread\nfsync=1\nend_fsync=1\n"), 0)["fsync_end"] == false);
  CHECK_THAT(error_of("[j]\nrw=write\nsync=often\n"), Contains("job.fio:3") && Contains("none, 0, sync, 1 or dsync"));
  // No longer "ignored": they change what the drive sees.
  const auto f = parse("[j]\nrw=write\nfsync=4\nend_fsync=1\n");
  CHECK(std::find(f.ignored.begin(), f.ignored.end(), "fsync") == f.ignored.end());
}

TEST_CASE("fio wild: size=0 is the whole device, percentages stop at its end, 100%% is 100 %", "[fio][wild]") {
  // fio's setup_files: no size (0) is the device from the offset to its end.
  CHECK(job(parse("[j]\nrw=write\nsize=0\n"), 0)["address_range"] == kDevice);
  CHECK(job(parse("[j]\nrw=write\noffset=4g\nsize=0\n"), 0)["address_range"] == kDevice - (4ull << 30));
  // size=100% with offset_increment: each clone from its offset to the device's end.
  const auto clones = parse("[j]\nrw=write\nsize=100%\noffset_increment=4g\nnumjobs=4\n");
  REQUIRE(clones.jobs.size() == 4);
  for (size_t k = 0; k < 4; ++k) {
    CHECK(job(clones, k)["address_offset"] == k * (4ull << 30));
    CHECK(job(clones, k)["address_range"] == kDevice - k * (4ull << 30));
  }
  const auto half = parse("[j]\nrw=write\nsize=50%\noffset=75%\n");
  CHECK(job(half, 0)["address_range"] == kDevice / 4);  // cut at the end, as fio
  // "100%%" (a job file written for a shell or printf): fio's parser reads the unit from the first '%'.
  CHECK(job(parse("[j]\nrw=write\nsize=100%%\n"), 0)["address_range"] == kDevice);
  CHECK(job(parse("[j]\nrw=write\nsize=25%%\n"), 0)["address_range"] == kDevice / 4);
  // A fixed size beyond the device stays an error naming it.
  CHECK_THAT(error_of("[j]\nrw=write\noffset=12g\nsize=8g\n"), Contains("offset + size"));
}

TEST_CASE("fio wild: a size fio cuts at a separator reads as fio reads it, with a note", "[fio][wild]") {
  const auto f = parse("[j]\nrw=randwrite\nblocksize=4k-512k\n");
  CHECK(job(f, 0)["block_bytes"] == 4096);  // fio: get_mult_bytes stops at '-', the rest is not read
  CHECK(has_note(f, "bsrange=4k-512k"));
  // Per direction first (','), then each value cut: 4k for reads, 16k for writes.
  CHECK_THAT(error_of("[j]\nrw=randrw\nbs=4k-8k,16k-32k\n"), Contains("per direction"));
  CHECK(job(parse("[j]\nrw=randwrite\nbs=4k-8k,16k-32k\n"), 0)["block_bytes"] == 16384);
  CHECK(job(parse("[j]\nrw=randwrite\nbsrange=4k-16k\n"), 0)["bssplit"] != "");  // a real range stays one
  // Counts are not cut (numjobs=4k-64k stays an error rather than 4096 jobs).
  CHECK_THAT(error_of("[j]\nrw=randwrite\nnumjobs=4k-64k\n"), Contains("numjobs"));
}

TEST_CASE("fio wild: a refused option given its default asks for nothing and is accepted", "[fio][wild]") {
  const auto f = parse("[j]\nrw=write\nnum_range=1\nbs_is_seq_rand=0\n");
  CHECK(std::find(f.ignored.begin(), f.ignored.end(), "num_range") != f.ignored.end());
  CHECK_THAT(error_of("[j]\nrw=trim\nnum_range=4\n"), Contains("several ranges"));
}

TEST_CASE("fio wild: verify_only is fio's dry run: the job's writes logged, not sent, then read back with verify",
          "[fio][wild]") {
  CHECK(job(parse("[j]\nrw=write\nverify_only=0\nverify=md5\n"), 0)["verify_only"] == false);
  // SPDK's test/ftl/config/fio/unmap.fio: a sequential write job with verify=pattern and verify_only=1.
  const auto f = parse("[j]\nrw=write\nbs=4M\nverify=pattern\nverify_only=1\nverify_pattern=0\nverify_backlog=8\n");
  CHECK(job(f, 0)["verify_only"] == true);
  CHECK(job(f, 0)["verify"] == true);
  CHECK(job(f, 0)["verify_backlog"] == 0);  // the dry run verifies at its end
  CHECK(job(parse("[j]\nrw=write\nverify_only\n"), 0)["verify"] == false);  // no verify: nothing is sent
  CHECK(job(parse("[j]\nrw=write\nverify_only\n"), 0)["verify_only"] == true);
  CHECK(job(parse("[j]\nrw=read\nverify_only=1\n"), 0)["verify_only"] == false);  // fio: only a job that writes
  CHECK_THAT(error_of("[j]\nrw=write\nverify=md5\nverify_only=1\ntime_based\nruntime=1\n"),
             Contains("verify_only does not support time_based"));
}

TEST_CASE("fio wild: log paths with folders are written there under --out", "[fio][wild]") {
  const auto f = parse("[j]\nrw=write\nwrite_bw_log=results/4k/randwrite-iodepth-1-numjobs-1\nwrite_lat_log=./x//lat\n");
  CHECK(job(f, 0)["log_bw"] == "results/4k/randwrite-iodepth-1-numjobs-1");
  CHECK(job(f, 0)["log_lat"] == "x/lat");  // lexically normal
  CHECK_THAT(error_of("[j]\nrw=write\nwrite_bw_log=results/\n"), Contains("file name at the end"));
  CHECK_THAT(error_of("[j]\nrw=write\nwrite_bw_log=/tmp/x/lat\n"), Contains("job.fio:3") && Contains("outside --out"));
  CHECK_THAT(error_of("[j]\nrw=write\nwrite_iops_log=../lat\n"), Contains("job.fio:3") && Contains("climbing out"));
}

TEST_CASE("fio wild: job and global options by fio's canonical names, disk_util only where fio gathers it",
          "[fio][wild]") {
  const auto f = parse("[global]\nreadwrite=randwrite\nblocksize=4k\n[j]\nio_limit=1m\nfilesize=1g\n");
  CHECK(f.global_options == FioOptions{{"rw", "randwrite"}, {"bs", "4k"}});
  CHECK(f.jobs.at(0).options == FioOptions{{"io_size", "1m"}, {"size", "1g"}});
  CHECK(f.jobs.at(0).disk_util);
  CHECK_FALSE(parse("[j]\nrw=write\ndisk_util=0\n").jobs.at(0).disk_util);
  CHECK_FALSE(parse("[j]\nrw=write\nioengine=spdk\n").jobs.at(0).disk_util);  // FIO_NODISKUTIL
  CHECK_FALSE(parse("[j]\nrw=write\nioengine=xnvme\n").jobs.at(0).disk_util);
  CHECK(parse("[j]\nrw=write\nioengine=io_uring\n").jobs.at(0).disk_util);
}

TEST_CASE("fio wild: a job stops at its first failed command unless continue_on_error", "[fio][wild]") {
  CHECK(job(parse("[j]\nrw=write\n"), 0)["stop_on_error"] == true);
  CHECK(job(parse("[j]\nrw=write\ncontinue_on_error=all\n"), 0)["stop_on_error"] == false);
  CHECK(job(parse("[j]\nrw=write\ncontinue_on_error=none\n"), 0)["stop_on_error"] == true);
  CHECK_THAT(error_of("[j]\nrw=write\ncontinue_on_error=maybe\n"), Contains("none, write, read, io, verify or all"));
}

TEST_CASE("fio wild: SPDK's fio plugins run as block engines with their options known", "[fio][wild]") {
  const auto nvme = parse(R"([global]
ioengine=spdk
thread=1
direct=1
mem_size_mb=2048
enable_sgl=1
digest_enable=HEADER
enable_vmd=0
spdk_tracing=0
[j]
filename=trtype=PCIe traddr=0000.04.00.0 ns=1
rw=randread
bs=4k
iodepth=128
)");
  CHECK(job(nvme, 0)["queue_depth"] == 128);
  const auto bdev = parse("[j]\nioengine=spdk_bdev\nspdk_json_conf=/etc/spdk/bdev.json\nspdk_mem=1024\nfilename=Nvme0n1\n"
                          "rw=write\nzone_append=0\ninitial_zone_reset=0\n");
  CHECK(job(bdev, 0)["read_fraction"] == 0.0);
  // initial_zone_reset=1 (SPDK's app/fio/bdev/zbd_example.fio): the zones of the job's range reset first, as the
  // plugin's set-up (workload.zbd_initial_reset; a bdev that is not zoned has none to reset, as in SPDK).
  const auto zoned = parse("[j]\nioengine=spdk_bdev\nrw=randwrite\ndirect=1\nzonemode=zbd\nzone_append=1\n"
                           "initial_zone_reset=1\n");
  CHECK(job(zoned, 0)["zbd_initial_reset"] == true);
  CHECK(job(zoned, 0)["zbd_append"] == true);
  CHECK_FALSE(job(bdev, 0).contains("zbd_initial_reset"));
  CHECK_THAT(error_of("[j]\nzonemode=zbd\ndirect=1\ninitial_zone_reset=2\n"), Contains("expected 0 or 1"));
}

// The measurement on job files from the wild (scripts/fio_wild.py, docs/guides/fio.md "Job files from the wild,
// measured") found these three.
TEST_CASE("fio wild: random_distribution on a sequential job is unused, as in fio", "[fio][wild]") {
  // SPDK's test/ftl/config/fio/write_after_write.fio: rw=write with random_distribution=normal in [global].
  const auto f = parse("[global]\nrandom_distribution=normal\n[j]\nrw=write\nbs=32k\n");
  CHECK(job(f, 0)["distribution"] == "random");
  CHECK(job(f, 0)["pattern"] == "sequential");
  CHECK(has_note(f, "no effect on sequential"));
  CHECK(job(parse("[j]\nrw=randwrite\nrandom_distribution=normal\n"), 0)["distribution"] == "normal");
}

TEST_CASE("fio wild: time_based without a runtime runs without time_based, as fio's fixup_options", "[fio][wild]") {
  // SPDK's test/vhost/common/fio_jobs/default_initiator.job: the harness passes --runtime; without it fio warns.
  const auto f = parse("[global]\ntime_based=1\nsize=64m\n[j]\n");
  CHECK(job(f, 0)["io_bytes"] == 64ull << 20);
  CHECK(job(f, 0)["runtime_ms"] == 0.0);
  CHECK(has_note(f, "time_based requires a runtime"));
  CHECK(job(parse("[j]\ntime_based\nruntime=1\n"), 0)["io_bytes"] == 0);  // with a runtime: time-based
}

TEST_CASE("fio wild: a negative flow is fio 3.42's unsigned weight: when the total wraps no job is held", "[fio][wild]") {
  // zonedstorage.io's zbd-read-while-write.fio: flow=-3 (the writer) beside flow=7 (the reader), flow_id 0. fio
  // stores 2^32 - 3, the total weight wraps to 4, and each job's weight is at least that: neither is ever held.
  const auto f = parse("[w]\nrw=write\nflow=-3\n[r]\nrw=randread\nflow=7\n");
  CHECK(job(f, 0)["flow"] == 0);
  CHECK(job(f, 1)["flow"] == 0);
  CHECK(f.config["jobs"][1]["flow"] == 0);
  CHECK(has_note(f, "wraps to 4"));
  // Alone in its flow a negative weight is never held either (its share is all of it).
  CHECK(job(parse("[w]\nrw=write\nflow=-1\n"), 0)["flow"] == 0);
  // A wrapped total that still holds a job (2^32 - 3 beside weights summing to 2: total 2^32 - 1) is not modelled.
  CHECK_THAT(error_of("[w]\nrw=write\nflow=-3\n[a]\nflow=1\n[b]\nflow=1\n"),
             Contains("job.fio:3") && Contains("not modelled") && Contains("4294967293"));
  CHECK(job(parse("[a]\nflow=1\n[b]\nflow=3\n"), 1)["flow"] == 3);  // weights as written are untouched
  CHECK_THAT(error_of("[w]\nflow=1001\n"), Contains("FLOW_MAX_WEIGHT"));
}

TEST_CASE("fio wild: SPDK's enable_wrr, arbitration_burst, weights and wrr_priority become the arbitration keys",
          "[fio][wild][nvme]") {
  // SPDK's app/fio/nvme/README.md WRR example: the high-priority process's job file.
  const auto high = parse(R"([global]
ioengine=spdk
thread=1
direct=1
enable_wrr=1
arbitration_burst=4
high_weight=128
medium_weight=64
low_weight=32
wrr_priority=1
[high-priority-job]
filename=trtype=PCIe traddr=0000.01.00.0 ns=1
rw=randwrite
bs=4k
iodepth=32
[low]
filename=trtype=PCIe traddr=0000.01.00.0 ns=1
rw=randread
bs=4k
wrr_priority=3
[default]
filename=trtype=PCIe traddr=0000.01.00.0 ns=1
rw=randread
bs=4k
enable_wrr=0
)");
  // CC.AMS WRR; AB 4 = 2^4 commands; the 0's based weights + 1; each job's QPRIO (without enable_wrr: urgent).
  const nlohmann::json& nvme = high.config.at("nvme");
  CHECK(nvme["arbitration"] == "wrr");
  CHECK(nvme["arbitration_burst"] == 16);
  CHECK(nvme["wrr_high_weight"] == 129);
  CHECK(nvme["wrr_medium_weight"] == 65);
  CHECK(nvme["wrr_low_weight"] == 33);
  CHECK(job(high, 0)["sq_priority"] == "high");
  CHECK(job(high, 1)["sq_priority"] == "low");
  CHECK(job(high, 2)["sq_priority"] == "urgent");
  CHECK(has_note(high, "with the first job's options"));  // [default]'s enable_wrr=0 does not reconfigure it
  // arbitration_burst 7: no limit; 0 (the default): no Set Features, the weights at their reset value.
  CHECK(parse("[j]\nioengine=spdk\nrw=read\nenable_wrr=1\narbitration_burst=7\n").config["nvme"]["arbitration_burst"] == 0);
  const auto unsent = parse("[j]\nioengine=spdk\nrw=read\nenable_wrr=1\nhigh_weight=8\n");
  CHECK(unsent.config["nvme"]["arbitration_burst"] == 1);
  CHECK(unsent.config["nvme"]["wrr_high_weight"] == 1);
  CHECK(job(unsent, 0)["sq_priority"] == "urgent");  // wrr_priority's default, 0
  CHECK(has_note(unsent, "only with arbitration_burst 1-7"));
  // Without enable_wrr: round robin, no keys; the options' ranges as the plugin's help gives them.
  const auto rr = parse("[j]\nioengine=spdk\nrw=read\nwrr_priority=3\n");
  CHECK_FALSE(rr.config.contains("nvme"));
  CHECK_FALSE(job(rr, 0).contains("sq_priority"));
  CHECK_THAT(error_of("[j]\nioengine=spdk\nrw=read\narbitration_burst=8\n"), Contains("expected 0 to 7"));
  CHECK_THAT(error_of("[j]\nioengine=spdk\nrw=read\nwrr_priority=4\n"), Contains("expected 0 to 3"));
  CHECK_THAT(error_of("[j]\nioengine=spdk\nrw=read\nlow_weight=256\n"), Contains("expected 0 to 255"));
  // Options of SPDK's plugin only: fio refuses them with another engine, never ignored.
  CHECK_THAT(error_of("[j]\nioengine=libaio\nrw=read\nenable_wrr=1\n"),
             Contains("job.fio:4") && Contains("ioengine=spdk") && Contains("ioengine=libaio"));
}
