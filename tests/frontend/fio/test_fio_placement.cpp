// fio's data placement options (fdp, fdp_pli/plids, fdp_pli_select/plid_select, dataplacement, cmd_type=nvme) and
// fio's own FDP example job file (tests/data/fio/uring-cmd-fdp.fio, unchanged) run with only fdp.enabled added.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#include "common/cli_run.h"
#include "common/config_error.h"
#include "config/config.h"
#include "frontend/fio/fio_job.h"
#include "job_text.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
constexpr uint64_t kDevice = test::kFioDevice;
const std::string kFdpExample = std::string(SSDTLM_SOURCE_DIR) + "/tests/data/fio/uring-cmd-fdp.fio";
using test::fio_error;
}  // namespace

TEST_CASE("fio data placement options become the jobs' placement keys", "[fio][fdp]") {
  const FioJobFile f = read_fio_job_file(kFdpExample, kDevice);
  REQUIRE(f.jobs.size() == 3);
  CHECK(f.jobs[0].config["dataplacement"] == "fdp");
  CHECK(f.jobs[0].config["plids"] == "0,1,2,3");
  CHECK(f.jobs[1].config["plids"] == "4,5");
  CHECK(f.jobs[2].config["plids"] == "6");
  CHECK(f.jobs[0].config["plid_select"] == "roundrobin");
  CHECK(std::find(f.ignored.begin(), f.ignored.end(), "cmd_type") != f.ignored.end());  // io_uring_cmd: no device effect
  const FioJobFile g = parse_fio_job_text("[a]\nrw=randwrite\ndataplacement=streams\nplids=1-3\nplid_select=random\n", "j.fio", kDevice);
  CHECK(g.jobs[0].config["dataplacement"] == "streams");
  CHECK(g.jobs[0].config["plids"] == "1-3");
  CHECK(g.jobs[0].config["plid_select"] == "random");
  const FioJobFile h = parse_fio_job_text("[a]\nrw=randwrite\nfdp=1\nfdp_pli_select=random\n", "j.fio", kDevice);
  CHECK(h.jobs[0].config["dataplacement"] == "fdp");
  CHECK(h.jobs[0].config["plid_select"] == "random");
  CHECK_THAT(fio_error("[a]\nrw=randwrite\nfdp=1\nfdp_pli=0,x\n"), Contains("job.fio:4"));
  CHECK_THAT(fio_error("[a]\nrw=randwrite\ndataplacement=zns\n"), Contains("expected none, fdp or streams"));
  CHECK_THAT(fio_error("[a]\nrw=randwrite\nfdp=1\nplid_select=scheme\n"), Contains("not modelled"));
  CHECK_THAT(fio_error("[a]\nrw=randwrite\ndataplacement=streams\n"), Contains("plids"));
  CHECK_THAT(fio_error("[a]\nrw=randwrite\ncmd_type=ata\n"), Contains("cmd_type"));
}

TEST_CASE("fio's uring-cmd-fdp.fio runs unchanged on an FDP namespace and is refused without FDP", "[fio][fdp][cli]") {
  // A user's command line: the job file and fdp.enabled; the drive made small and the 1000 s runtime short for
  // the test's sake.
  const std::string drive = " --set geometry.channels=2 --set geometry.dies_per_channel=2 --set geometry.blocks_per_plane=64"
                            " --set geometry.pages_per_block=32 --set workload.runtime_ms=40";
  const nlohmann::json s = test::run_cli("fio_fdp_example", "--fio " + kFdpExample + " --set fdp.enabled=true" + drive);
  const auto& f = s["fdp"];
  INFO(f.dump(1));
  CHECK(f["ruhs"] == 8);
  // Jobs: PIDs 0-3 (90 % writes), 4-5 (30 %), 6 (10 %); RUH 7 gets nothing.
  for (int h = 0; h < 7; ++h) CHECK(f["ruh"][h]["host_bytes_written"].get<uint64_t>() > 0);
  CHECK(f["ruh"][7]["host_bytes_written"] == 0);
  CHECK(f["ruh"][0]["host_bytes_written"] > f["ruh"][4]["host_bytes_written"]);
  CHECK(f["ruh"][4]["host_bytes_written"] > f["ruh"][6]["host_bytes_written"]);
  CHECK(s["streams"]["fdp"]["default_placement_commands"] == 0);
  CHECK(s["integrity"]["errors"] == 0);
  // The same file on a namespace without FDP: exit 2, naming the key to set.
  const std::string cmd = test::cli_binary("generic") + " --quiet --out fio_fdp_refused --fio " + kFdpExample + drive +
                          " 2>fio_fdp_refused.txt";
  CHECK(WEXITSTATUS(std::system(cmd.c_str())) == 2);
  std::ifstream e("fio_fdp_refused.txt");
  const std::string err((std::istreambuf_iterator<char>(e)), std::istreambuf_iterator<char>());
  CHECK_THAT(err, Contains("fdp.enabled"));
}
