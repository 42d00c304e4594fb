#include "workload/apps/app_model.h"

#include <algorithm>
#include <limits>

#include "controller/placement/fdp.h"
#include "flash/geometry.h"

namespace ssdtlm {

FileId AppIo::layout_file(uint64_t units, const WriteOrigin& o) {
  const FileId f = fs.create();
  fs.append(f, units);
  layout_.push_back({f, o});
  layout_units_ += units;
  return f;
}

void AppIo::push(IoOp op, const std::vector<Extent>& ext, const WriteOrigin& o, uint32_t max_units, bool host_gc) {
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
      r.idle_ns = idle_ns_;
      idle_ns_ = 0;
      if (host_gc) {  // the host's zone GC: its copies are not the app's writes
        (op == IoOp::Write ? gc_written_units : gc_read_units) += n;
      } else if (op == IoOp::Write) {
        r.pc = o.pc;
        r.stream = o.hint;
        if (fdp_ruhs_) {
          r.dtype = kDirectiveFdp;
          r.dspec = FdpLayout{fdp_rgs_, fdp_ruhs_}.pid(fdp_next_rg_, o.hint % fdp_ruhs_);
          if (++fdp_next_rg_ == fdp_rgs_) fdp_next_rg_ = 0;
        }
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
  if (zones) {  // appended at the write pointer of the class's zone; first GC if empty zones run low
    while (zones->gc_wanted()) zone_gc();
    zones->append(f, offset, units, zones->class_of(o.hint), scratch_);
  } else {
    fs.map(f, offset, units, scratch_);
  }
  push(IoOp::Write, scratch_, o, max_io_units_);
  if (zones) send_finishes(o);
}

void AppIo::close(FileId, const WriteOrigin& o) {
  if (!zones || !zone_close_) return;
  const uint64_t z = zones->written_active_zone(zones->class_of(o.hint));
  if (z == ZoneStore::kNoZone) return;
  zone_command(z, ZoneAction::Close, o);
  ++zone_closes;
}

void AppIo::send_finishes(const WriteOrigin& o) {
  for (uint64_t z : zones->take_finished()) {
    zone_command(z, ZoneAction::Finish, o);
    ++zone_finishes;
  }
}

void AppIo::zone_command(uint64_t z, ZoneAction a, const WriteOrigin& o) {
  IoRequest r;
  r.op = IoOp::Trim;
  r.zone_action = a;
  r.offset = zones->zone_start(z) * kUnitBytes;
  r.bytes = uint32_t(zones->geometry().zone_units * kUnitBytes);
  r.proc = o.proc;
  r.proc_slot = o.slot;
  out.push_back(r);
}

void AppIo::read(FileId f, uint64_t offset, uint64_t units, const WriteOrigin& o) {
  if (units == 0) return;
  scratch_.clear();
  if (zones) zones->map(f, offset, units, scratch_);
  else fs.map(f, offset, units, scratch_);
  push(IoOp::Read, scratch_, o, max_io_units_);
}

void AppIo::remove(FileId f, const WriteOrigin& o) {
  WriteOrigin t;
  t.proc = o.proc;
  t.slot = o.slot;
  const std::vector<Extent> freed = fs.remove(f);
  if (zones) {  // no discard of extents in a zoned namespace: a zone whose data all died is reset
    std::vector<uint64_t> resets;
    zones->remove(f, resets);
    for (uint64_t z : resets) reset_zone(z, t);
    return;
  }
  if (trim) push(IoOp::Trim, freed, t, max_io_units_ * 8);
}

// A zone reset: a trim of the whole zone (one command, which the zoned namespace takes as the reset).
void AppIo::reset_zone(uint64_t z, const WriteOrigin& o) {
  IoRequest r;
  r.op = IoOp::Trim;
  r.offset = zones->zone_start(z) * kUnitBytes;
  r.bytes = uint32_t(zones->geometry().zone_units * kUnitBytes);
  r.proc = o.proc;
  r.proc_slot = o.slot;
  out.push_back(r);
  ++zone_resets;
}

// Host-side zone GC (ZenFS): the victim's live extents are read, appended to the GC class's zone, and the
// victim reset; in that order in the queue.
void AppIo::zone_gc() {
  std::vector<Extent> reads, writes;
  const uint64_t z = zones->collect(reads, writes);
  WriteOrigin o;
  push(IoOp::Read, reads, o, max_io_units_, true);
  push(IoOp::Write, writes, o, max_io_units_, true);
  send_finishes(o);
  reset_zone(z, o);
  ++gc_runs;
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
