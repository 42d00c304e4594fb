// The fio options of the device a job drives, a table each (Interpreter::apply, fio_job_options.cpp): zones
// (zonemode), data placement, durability (fsync, sync, direct/buffered: the page cache, FUA), the I/O engine and
// iolog replay.
#include "frontend/fio/fio_job_internal.h"

#include "common/text.h"
#include "common/units.h"
#include "config/choices.h"
#include "workload/placement/placement_workload.h"

namespace ssdtlm {
namespace fio {

namespace {
// zone_reset_threshold, zone_reset_frequency: a fraction in [0, 1].
double zone_reset_fraction(Interpreter& in, const Line& l) {
  in.need_value(l);
  double v = 0;
  try {
    v = parse_number(l.value);
  } catch (const UnitError& e) {
    fail(l, e.what());
  }
  if (!(v >= 0 && v <= 1)) fail(l, "expected a number between 0 and 1");
  return v;
}

// fsync, fdatasync: a Flush every N writes (0: none).
void apply_fsync(Interpreter& in, Spec& s, const Line& l) {
  const uint64_t n = in.count(l, s.kb_base);
  if (n) s.fsync_blocks = n;
}
}  // namespace

// Zones (zonemode=strided, zonemode=zbd) and data placement on the writes.
// An option of SPDK's nvme plugin's arbitration (FIO_OPT_INT): a number up to `max` (the plugin's help gives the
// ranges) into `field`; the first such line of the job kept for the notes and errors about them.
void spdk_wrr_option(Interpreter& in, Spec& s, const Line& l, uint64_t max, uint64_t& field) {
  const uint64_t v = in.count(l, s.kb_base);
  if (v > max) fail(l, "expected 0 to " + std::to_string(max) + " (SPDK's fio plugin)");
  field = v;
  if (!s.spdk_wrr.set) s.spdk_wrr.at = l, s.spdk_wrr.set = true;
}

const OptionTable& zone_and_placement_options() {
  static const OptionTable table = {
    {"zonemode", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.zonemode = lower(l.value);
       s.zonemode_at = l;
       if (s.zonemode != "none" && s.zonemode != "strided" && s.zonemode != "zbd")
         fail(l, "expected none, strided or zbd");
     }},
    {"zonerange", [](Interpreter& in, Spec& s, const Line& l) { s.zonerange = in.count(l, s.kb_base); }},
    {"zonesize", [](Interpreter& in, Spec& s, const Line& l) { s.zonesize = in.count(l, s.kb_base); }},
    {"zoneskip", [](Interpreter& in, Spec& s, const Line& l) { s.zoneskip = in.count(l, s.kb_base); }},
    {"zonecapacity", [](Interpreter& in, Spec& s, const Line& l) {
       in.count(l, s.kb_base);  // the zoned namespace's own capacity applies (fio reads it from the device)
       in.ignore(l.key);
     }},
    {"max_open_zones", [](Interpreter& in, Spec& s, const Line& l) { s.max_open_zones = in.count(l, s.kb_base); }},
    {"job_max_open_zones", [](Interpreter& in, Spec& s, const Line& l) {
       s.job_max_open_zones = in.count(l, s.kb_base);
     }},
    {"ignore_zone_limits", [](Interpreter& in, Spec& s, const Line& l) { s.ignore_zone_limits = in.flag(l); }},
    {"zone_reset_threshold",
     [](Interpreter& in, Spec& s, const Line& l) { s.zone_reset_threshold = zone_reset_fraction(in, l); }},
    {"zone_reset_frequency",
     [](Interpreter& in, Spec& s, const Line& l) { s.zone_reset_frequency = zone_reset_fraction(in, l); }},
    {"read_beyond_wp", [](Interpreter& in, Spec& s, const Line& l) {
       if (in.flag(l)) not_modelled(l, "reads beyond a zone's write pointer (zonemode=zbd reads written data only)");
       in.ignore(l.key);
     }},
    // SPDK's plugins: 1 = every zone of the job's range reset before its I/O (workload.zbd_initial_reset)
    {"initial_zone_reset", [](Interpreter& in, Spec& s, const Line& l) {
       const uint64_t v = in.count(l, s.kb_base);
       if (v > 1) fail(l, "expected 0 or 1");
       s.initial_zone_reset = v == 1;
     }},
    // SPDK's plugins: 1 = zone appends instead of writes (write_mode=zone_append)
    {"zone_append", [](Interpreter& in, Spec& s, const Line& l) {
       const uint64_t v = in.count(l, s.kb_base);
       if (v > 1) fail(l, "expected 0 or 1");
       s.zone_append = v == 1;
     }},
    {"write_mode", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const std::string v = lower(l.value);
       if (v != "write" && v != "zone_append") not_modelled(l, "write modes other than write and zone_append");
       s.zone_append = v == "zone_append";
     }},
    {"fdp", [](Interpreter& in, Spec& s, const Line& l) {
       s.dataplacement = in.flag(l) ? DataPlacement::Fdp : DataPlacement::None;
       s.dataplacement_at = l;
     }},
    {"dataplacement", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.dataplacement_at = l;
       if (!find_choice(choices::kWorkloadDataplacement, lower(l.value), &s.dataplacement))  // fio's names are ours
         fail(l, "expected none, fdp or streams");
     }},
    {"plids", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       try {
         parse_id_list(l.value);
       } catch (const std::invalid_argument& e) {
         fail(l, e.what());
       }
       s.plids = l.value;
       s.plids_at = l;
     }},
    {"plid_select", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.plid_select = lower(l.value);
       if (s.plid_select == "scheme")
         not_modelled(l, "placement by an offset scheme file (dp_scheme): use roundrobin or random");
       if (s.plid_select != "roundrobin" && s.plid_select != "random") fail(l, "expected roundrobin or random");
     }},
  };
  return table;
}

