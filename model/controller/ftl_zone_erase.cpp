// The FTL's zone eraser (ftl_parts.h): zns.reset_erase=reset, a Zone Reset's blocks erased at the reset.
#include <algorithm>
#include <string>

#include "common/sim_time.h"
#include "controller/ftl.h"

namespace ssdtlm {

void ZoneEraser::reset(NvmeCommand& cmd, std::vector<uint32_t> blocks) {
  uint32_t job;
  if (free_jobs_.empty()) {
    job = uint32_t(jobs_.size());
    jobs_.emplace_back();
  } else {
    job = free_jobs_.back();
    free_jobs_.pop_back();
  }
  jobs_[job] = Job{&cmd, uint32_t(blocks.size())};
  for (uint32_t b : blocks) pending_.emplace_back(b, job);
  if (blocks.empty()) done(job);
  kick();
}

void ZoneEraser::done(uint32_t job) {
  Job& j = jobs_[job];
  NvmeCommand& cmd = *j.cmd;
  j.cmd = nullptr;
  free_jobs_.push_back(job);
  f_.complete(cmd, std::max(cmd.ready_ps, now_ps()));
}

void ZoneEraser::kick() {
  BlockManager& blocks = f_.ftl_.state().blocks();
  for (size_t i = 0; i < pending_.size();) {
    const auto [b, job] = pending_[i];
    const BlockState st = blocks.state(b);
    if (st == BlockState::Open || st == BlockState::Victim) {  // still closing, or GC's (it tells when erased)
      ++i;
      continue;
    }
    pending_[i] = pending_.back();
    pending_.pop_back();
    if (st == BlockState::Full && blocks.valid(b) == 0 && blocks.take_victim(b)) {
      const uint32_t die = f_.g_.die_of_gblock(b);
      if (f_.checker_) f_.ftl_.gc().check_erase(b, *f_.checker_, now_ps());
      FlashOp& op = f_.new_op(FlashCmd::Erase, die, kZoneErase);
      op.block = f_.g_.block_in_die(b);
      inflight_.emplace_back(b, job);
      f_.send(op);
      continue;
    }
    if (st == BlockState::Full) ++kept_;  // valid data written after the reset: GC's to collect
    if (--jobs_[job].left == 0) done(job);
  }
}

void ZoneEraser::on_erase(FlashOp& op) {
  const uint32_t b = op.die * f_.g_.blocks_per_die + op.block;
  f_.ftl_.gc().land_erase(b, f_.ftl_.state().counters());
  auto it = std::find_if(inflight_.begin(), inflight_.end(), [&](const auto& e) { return e.first == b; });
  const uint32_t job = it->second;
  *it = inflight_.back();
  inflight_.pop_back();
  ++erases_;
  f_.flush_.refresh(op.die);
  f_.gc_.kick(op.die);
  if (--jobs_[job].left == 0) done(job);
  f_.host_.admit_writes();
  f_.flush_.pump();
}

void ZoneEraser::erased(uint32_t gblock) {
  for (size_t i = 0; i < pending_.size(); ++i) {
    if (pending_[i].first != gblock) continue;
    const uint32_t job = pending_[i].second;
    pending_[i] = pending_.back();
    pending_.pop_back();
    ++erases_;
    if (--jobs_[job].left == 0) done(job);
    return;
  }
}

std::string ZoneEraser::describe() const {
  static const char* const kState[] = {"free", "open", "full", "victim", "cached"};
  const BlockManager& blocks = f_.ftl_.state().blocks();
  std::string s = std::to_string(pending_.size()) + " blocks to erase, " + std::to_string(inflight_.size()) +
                  " erasing";
  for (size_t i = 0; i < pending_.size() && i < 4; ++i) {
    const uint32_t b = pending_[i].first;
    s += (i ? ", " : ": ") + std::string("block ") + std::to_string(b) + " " + kState[uint32_t(blocks.state(b))] +
         " (" + std::to_string(blocks.valid(b)) + " valid, " + std::to_string(blocks.pages_written(b)) + " pages)";
  }
  return s;
}

}  // namespace ssdtlm
