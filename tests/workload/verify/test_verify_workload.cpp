// VerifyWorkload: fio's read-back of what a job wrote, at the end (address order, each block once, as long as
// the write that last covered it) or every N writes (verify_backlog: those writes in the order written).
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "workload/verify/verify_workload.h"
#include "workload/listed_workload.h"

using namespace ssdtlm;
using ssdtlm::test::ListedWorkload;
using ssdtlm::test::req;

namespace {

std::vector<IoRequest> drain(Workload& w) {
  std::vector<IoRequest> out;
  for (IoRequest r; w.next(r);) out.push_back(r);
  return out;
}

}  // namespace

TEST_CASE("verify at the end: written blocks in address order, each once, at its last write's size", "[verify]") {
  VerifyParams p;
  p.offset = 1 << 20;
  p.range = 1 << 20;
  p.unit = 4096;
  p.max_bytes = 16384;
  auto inner = std::make_unique<ListedWorkload>(std::vector<IoRequest>{
      req(IoOp::Write, (1 << 20) + 65536, 16384),  // blocks 16..19
      req(IoOp::Write, (1 << 20) + 0, 8192),       // blocks 0..1
      req(IoOp::Read, (1 << 20) + 0, 4096),        // passes through
      req(IoOp::Write, (1 << 20) + 69632, 4096),   // block 17 again: splits the first write's read-back
      req(IoOp::Trim, (1 << 20) + 4096, 4096)});   // block 1: nothing to read back
  VerifyWorkload w(std::move(inner), p);
  const auto out = drain(w);
  REQUIRE(out.size() == 5 + 4);
  CHECK(out[2].op == IoOp::Read);
  // The read-back: block 0; block 16; block 17 (its own write); blocks 18..19 (the rest of the first write).
  const std::vector<std::pair<uint64_t, uint32_t>> want = {
      {0, 4096}, {65536, 4096}, {69632, 4096}, {73728, 8192}};
  for (size_t i = 0; i < want.size(); ++i) {
    INFO(i);
    CHECK(out[5 + i].op == IoOp::Read);
    CHECK(out[5 + i].offset == (1 << 20) + want[i].first);
    CHECK(out[5 + i].bytes == want[i].second);
  }
  CHECK(w.verify_reads() == 4);
}

TEST_CASE("verify_backlog: every N writes are read back in the order written, the rest at the end", "[verify]") {
  VerifyParams p;
  p.backlog = 3;
  std::vector<IoRequest> writes;
  for (uint64_t i = 0; i < 7; ++i) writes.push_back(req(IoOp::Write, (7 - i) * 4096, 4096));
  VerifyWorkload w(std::make_unique<ListedWorkload>(writes), p);
  const auto out = drain(w);
  REQUIRE(out.size() == 14);
  const char* want = "WWWRRRWWWRRRWR";
  for (size_t i = 0; i < out.size(); ++i) {
    INFO(i);
    CHECK((out[i].op == IoOp::Write ? 'W' : 'R') == want[i]);
  }
  CHECK(out[3].offset == writes[0].offset);  // written order
  CHECK(out[5].offset == writes[2].offset);
  CHECK(out[13].offset == writes[6].offset);
}

TEST_CASE("verify_only: fio's dry run sends none of the job's requests, then reads its writes back (or nothing)",
          "[verify]") {
  auto list = [] {
    return std::make_unique<ListedWorkload>(std::vector<IoRequest>{
        req(IoOp::Write, 65536, 16384), req(IoOp::Read, 0, 4096), req(IoOp::Write, 0, 8192)});
  };
  VerifyParams p;
  p.range = 1 << 20;
  p.unit = 4096;
  p.max_bytes = 16384;
  p.dry_run = true;
  VerifyWorkload w(list(), p);
  const auto out = drain(w);
  REQUIRE(out.size() == 2);  // only the read-back, in address order: blocks 0..1, then 16..19
  CHECK(out[0].op == IoOp::Read);
  CHECK(out[0].offset == 0);
  CHECK(out[0].bytes == 8192);
  CHECK(out[1].op == IoOp::Read);
  CHECK(out[1].offset == 65536);
  CHECK(out[1].bytes == 16384);
  p.read_back = false;  // verify_only without verify: nothing at all
  VerifyWorkload none(list(), p);
  CHECK(drain(none).empty());
}
