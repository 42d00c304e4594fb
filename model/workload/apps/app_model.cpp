#include "workload/apps/app_model.h"

#include <algorithm>
#include <limits>

#include "flash/geometry.h"

namespace ssdtlm {

FileId AppIo::layout_file(uint64_t units, const WriteOrigin& o) {
  const FileId f = fs.create();
  fs.append(f, units);
  layout_.push_back({f, o});
  layout_units_ += units;
  return f;
}

void AppIo::push(IoOp op, const std::vector<Extent>& ext, const WriteOrigin& o, uint32_t max_units) {
  for (const Extent& e : ext) {
    for (uint64_t done = 0; done < e.units;) {
      const uint64_t n = std::min<uint64_t>(max_units, e.units - done);
      IoRequest r;
      r.op = op;
      r.offset = (e.start + done) * kUnitBytes;
      r.bytes = uint32_t(n * kUnitBytes);
      r.proc = o.proc;
      r.proc_slot = o.slot;
      r.run = o.run;
      if (op == IoOp::Write) {
        r.pc = o.pc;
        r.stream = o.hint;
        written_by_pc[o.pc] += n;
        written_by_hint[o.hint] += n;
        written_units += n;
      } else if (op == IoOp::Read) {
        read_units += n;
      } else {
        trimmed_units += n;
      }
      out.push_back(r);
      done += n;
    }
  }
}

void AppIo::write(FileId f, uint64_t offset, uint64_t units, const WriteOrigin& o) {
  if (units == 0) return;
  scratch_.clear();
  fs.map(f, offset, units, scratch_);
  push(IoOp::Write, scratch_, o, max_io_units_);
}

void AppIo::read(FileId f, uint64_t offset, uint64_t units, const WriteOrigin& o) {
  if (units == 0) return;
  scratch_.clear();
  fs.map(f, offset, units, scratch_);
  push(IoOp::Read, scratch_, o, max_io_units_);
}

void AppIo::remove(FileId f, const WriteOrigin& o) {
  WriteOrigin t;
  t.proc = o.proc;
  t.slot = o.slot;
  const std::vector<Extent> freed = fs.remove(f);
  if (trim) push(IoOp::Trim, freed, t, max_io_units_ * 8);
}

FileId AppIo::create_written(uint64_t units, const WriteOrigin& o) {
  const FileId f = fs.create();
  fs.append(f, units);
  write(f, 0, units, o);
  return f;
}

void Lanes::push(size_t lane, Step s) {
  Lane& l = lanes_[lane];
  if (l.steps.empty()) {  // busy again: level with the busy lanes
    uint64_t least = std::numeric_limits<uint64_t>::max();
    for (size_t i = 0; i < lanes_.size(); ++i)
      if (i != lane && !lanes_[i].steps.empty()) least = std::min(least, lanes_[i].vbytes);
    if (least != std::numeric_limits<uint64_t>::max()) l.vbytes = std::max(l.vbytes, least);
  }
  l.steps.push_back(std::move(s));
}

bool Lanes::all_idle() const {
  for (auto& l : lanes_)
    if (!l.steps.empty()) return false;
  return true;
}

bool Lanes::run_one(AppIo& io, const std::vector<bool>* blocked) {
  size_t best = lanes_.size();
  for (size_t i = 0; i < lanes_.size(); ++i) {
    if (lanes_[i].steps.empty() || (blocked && (*blocked)[i])) continue;
    if (best == lanes_.size() || lanes_[i].vbytes < lanes_[best].vbytes) best = i;
  }
  if (best == lanes_.size()) return false;
  Step s = std::move(lanes_[best].steps.front());
  lanes_[best].steps.pop_front();
  const uint64_t before = io.written_units + io.read_units;
  s();  // may push further steps on any lane
  lanes_[best].vbytes += 1 + (io.written_units + io.read_units - before);
  return true;
}

}  // namespace ssdtlm