// SPDK's nvme plugin: the controller's arbitration and the job's queue priority (spdk_wrr_option).
const OptionTable& spdk_arbitration_options() {
  static const OptionTable table = {
    {"enable_wrr", [](Interpreter& in, Spec& s, const Line& l) {
       uint64_t v = 0;
       spdk_wrr_option(in, s, l, ~uint64_t(0), v);
       s.spdk_wrr.enable = v != 0;
     }},
    {"arbitration_burst", [](Interpreter& in, Spec& s, const Line& l) { spdk_wrr_option(in, s, l, 7, s.spdk_wrr.burst); }},
    {"low_weight", [](Interpreter& in, Spec& s, const Line& l) { spdk_wrr_option(in, s, l, 255, s.spdk_wrr.low); }},
    {"medium_weight", [](Interpreter& in, Spec& s, const Line& l) { spdk_wrr_option(in, s, l, 255, s.spdk_wrr.medium); }},
    {"high_weight", [](Interpreter& in, Spec& s, const Line& l) { spdk_wrr_option(in, s, l, 255, s.spdk_wrr.high); }},
    {"wrr_priority", [](Interpreter& in, Spec& s, const Line& l) { spdk_wrr_option(in, s, l, 3, s.spdk_wrr.priority); }},
  };
  return table;
}

// Durability, the I/O engine and iolog replay.
const OptionTable& durability_and_engine_options() {
  static const OptionTable table = {
    {"fsync", apply_fsync},  // on a block device both fsync and fdatasync are blkdev_fsync: an NVMe Flush
    {"fdatasync", apply_fsync},
    {"end_fsync", [](Interpreter& in, Spec& s, const Line& l) { s.end_fsync = s.end_fsync || in.flag(l); }},
    {"fsync_on_close", [](Interpreter& in, Spec& s, const Line& l) { s.end_fsync = s.end_fsync || in.flag(l); }},
    {"sync", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const std::string v = lower(l.value);  // options.c: none/0, sync/1 (O_SYNC), dsync (O_DSYNC)
       s.sync_io = v == "0" || v == "none" ? "none" : v == "1" || v == "sync" ? "sync" : v == "dsync" ? "dsync" : "";
       if (s.sync_io.empty()) fail(l, "expected none, 0, sync, 1 or dsync");
     }},
    // direct=0 (fio's default) with an engine through the kernel's files: the block device's page cache
    // (workload.buffered, set per clone in JobBuilder::set_verify_and_durability)
    {"direct", [](Interpreter& in, Spec& s, const Line& l) { s.direct = in.flag(l); }},
    {"buffered", [](Interpreter& in, Spec& s, const Line& l) { s.direct = !in.flag(l); }},
    // io_uring_cmd: the FUA bit on every write (engines/io_uring.c)
    {"writefua", [](Interpreter& in, Spec& s, const Line& l) {
       s.writefua = in.flag(l);
     }},
    {"ioengine", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       std::string why;
       if (!engine_runs_as_block_io(l.value, why)) fail(l, why);
       s.ioengine = lower(l.value);
       s.ioengine_at = l;
       in.ignore(l.key);  // no effect on the device; it sets the host's cost per I/O (fio_host_engine.h)
     }},
    {"hipri", [](Interpreter& in, Spec& s, const Line& l) {
       s.hipri = in.flag(l);
       in.ignore(l.key);
     }},
    {"cmd_type", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       if (lower(l.value) != "nvme")
         not_modelled(l, "io_uring_cmd passthrough of non-NVMe commands (cmd_type=nvme only)");
       in.ignore(l.key);
     }},
    {"sg_write_mode", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       if (lower(l.value) != "write")
         not_modelled(l, "SCSI " + lower(l.value) +
                             " commands in place of the writes (WRITE AND VERIFY, VERIFY, WRITE SAME, "
                             "WRITE STREAM: sg_write_mode=write only)");
       in.ignore(l.key);
     }},
    {"kb_base", [](Interpreter& in, Spec& s, const Line& l) {}},  // applied before the job's other options: kb_base_of
    {"read_iolog", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       if (l.value.find(':') != std::string::npos) not_modelled(l, "several iologs for job clones");
       if (l.value == "-") not_modelled(l, "an iolog on standard input");
       s.read_iolog = l.value;
       s.read_iolog_at = l;
     }},
    {"replay_no_stall", [](Interpreter& in, Spec& s, const Line& l) { s.replay_no_stall = in.flag(l); }},
    {"replay_time_scale", [](Interpreter& in, Spec& s, const Line& l) {
       const uint64_t v = in.count(l, s.kb_base, 1);
       s.replay_time_scale = double(v);
     }},
  };
  return table;
}

}  // namespace fio
}  // namespace ssdtlm
