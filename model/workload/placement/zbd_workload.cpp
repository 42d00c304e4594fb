#include "workload/placement/zbd_workload.h"

#include <algorithm>

namespace ssdtlm {

std::shared_ptr<ZbdShared> zbd_shared(uint64_t zones) {
  static std::weak_ptr<ZbdShared> last;
  if (auto s = last.lock())
    if (s->wp.size() == zones) return s;
  auto s = std::make_shared<ZbdShared>();
  s->wp.assign(zones, 0);
  last = s;
  return s;
}

ZbdWorkload::ZbdWorkload(std::unique_ptr<Workload> inner, const ZbdParams& p, std::shared_ptr<ZbdShared> shared)
    : inner_(std::move(inner)), p_(p), z_(std::move(shared)) {
  set_pacing(inner_->pacing());
}

void ZbdWorkload::finish(uint64_t zone, IoRequest& r) {
  const uint64_t rem = p_.capacity_bytes - z_->wp[zone];
  z_->wp[zone] = p_.capacity_bytes;
  z_->written += rem;
  z_->open.erase(std::remove(z_->open.begin(), z_->open.end(), zone), z_->open.end());
  ++finishes_;
  again_req_ = r;  // placed again, from the next zone
  again_req_.offset = (zone + 1) % p_.zones * p_.zone_bytes + r.offset % p_.zone_bytes;
  again_req_.quiesce = true;  // zbd_finish_zone is synchronous too: the write placed again follows its completion
  again_ = true;
  r.op = IoOp::Trim;
  r.zone_action = ZoneAction::Finish;
  r.quiesce = true;  // zbd.c: io_u_quiesce before zbd_finish_zone
  r.append = false;
  r.offset = zone * p_.zone_bytes;
  r.bytes = uint32_t(p_.zone_bytes);
  r.dtype = 0;
}

bool ZbdWorkload::next(IoRequest& r) {
  if (p_.initial_reset) {
    const uint64_t first = p_.range_offset / p_.zone_bytes;
    const uint64_t end = std::min(p_.zones, (p_.range_offset + p_.range_bytes + p_.zone_bytes - 1) / p_.zone_bytes);
    if (initial_next_ == ~uint64_t(0)) initial_next_ = first;
    if (initial_next_ < end) {
      r = zone_reset(initial_next_++, IoRequest());
      r.setup = true;  // the plugin's set-up, not fio's zbd resets nor the job's trims
      --resets_;
      after_initial_ = true;
      return true;
    }
  }
  if (held_) {
    r = hold_;
    held_ = false;
    return true;
  }
  if (again_) {
    r = again_req_;
    again_ = false;
  } else if (!inner_->next(r)) {
    return false;
  } else {
    r.quiesce = after_initial_;  // (the request object may carry the reset or the held write issued before)
    after_initial_ = false;      // the job's first request follows the initial resets' completion
  }
  r.zone_action = ZoneAction::None;  // (the request object may carry the finish issued before)
  r.setup = false;                   // (or an initial reset)
  uint64_t zone = r.offset / p_.zone_bytes % p_.zones;  // past the last whole zone: wraps to the first
  if (r.op == IoOp::Trim) {
    r = zone_reset(zone, r);
    z_->open.erase(std::remove(z_->open.begin(), z_->open.end(), zone), z_->open.end());
    return true;
  }
  if (r.op == IoOp::Read) {  // read only what was written (fio's read_beyond_wp=0): inside the zone's data
    const uint64_t wp = z_->wp[zone];
    if (wp >= r.bytes) r.offset = zone * p_.zone_bytes + std::min(r.offset % p_.zone_bytes, wp - r.bytes) / 4096 * 4096;
    return true;
  }
  if (!write_zone(r, zone)) {
    no_zone_ = true;
    return false;
  }
  place_write(r, zone);
  if (quiesce_) r.quiesce = true, quiesce_ = false;
  return true;
}

// A trim of the whole zone zn (the namespace resets it), made from r.
IoRequest ZbdWorkload::zone_reset(uint64_t zn, const IoRequest& r) {
  z_->written -= z_->wp[zn];
  z_->wp[zn] = 0;
  z_->closing.erase(std::remove(z_->closing.begin(), z_->closing.end(), zn), z_->closing.end());  // quiesced: done
  ++resets_;
  IoRequest t = r;
  t.op = IoOp::Trim;
  t.quiesce = true;  // fio waits for the job's writes in flight before a zone reset (zbd.c, io_u_quiesce)
  t.offset = zn * p_.zone_bytes;
  t.bytes = uint32_t(p_.zone_bytes);
  t.dtype = 0;
  return t;
}

// The write's zone: its own while there is room for another open zone, else an open one inside the job's range
// (fio's zbd_convert_to_write_zone, zbd_pick_write_zone: write zones in [f->min_zone, f->max_zone)); with none
// there (false), fio ends the job (io_u_eof), as here: it never writes a zone of another job's range.
// A zone whose last write may still be in flight keeps its slot (ZbdShared::closing); when every slot is taken and
// no open zone of the job's range can take the write, fio waits for its writes in flight (zbd.c: "quiesce to
// remove a zone from open zone list") and the closing zones leave: the write is issued after that.
bool ZbdWorkload::write_zone(const IoRequest& r, uint64_t& zone) {
  if (std::find(z_->open.begin(), z_->open.end(), zone) != z_->open.end()) return true;
  if (p_.max_open == 0 || z_->open.size() + z_->closing.size() < p_.max_open) {
    z_->open.push_back(zone);
    return true;
  }
  const uint64_t first = p_.range_offset / p_.zone_bytes, end = (p_.range_offset + p_.range_bytes + p_.zone_bytes - 1) / p_.zone_bytes;
  std::vector<uint64_t> mine;
  for (uint64_t z : z_->open)
    if (z >= first && z < end) mine.push_back(z);
  if (mine.empty() && !z_->closing.empty()) {
    z_->closing.clear();
    quiesce_ = true;
    z_->open.push_back(zone);
    return true;
  }
  if (mine.empty()) return false;
  zone = mine[(r.offset / p_.zone_bytes) % mine.size()];
  return true;
}

// The write r placed at the zone's write pointer; r becomes the zone's Finish when the zone has too little room
// left, or its reset when the zone is full or due (the write is then held until the reset has completed).
void ZbdWorkload::place_write(IoRequest& r, uint64_t zone) {
  const uint32_t bytes = uint32_t(std::min<uint64_t>(r.bytes, p_.capacity_bytes));
  // Writes are cut to multiples of the job's smallest block size (4 KiB at least); a zone left with less is
  // finished and the write goes to the next zone (fio's zbd_convert_to_write_zone).
  const uint64_t quantum = std::max<uint64_t>(4096, p_.min_bytes / 4096 * 4096), rem = p_.capacity_bytes - z_->wp[zone];
  if (rem > 0 && rem < quantum) {
    finish(zone, r);
    return;
  }
  bool reset_now = z_->wp[zone] + 4096 > p_.capacity_bytes;  // full
  if (p_.reset_frequency > 0 && double(z_->written) >= double(p_.range_bytes) * p_.reset_threshold &&
      ++count_ >= uint64_t(1.0 / p_.reset_frequency)) {
    count_ = 0;
    reset_now = z_->wp[zone] > 0;
  }
  IoRequest w = r;
  if (reset_now) r = zone_reset(zone, r);
  w.offset = zone * p_.zone_bytes + z_->wp[zone];
  w.bytes = uint32_t(std::min<uint64_t>(bytes, p_.capacity_bytes - z_->wp[zone]) / quantum * quantum);
  if (p_.append) {  // a zone append names the zone; the drive writes it at its write pointer and says where
    w.append = true;
    w.offset = zone * p_.zone_bytes;
  }
  z_->wp[zone] += w.bytes;
  z_->written += w.bytes;
  if (z_->wp[zone] + 4096 > p_.capacity_bytes) {  // full: its slot stays taken until this write is done
    z_->open.erase(std::remove(z_->open.begin(), z_->open.end(), zone), z_->open.end());
    if (p_.max_open && !p_.append) z_->closing.push_back(zone);
  }
  if (reset_now) {
    // fio resets the zone in the job's thread before it submits the write (zbd.c: zbd_reset_zone, a BLKRESETZONE
    // ioctl or the engine's reset_wp, both synchronous): the write is issued once the reset has completed.
    hold_ = w;
    hold_.quiesce = true;
    held_ = true;
  } else {
    r = w;
  }
}

}  // namespace ssdtlm
