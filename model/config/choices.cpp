#include "config/choices.h"

namespace ssdtlm {

namespace {
template <auto& Table>
KeyedChoices keyed(const char* key) {
  return {key, choice_names(Table), [](const std::string& name, const std::string& k) { parse_choice(Table, name, k); }};
}
}  // namespace

const std::vector<KeyedChoices>& keyed_choices() {
  using namespace choices;
  static const std::vector<KeyedChoices> keys = {
      keyed<kFlashSuspend>("flash.suspend"),
      keyed<kFlashCell>("flash.cell"),
      keyed<kFlashMultiplane>("flash.multiplane"),
      keyed<kFlashPlaneRule>("flash.plane_rule"),
      keyed<kSlcMode>("slc.mode"),
      keyed<kSlcWhenFull>("slc.when_full"),
      keyed<kCacheReadAhead>("cache.read_ahead"),
      keyed<kReliabilityModel>("reliability.model"),
      keyed<kNvmeInterface>("nvme.interface"),
      keyed<kNvmeArbitration>("nvme.arbitration"),
      keyed<kFdpRuhType>("fdp.ruh_type"),
      keyed<kZnsResetErase>("zns.reset_erase"),
      keyed<kStreamsGcStream>("streams.gc_stream"),
      keyed<kStreamsGcFrontier>("streams.gc_frontier"),
      keyed<kStreamsPcTableReset>("streams.pc_table_reset"),
      keyed<kStreamsPcstreamClock>("streams.pcstream_clock"),
      keyed<kPowerLossCheck>("fault.power_loss_check"),
      keyed<kSimTiming>("sim.timing"),
      keyed<kSimConverge>("sim.converge"),
      keyed<kStatsLifetimes>("stats.lifetimes"),
      keyed<kStreamsInternal>("streams.internal"),
      keyed<kHostSqPriority>("host.sq_priority"),
      keyed<kWorkloadPreset>("workload.preset"),
      keyed<kWorkloadTraceTiming>("workload.trace_timing"),
      keyed<kWorkloadStreamHint>("workload.stream_hint"),
      keyed<kWorkloadPlidSelect>("workload.plid_select"),
      keyed<kWorkloadCapturePageCache>("workload.capture_page_cache"),
      keyed<kWorkloadCapturePcScope>("workload.capture_pc_scope"),
      keyed<kWorkloadExitWhat>("workload.exit_what"),
      keyed<kWorkloadRateProcess>("workload.rate_process"),
      keyed<kWorkloadLogWindowValue>("workload.log_window_value"),
      keyed<kWorkloadFilesystem>("workload.filesystem"),
      keyed<kAppLsmCompactionPick>("workload.app.lsm_compaction_pick"),
      keyed<kAppCacheEviction>("workload.app.cache_eviction"),
      keyed<kPreconditionSnapshot>("precondition.snapshot"),
      keyed<kWorkloadDataplacement>("workload.dataplacement"),
      keyed<kAppPlacement>("workload.app.placement"),
      keyed<kAppAllocation>("workload.app.allocation"),
      keyed<kWorkloadTraceFit>("workload.trace_fit"),
      keyed<kWorkloadBlkparseEvent>("workload.blkparse_event"),
  };
  return keys;
}

}  // namespace ssdtlm
