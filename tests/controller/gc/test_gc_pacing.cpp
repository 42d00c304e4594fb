// GC pacing (controller/gc/gc_pacing.h, ftl.gc_pacing): the registered names, the credit a starting victim gives a
// die's host writes, and the line rules of gc_first.
#include <catch2/catch.hpp>

#include "common/config_error.h"
#include "controller/gc/gc_engine.h"
#include "controller/gc/gc_pacing.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

TEST_CASE("gc pacing: credit earns host writes in proportion to the space a victim frees", "[gc][pacing]") {
  CHECK(gc_pacing_names() == std::vector<std::string>{"credit", "gc_first"});
  auto credit = make_gc_pacing("credit", 3, "ftl.gc_pacing");
  GcDie job;
  job.credit = 0.25;
  credit->begin_victim(job, 0.5);
  CHECK(job.ratio == 0.5);
  CHECK(job.credit == 1.0);  // a die starting a victim may take one host page at once
  job.credit = 4.0;
  credit->begin_victim(job, 2.0);
  CHECK(job.credit == 4.0);  // credit left from the last victim is kept
  CHECK_FALSE(credit->lines_hold_host());
  CHECK_FALSE(credit->line_waits_for_host(100));
}

TEST_CASE("gc pacing: gc_first holds the host while lines are collected", "[gc][pacing]") {
  auto first = make_gc_pacing("gc_first", 3, "ftl.gc_pacing");
  GcDie job;
  job.credit = 5.0;
  first->begin_victim(job, 0.5);
  CHECK(job.ratio == 0.0);
  CHECK(job.credit == 0.0);  // no host write until the job ends
  CHECK(first->lines_hold_host());
  CHECK(first->line_waits_for_host(3));         // at the urgent threshold or above: a line waits for a host write
  CHECK_FALSE(first->line_waits_for_host(2));   // below it, lines follow each other
  CHECK_THAT(test::config_error_of([] { make_gc_pacing("eager", 1, "ftl.gc_pacing"); }),
             Contains("ftl.gc_pacing") && Contains("credit") && Contains("gc_first"));
}
