// fio's zonemode=zbd on the host (fio's zbd.c, in outline): every write goes to the write pointer of a zone,
// the zone its offset falls in while the job has fewer than max_open zones open, else one of the open ones;
// a write longer than the zone's remainder is cut to a multiple of the job's smallest block size, and a zone whose
// remainder is below that size is finished (Zone Management Send Finish, after the job's writes in flight, as
// zbd.c's zbd_finish_zone), the write going to the next zone; a full zone is reset (a trim of the whole zone,
// which a zoned namespace takes as a zone reset) before it is written again; past zone_reset_threshold of the range written, the zone written next is reset every
// 1 / zone_reset_frequency writes; a trim resets the zone it falls in. Jobs of one run share the zones' write
// pointers, as fio's jobs share the device's zone state. With initial_reset (SPDK's plugins' initial_zone_reset=1,
// which reset every zone before the job) the job first resets each zone of its range, one after the other, its I/O
// after the last; these resets are not fio's zone_resets (the plugin's own setup). A decorator over a workload.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "host/io_request.h"

namespace ssdtlm {

struct ZbdParams {
  bool on = false;               // workload.zbd (fio zonemode=zbd)
  uint64_t zone_bytes = 0, capacity_bytes = 0, zones = 0;  // the device's zones
  uint32_t max_open = 0;         // zones this job writes at a time (0 = no limit)
  double reset_threshold = 1.0;  // workload.zbd_reset_threshold
  double reset_frequency = 0.0;  // workload.zbd_reset_frequency (0 = off)
  uint64_t range_offset = 0;     // the job's I/O range: first byte
  uint64_t range_bytes = 0;      //   and its length (the threshold; the open zones a write may take)
  bool append = false;           // workload.zbd_append (fio write_mode=zone_append): zone appends, the drive picks the LBA
  uint32_t min_bytes = 4096;     // fio's min_bs of the job's writes (workload.block_bytes, the smallest of bssplit)
  bool initial_reset = false;    // workload.zbd_initial_reset (SPDK's initial_zone_reset=1): the range's zones reset first
};

struct ZbdShared {  // the zones' write pointers as the host sees them (offsets from each zone's start)
  std::vector<uint64_t> wp;
  uint64_t written = 0;         // bytes below the write pointers
  std::vector<uint64_t> open;   // zones being written (fio's write target zones, shared by the jobs)
  // Zones whose last write was issued and may be in flight: they keep their open-zone slot until it completes
  // (fio's zbd_end_zone_io puts the write zone back at the completion of the write that fills it).
  std::vector<uint64_t> closing;
};

class ZbdWorkload : public Workload {
 public:
  ZbdWorkload(std::unique_ptr<Workload> inner, const ZbdParams& p, std::shared_ptr<ZbdShared> shared);
  bool next(IoRequest& r) override;
  WorkProgress progress() const override { return inner_->progress(); }
  void report(nlohmann::json& into) const override { inner_->report(into); }
  bool has_setup() const override { return p_.initial_reset; }
  uint64_t resets() const { return resets_; }
  uint64_t finishes() const { return finishes_; }
  bool ended_without_zone() const { return no_zone_; }  // fio's io_u_eof: no open zone in the job's range

 private:
  void finish(uint64_t zone, IoRequest& r);  // r becomes the zone's Finish; the request is placed again after it
  IoRequest zone_reset(uint64_t zone, const IoRequest& r);  // the zone's reset (a trim of it), made from r
  bool write_zone(const IoRequest& r, uint64_t& zone);  // the zone a write goes to; false: none for this job
  void place_write(IoRequest& r, uint64_t zone);

  std::unique_ptr<Workload> inner_;
  ZbdParams p_;
  std::shared_ptr<ZbdShared> z_;
  bool held_ = false;           // a write waits behind the reset just issued
  IoRequest hold_;
  bool again_ = false;          // a request waits behind the finish just issued, to be placed again
  IoRequest again_req_;
  uint64_t count_ = 0, resets_ = 0, finishes_ = 0;
  bool no_zone_ = false;
  bool quiesce_ = false;        // the zone just opened took the slots of closing zones: wait for the job's I/O
  uint64_t initial_next_ = ~uint64_t(0);  // initial_reset: the next zone of the range to reset (~0: not begun)
  bool after_initial_ = false;            //   the job's first request waits for the last reset
};

// One ZbdShared per run (the jobs' decorators are made together and live as long as the run).
std::shared_ptr<ZbdShared> zbd_shared(uint64_t zones);

}  // namespace ssdtlm
