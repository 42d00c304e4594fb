// Flash options from the configuration: bad values name the key and what was expected; the die queue's
// orders (fifo, read_first with its bound) as a plain algorithm.
#include <catch2/catch.hpp>

#include "config/config.h"
#include "config/params.h"
#include "flash/die_queue.h"
#include "flash/flash_params.h"
#include "common/config_error.h"

using namespace ssdtlm;
using Catch::Matchers::Contains;

namespace {
std::string error_of(const std::vector<std::string>& sets) {
  return test::config_error_of([&] {
    Config c;
    for (auto& s : sets) c.set(s);
    read_flash_params(c);
  });
}
}  // namespace

TEST_CASE("flash options reject bad values naming the key", "[config][flash]") {
  CHECK_THAT(error_of({"flash.cell=tlc", "timing.page_read_us=50,70"}),
             Contains("timing.page_read_us") && Contains("expected 3 times") && Contains("LSB, CSB, MSB") && Contains("got 2"));
  CHECK_THAT(error_of({"flash.cell=mlc", "timing.page_prog_us=500,fast"}),
             Contains("timing.page_prog_us") && Contains("\"fast\""));
  CHECK_THAT(error_of({"flash.cell=qlc", "timing.page_read_us=1,2,3,4,5"}), Contains("timing.page_read_us") && Contains("got more than 4"));
  CHECK_THAT(error_of({"timing.page_read_us=50"}), Contains("timing.page_read_us") && Contains("flash.cell=slc"));
  CHECK_THAT(error_of({"flash.one_shot=true"}), Contains("flash.one_shot") && Contains("flash.cell=slc"));
  CHECK_THAT(error_of({"flash.cell=tlc", "timing.page_read_us=50,0,70"}), Contains("timing.page_read_us") && Contains("\"0\""));
  CHECK_THAT(error_of({"flash.suspend=always"}), Contains("flash.suspend") && Contains("program_erase"));
  CHECK_THAT(error_of({"flash.die_sched=sjf"}), Contains("flash.die_sched") && Contains("read_first"));
  CHECK_THAT(error_of({"flash.max_suspends=0"}), Contains("flash.max_suspends") && Contains("out of range"));
  CHECK_THAT(error_of({"flash.read_first_limit=0"}), Contains("flash.read_first_limit"));
  CHECK(error_of({"flash.cell=tlc", "timing.page_read_us=50us, 0.07ms,110", "flash.one_shot=on"}).empty());
  Config c;
  c.set("flash.cell=tlc");
  c.set("timing.page_read_us=50us, 0.07ms,110");
  CHECK(read_flash_params(c).page_read_ps[1] == 70000000);
}

TEST_CASE("die queue: fifo keeps arrival order and read_first lets reads ahead within the bound", "[flash][die_sched]") {
  std::vector<FlashOp> ops(6);
  const FlashCmd cmds[6] = {FlashCmd::Program, FlashCmd::Erase, FlashCmd::Read, FlashCmd::Read, FlashCmd::Read, FlashCmd::Program};
  auto drain = [&](bool read_first, uint32_t limit) {
    DieQueue q;
    q.configure(read_first, limit);
    for (size_t i = 0; i < ops.size(); ++i) {
      ops[i].cmd = cmds[i];
      q.push(&ops[i]);
    }
    CHECK(q.size() == 6);
    std::vector<size_t> order;
    while (!q.empty()) order.push_back(size_t(q.pop() - ops.data()));
    CHECK(q.front() == nullptr);
    return std::make_pair(order, q.overtakes());
  };
  CHECK(drain(false, 8).first == std::vector<size_t>{0, 1, 2, 3, 4, 5});
  CHECK(drain(true, 8).first == std::vector<size_t>{2, 3, 4, 0, 1, 5});
  CHECK(drain(true, 8).second == 3);
  // limit 2: two reads overtake the program, then it goes; the third read overtakes the erase
  CHECK(drain(true, 2).first == std::vector<size_t>{2, 3, 0, 4, 1, 5});
  CHECK(drain(true, 1).first == std::vector<size_t>{2, 0, 3, 1, 4, 5});
}
