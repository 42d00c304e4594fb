// fio's whole option table by name and alias (fio 3.42: options.c and the engines' option tables), each option
// classed: modelled (Interpreter::apply reads it), no effect on a device (accepted, listed once as ignored), or
// refused with the reason; and fio's I/O engines classed the same way. The names are fio's interface; the classes
// and reasons are ssdtlm's (docs/guides/fio.md, "Every fio option").
#include <map>
#include <set>

#include "frontend/fio/fio_job_internal.h"

namespace ssdtlm {
namespace fio {

namespace {

// fio's aliases (options.c .alias): the alias -> the option.
const std::map<std::string, std::string>& aliases() {
  static const std::map<std::string, std::string> a = {
      {"readwrite", "rw"},
      {"blocksize", "bs"},
      {"blocksize_range", "bsrange"},
      {"blocksize_unaligned", "bs_unaligned"},
      {"ba", "blockalign"},
      {"io_limit", "io_size"},
      {"fill_fs", "fill_device"},
      {"fileoffset", "offset"},
      {"wait_for_previous", "stonewall"},
      {"allrandrepeat", "randrepeat"},
      {"filesize", "size"},
      {"nr_files", "nrfiles"},
      {"timeout", "runtime"},
      {"iomem", "mem"},
      {"mem_align", "iomem_align"},
      {"iodepth_batch_submit", "iodepth_batch"},
      {"iodepth_batch_complete", "iodepth_batch_complete_min"},
      {"data_placement", "dataplacement"},
      {"fdp_pli_select", "plid_select"},
      {"fdp_pli", "plids"},
      {"ratemin", "rate_min"},
      {"ratecycle", "rate_cycle"},
      {"log_max_value", "log_window_value"},
      {"log_unix_epoch", "log_alternate_epoch"},
      {"disable_bw", "disable_bw_measurement"},
      {"ss", "steadystate"},
      {"ss_dur", "steadystate_duration"},
      {"ss_ramp", "steadystate_ramp_time"},
      {"ss_interval", "steadystate_check_interval"},
      {"single-instance", "single_instance"},
      {"proto", "protocol"},
      {"chunck_size", "chunk_size"}};  // sic: libhdfs's alias
  return a;
}

// Options that do not change what reaches the device: the machine fio runs on, fio's bookkeeping, statistics and
// logs, buffer contents (the integrity checker does the verifying), and the options of the engines that run as
// block I/O (how the host submits, not what).
const std::set<std::string>& no_effect_options() {
  static const std::set<std::string> names = {
      // files and the host's I/O path
      "ioengine", "filename", "filename_format", "filetype", "directory", "opendir",
      "unique_filename", "nrfiles", "openfiles", "file_service_type", "thread", "invalidate",
      "end_syncfs",  // syncfs of the job's file system: on a raw block device, no command (fs/sync.c)
      "write_barrier",  // fio 3.42 marks every Nth write IO_U_F_BARRIER; no engine sends it differently
      "sync_file_range", "overwrite",
      "create_on_open", "create_only", "create_serialize", "create_fsync", "allow_file_create", "allow_mounted_write",
      "pre_read", "unlink", "unlink_each_loop", "lockfile", "fallocate", "fadvise_hint", "write_hint",
      "iodepth_batch", "iodepth_batch_complete_min", "iodepth_batch_complete_max", "iodepth_low", "io_submit_mode",
      "serialize_overlap", "ioscheduler", "atomic",
      // CPU, memory, scheduling and identity of fio's threads
      "prio", "prioclass", "priohint", "nice", "cpus_allowed", "cpus_allowed_policy", "cpumask", "numa_cpu_nodes",
      "numa_mem_policy", "cgroup", "cgroup_weight", "cgroup_nodelete", "uid", "gid", "exec_prerun", "exec_postrun",
      "mem", "iomem_align", "hugepage-size", "lockmem", "gpu_dev_id", "comm", "job_start_clock_id",
      "thinktime_spin", "thinkcycles", "verify_async", "verify_async_cpus",
      // clocks, statistics, logs and reports
      "clocksource", "gtod_cpu", "disable_bw_measurement",
      "significant_figures", "log_entries", "log_compression", "log_compression_cpus",
      "log_alternate_epoch_clock_id", "stats",
      "block_error_percentiles", "description", "unit_base", "write_iolog",
      // verification and buffer contents (the integrity checker verifies every read)
      "verify_offset", "verify_interval", "verify_pattern", "verify_pattern_interval",
      "verify_fatal", "verify_dump", "verify_backlog_batch", "verify_state_save",
      "verify_state_load", "verify_header_seed", "verify_write_sequence", "verify_policy",
      "verifysort", "verifysort_nr", "trim_percentage", "trim_verify_zero", "trim_backlog", "trim_backlog_batch",
      "experimental_verify", "buffer_pattern", "buffer_compress_percentage", "buffer_compress_chunk",
      "refill_buffers", "scramble_buffers", "zero_buffers", "dedupe_percentage", "dedupe_mode",
      "dedupe_working_set_percentage", "dedupe_global",
      // errors, exits and fio's internals
      "ignore_error", "error_dump", "exitall_on_error", "random_generator", "softrandommap", "replay_redirect", "read_iolog_chunked", "rate_min", "rate_iops_min",
      "rate_cycle", "rate_ignore_thinktime", "max_latency", "bs_unaligned", "recover_zbd_write_error",
      "flow_watermark",  // soft-deprecated: fio warns and ignores it (as verifysort, verifysort_nr)
      // options of engines that run as block I/O (io_uring, io_uring_cmd, libaio, sync family, sg, xnvme,
      // libblkio, mmap, windowsaio, GPU direct engines, cmdprio)
      "hipri", "fixedbufs", "registerfiles", "sqthread_poll", "sqthread_poll_cpu", "nonvectored", "uncached",
      "nowait", "force_async", "userspace_reap", "libaio_vectored", "cmdprio", "cmdprio_class",
      "cmdprio_percentage", "cmdprio_bssplit", "cmdprio_hint", "hipri_percentage", "md_per_io_size",
      "pi_act", "pi_chk", "apptag", "apptag_mask", "readfua", "deac", "read_mode", "verify_mode", "verify_bytchk", "cdb_len", "stream_id", "xnvme_be", "xnvme_async",
      "xnvme_sync", "xnvme_admin", "xnvme_dev_nsid", "xnvme_dev_subnqn", "xnvme_mem", "xnvme_iovec",
      "libblkio_driver", "libblkio_path", "libblkio_pre_connect_props", "libblkio_num_entries",
      "libblkio_queue_size", "libblkio_pre_start_props", "libblkio_vectored", "libblkio_write_zeroes_on_trim",
      "libblkio_wait_mode", "libblkio_force_enable_completion_eventfd", "thp", "no_completion_thread",
      "gpu_dev_ids", "cuda_io", "rocm_io",
      // SPDK's fio plugins (spdk app/fio/nvme/fio_plugin.c "spdk", app/fio/bdev/fio_plugin.c "spdk_bdev"): how the
      // userspace driver is set up (hugepages, the transport, the bdev configuration; the queues' arbitration is
      // modelled: fio_job_options_device.cpp)
      "mem_size_mb", "shm_id", "enable_sgl", "sge_size", "bit_bucket_data_len", "hostnqn", "digest_enable", "enable_vmd",
      "print_qid_mappings", "log_flags", "spdk_tracing", "spdk_conf", "spdk_json_conf", "spdk_mem", "spdk_single_seg"};
  return names;
}

// Options that would change the I/O and that ssdtlm does not model: an error naming what they do.
const std::map<std::string, std::string>& refused_options() {
  static const std::map<std::string, std::string> why = {
      {"bs_is_seq_rand", "block sizes by sequential/random instead of by direction"},
      {"random_sequence_stride", "the 'sequence' random distribution"},
      {"rwmixcycle", "deprecated: fio 3.42 refuses it too (FIO_OPT_DEPRECATED)"},
      {"percentage_sequential", "deprecated: fio 3.42 refuses it too (FIO_OPT_DEPRECATED; use percentage_random)"},
      {"num_range", "TRIM commands with several ranges"},
      {"thinktime_iotime", "think time by elapsed I/O time"},
      {"file_append", "appending beyond the end of the device"},
      {"replay_scale", "scaling iolog offsets (use workload.trace_fit=scale)"},
      {"replay_align", "aligning iolog offsets"},
      {"replay_skip", "skipping iolog operations"},
      {"merge_blktrace_file", "merging blktraces"},
      {"merge_blktrace_scalars", "merging blktraces"},
      {"merge_blktrace_iters", "merging blktraces"},
      {"write_zone_remainder", "zoned block devices (zonemode=zbd)"},
      {"dp_scheme", "placement by an offset scheme file (use plid_select=roundrobin or random)"},
      {"sprandom", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"spr_num_regions", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"spr_op", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"spr_cs", "SPRandom preconditioning (ssdtlm preconditions by fast-forward: precondition.*)"},
      {"ramp_size", "a ramp measured in bytes (use ramp_time)"},
      {"profile", "fio's built-in profiles (tiobench, act: write their jobs out)"}};
  return why;
}

// The options of engines that are not block I/O to this drive, and their engine.
const std::map<std::string, std::string>& foreign_engine_options() {
  static const std::map<std::string, std::string> engine = {
      {"hostname", "net/libhdfs"}, {"port", "net/libhdfs/rdma"}, {"interface", "net"}, {"ttl", "net"},
      {"nodelay", "net"}, {"protocol", "net"}, {"listen", "net"}, {"pingpong", "net"}, {"window_size", "net"},
      {"mss", "net"}, {"bindname", "rdma"}, {"verb", "rdma"}, {"cpuload", "cpuio"}, {"cpuchunks", "cpuio"},
      {"cpumode", "cpuio"}, {"exit_on_io_done", "cpuio"}, {"program", "exec"}, {"arguments", "exec"},
      {"grace_time", "exec"}, {"std_redirect", "exec"}, {"donorname", "e4defrag"}, {"inplace", "e4defrag"},
      {"stat_type", "filestat"}, {"uri", "nbd"}, {"rbdname", "rbd"}, {"clustername", "rbd/rados"},
      {"clientname", "rbd/rados"}, {"pool", "rbd/dfs"}, {"busy_poll", "rbd/rados"}, {"touch_objects", "rados"},
      {"conf", "rados"}, {"rbd_encryption_format", "rbd"}, {"rbd_encryption_passphrase", "rbd"},
      {"namenode", "libhdfs"}, {"hdfsdirectory", "libhdfs"}, {"chunk_size", "libhdfs/dfs"},
      {"single_instance", "libhdfs/gfapi"}, {"hdfs_use_direct", "libhdfs"}, {"volume", "gfapi"},
      {"brick", "gfapi"}, {"nfs_url", "nfs"}, {"initiator", "libiscsi"}, {"cont", "dfs"}, {"svcl", "dfs"},
      {"object_class", "dfs"}, {"skip_bad", "mtd"}, {"engine_name", "external"}, {"dummy", "external"},
      {"http_host", "http"}, {"http_user", "http"}, {"http_pass", "http"}, {"http_s3_key", "http"},
      {"http_s3_keyid", "http"}, {"http_s3_region", "http"}, {"http_s3_security_token", "http"},
      {"http_s3_sse_customer_key", "http"}, {"http_s3_sse_customer_algorithm", "http"},
      {"http_s3_storage_class", "http"}, {"http_swift_auth_token", "http"}, {"http_mode", "http"},
      {"http_object_mode", "http"}, {"http_verbose", "http"}, {"https", "http"}};
  return engine;
}

}  // namespace

std::string canonical_option(const std::string& key) {
  auto it = aliases().find(key);
  return it == aliases().end() ? key : it->second;
}

OptionClass classify_option(const std::string& canonical, std::string& why) {
  if (no_effect_options().count(canonical)) return OptionClass::NoEffect;
  if (auto it = refused_options().find(canonical); it != refused_options().end()) {
    why = (it->second.compare(0, 11, "deprecated:") == 0 ? "" : "not modelled by ssdtlm: ") + it->second;
    return OptionClass::Refused;
  }
  if (auto it = foreign_engine_options().find(canonical); it != foreign_engine_options().end()) {
    why = "an option of fio's " + it->second + " engine, which is not block I/O to this drive";
    return OptionClass::Refused;
  }
  return OptionClass::Unknown;
}

bool engine_has_disk_util(const std::string& engine) {
  // fio's engines flagged FIO_DISKLESSIO or FIO_NODISKUTIL among the block engines (engines/xnvme.c, libblkio.c;
  // SPDK's plugins, spdk/app/fio/{nvme,bdev}/fio_plugin.c): they reach the drive without the kernel's block layer,
  // whose statistics disk_util reads.
  static const std::set<std::string> diskless = {"xnvme", "libblkio", "spdk", "spdk_bdev"};
  return !diskless.count(lower(engine));
}

bool engine_uses_page_cache(const std::string& engine) {
  // The engines that read and write the device's file with the kernel's system calls, where direct=0 (O_DIRECT
  // off) goes through the block device's page cache; passthrough (io_uring_cmd, sg, bsg, libzbc), user-space
  // (spdk, xnvme, libblkio) and GPU-direct engines send their commands without it.
  static const std::set<std::string> cached = {"sync",  "psync",      "vsync",      "pvsync", "pvsync2", "libaio",
                                               "io_uring", "posixaio", "solarisaio", "windowsaio", "mmap", "splice"};
  return cached.count(lower(engine)) != 0;
}

bool engine_runs_as_block_io(const std::string& engine_value, std::string& why) {
  std::string e = lower(engine_value);
  if (e.compare(0, 9, "external:") == 0 || e.find('/') != std::string::npos) {
    why = "an external engine: ssdtlm cannot know what it sends (use a block engine such as io_uring)";
    return false;
  }
  static const std::set<std::string> block = {
      "sync",      "psync",   "vsync",      "pvsync",   "pvsync2", "libaio", "io_uring", "io_uring_cmd",
      "posixaio",  "solarisaio", "windowsaio", "mmap", "splice",  "sg",     "bsg",      "xnvme",
      "libblkio",  "spdk",    "spdk_bdev",  "libzbc",     "libcufile", "libhipfile"};
  if (block.count(e)) return true;
  static const std::map<std::string, std::string> refused = {
      {"null", "fio's engine that completes I/O without any device (it measures fio itself)"},
      {"cpp_null", "fio's C++ example of the null engine: completes I/O without any device"},
      {"filecreate", "file creation only: metadata, no block I/O"},
      {"filestat", "file stat calls only: metadata, no block I/O"},
      {"filedelete", "file deletion only: metadata, no block I/O"},
      {"dircreate", "directory creation only: metadata, no block I/O"},
      {"dirstat", "directory stat calls only: metadata, no block I/O"},
      {"dirdelete", "directory deletion only: metadata, no block I/O"},
      {"falloc", "fallocate calls: file-system space reservation, no data written"},
      {"ftruncate", "ftruncate calls: file sizes, no data written"},
      {"e4defrag", "ext4 online defragmentation (EXT4_IOC_MOVE_EXT): the file system moves the data"},
      {"net", "a network connection, not this drive"},
      {"netsplice", "a network connection, not this drive"},
      {"rdma", "an RDMA connection, not this drive"},
      {"nbd", "a network block device, not this drive"},
      {"rbd", "a Ceph RADOS block device over the network, not this drive"},
      {"rados", "Ceph RADOS objects over the network, not this drive"},
      {"http", "HTTP/S3/Swift objects over the network, not this drive"},
      {"nfs", "an NFS server over the network, not this drive"},
      {"gfapi", "a GlusterFS volume over the network, not this drive"},
      {"gfapi_async", "a GlusterFS volume over the network, not this drive"},
      {"libiscsi", "an iSCSI target over the network, not this drive"},
      {"libhdfs", "HDFS over the network, not this drive"},
      {"dfs", "a DAOS file system over the network, not this drive"},
      {"ime_psync", "a DDN IME burst buffer, not this drive"},
      {"ime_psyncv", "a DDN IME burst buffer, not this drive"},
      {"ime_aio", "a DDN IME burst buffer, not this drive"},
      {"cpuio", "CPU load only, no I/O"},
      {"exec", "runs a program, no I/O of its own"},
      {"mtd", "raw flash through Linux MTD, not an NVMe drive"},
      {"dev-dax", "persistent memory (device DAX), not an NVMe drive"},
      {"libpmem", "persistent memory (libpmem), not an NVMe drive"},
      {"page_fault", "page faults on anonymous memory, no device"}};
  if (auto it = refused.find(e); it != refused.end()) {
    why = it->second;
    return false;
  }
  why = "not an I/O engine fio has (see fio --enghelp)";
  return false;
}

}  // namespace fio
}  // namespace ssdtlm
