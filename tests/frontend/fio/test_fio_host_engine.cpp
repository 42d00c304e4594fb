// fio's ioengine (and hipri) -> the host's cost per I/O (frontend/fio/fio_host_engine.h): every engine class, fio's
// default engine, and jobs whose engines cost differently (one host cost per run).
#include <catch2/catch.hpp>

#include "frontend/fio/fio_host_engine.h"
#include "frontend/fio/job_text.h"

using Catch::Matchers::Contains;
using ssdtlm::fio::host_engine_for;
using ssdtlm::test::parse_fio;

TEST_CASE("fio host engine: each ioengine takes the cited row of its completion path", "[fio][host]") {
  CHECK(host_engine_for("libaio", false).engine == "libaio");
  CHECK(host_engine_for("libaio", true).engine == "libaio");  // libaio has no polled mode
  CHECK(host_engine_for("io_uring", true).engine == "io_uring_poll");
  CHECK(host_engine_for("io_uring_cmd", true).engine == "io_uring_poll");
  CHECK(host_engine_for("io_uring", false).engine == "libaio");  // interrupt-driven: the interrupt row
  CHECK(host_engine_for("io_uring_cmd", false).engine == "libaio");
  for (const char* e : {"sync", "psync", "vsync", "pvsync", "pvsync2"})
    CHECK(host_engine_for(e, false).engine == "libaio");
  CHECK(host_engine_for("pvsync2", true).engine == "io_uring_poll");
  CHECK(host_engine_for("spdk", false).engine == "spdk");
  CHECK(host_engine_for("spdk_bdev", false).engine == "spdk");
  for (const char* e : {"posixaio", "mmap", "sg", "xnvme", "libblkio", "windowsaio"}) {
    CHECK(host_engine_for(e, false).engine.empty());
    CHECK_THAT(host_engine_for(e, false).basis, Contains("no published per-I/O cost"));
  }
  CHECK_THAT(host_engine_for("io_uring", false).basis, Contains("hipri=0") && Contains("upper bound"));
}

TEST_CASE("fio host engine: a job file gives its jobs' cost, fio's default engine (psync) included", "[fio][host]") {
  CHECK(parse_fio("[a]\nrw=randread\nsize=1m\nioengine=io_uring\nhipri\n").host_engine == "io_uring_poll");
  CHECK(parse_fio("[a]\nrw=randread\nsize=1m\nioengine=io_uring\nhipri=0\n").host_engine == "libaio");
  CHECK(parse_fio("[global]\nioengine=spdk\n[a]\nrw=read\nsize=1m\n").host_engine == "spdk");
  const auto none = parse_fio("[a]\nrw=read\nsize=1m\n");  // no ioengine: fio runs psync
  CHECK(none.host_engine == "libaio");
  CHECK_THAT(none.host_engine_basis, Contains("ioengine=psync"));
  CHECK(parse_fio("[a]\nrw=read\nsize=1m\nioengine=posixaio\n").host_engine.empty());
  // Two jobs of one cost: no conflict; hipri is not an error with an engine that has no polled mode.
  const auto same = parse_fio("[a]\nrw=read\nsize=1m\nioengine=libaio\n[b]\nrw=write\nsize=1m\nioengine=psync\n");
  CHECK(same.host_engine == "libaio");
  CHECK(same.host_engine_conflict.empty());
}

TEST_CASE("fio host engine: jobs whose engines cost differently name the second job's line", "[fio][host]") {
  const auto f = parse_fio("[a]\nrw=read\nsize=1m\nioengine=libaio\n[b]\nrw=read\nsize=1m\nioengine=io_uring\nhipri\n");
  CHECK(f.host_engine == "libaio");
  CHECK_THAT(f.host_engine_conflict, Contains("job.fio:8:") && Contains("job 'b'") && Contains("host.engine") &&
                                         Contains("one host cost per run"));
  // A job without an ioengine line (fio's psync) is named by its section's line.
  const auto g = parse_fio("[a]\nrw=read\nsize=1m\nioengine=spdk\n[b]\nrw=read\nsize=1m\n");
  CHECK_THAT(g.host_engine_conflict, Contains("job.fio:5:") && Contains("ioengine=psync"));
}
