// The enum-like keys' tables (choice.h): each key's names, in the schema's order, and what each parses to. The
// schema takes the keys' choices from keyed_choices() (config_schema.cpp); the readers parse through the tables
// (params.cpp, placement_params.cpp, workload_params.cpp, reliability_params.cpp, power_config.cpp) and name a parsed
// value back through them (choice_name: summaries, messages, the fio front end's job). A new value is one line in its
// table; a new key is its table and one line in choices.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/choice.h"
#include "controller/slc/slc_cache.h"
#include "controller/streams/streams.h"
#include "flash/flash_params.h"
#include "host/completion_log.h"
#include "host/converge_params.h"
#include "host/io_request.h"
#include "workload/apps/app_model.h"
#include "workload/placement/placement_workload.h"
#include "workload/trace/trace_fit.h"
#include "workload/trace/trace_reader.h"

namespace ssdtlm {

// stats.lifetimes: the lifetime statistics kept (placement_params.h: lifetimes_on).
enum class LifetimeStats : uint8_t { Auto, On, All, Off };
// streams.internal (seed 002's internal streams): GC copies in GC frontiers of their own (true) or back in their
// stream's user frontier (false); auto: streams.gc_stream and streams.gc_frontier decide (validation.cpp).
enum class StreamsInternal : uint8_t { Auto, Own, User };
// precondition.snapshot (sim/precondition_snapshot.cpp): load the configuration's snapshot if there is one, else
// precondition and save it; precondition and save; the snapshot must exist; neither.
enum class SnapshotMode : uint8_t { Auto, Save, Load, Off };

namespace choices {
inline constexpr Choice<SuspendMode> kFlashSuspend[] = {
    {"none", SuspendMode::None}, {"program", SuspendMode::Program}, {"program_erase", SuspendMode::ProgramErase}};
inline constexpr Choice<uint32_t> kFlashCell[] = {{"slc", 1}, {"mlc", 2}, {"tlc", 3}, {"qlc", 4}};  // bits per cell
inline constexpr Choice<MultiPlane> kFlashMultiplane[] = {
    {"always", MultiPlane::Always}, {"opportunistic", MultiPlane::Opportunistic}, {"never", MultiPlane::Never}};
inline constexpr Choice<bool> kFlashPlaneRule[] = {{"same_page", false}, {"any", true}};  // any plane combines
inline constexpr Choice<SlcMode> kSlcMode[] = {
    {"none", SlcMode::None}, {"static", SlcMode::Static}, {"dynamic", SlcMode::Dynamic}};
inline constexpr Choice<bool> kSlcWhenFull[] = {{"fold", true}, {"direct", false}};  // host writes wait for a fold
inline constexpr Choice<bool> kReliabilityModel[] = {{"none", false}, {"rber", true}};  // the model on
inline constexpr Choice<bool> kNvmeInterface[] = {{"command", false}, {"register", true}};  // register-level
inline constexpr Choice<bool> kNvmeArbitration[] = {{"rr", false}, {"wrr", true}};  // weighted round robin
inline constexpr Choice<bool> kFdpRuhType[] = {
    {"initially_isolated", false}, {"persistently_isolated", true}};  // persistently isolated
inline constexpr Choice<bool> kZnsResetErase[] = {{"reset", true}, {"lazy", false}};  // erase at the Zone Reset
inline constexpr Choice<GcStreams> kStreamsGcStream[] = {
    {"shared", GcStreams::Shared}, {"per_stream", GcStreams::PerStream}, {"hotcold", GcStreams::HotCold}};
inline constexpr Choice<bool> kStreamsGcFrontier[] = {{"own", false}, {"user", true}};  // GC in the user frontiers
inline constexpr Choice<bool> kStreamsPcTableReset[] = {{"never", false}, {"run", true}};  // reset per run
inline constexpr Choice<bool> kStreamsPcstreamClock[] = {{"writes", false}, {"time", true}};  // lifetimes in time
inline constexpr Choice<bool> kPowerLossCheck[] = {{"changed", false}, {"all", true}};  // check every LPN
inline constexpr Choice<bool> kCacheReadAhead[] = {{"none", false}, {"sequential", true}};  // read-ahead on
inline constexpr Choice<bool> kSimTiming[] = {{"at", false}, {"lt", true}};  // loosely timed
inline constexpr Choice<ConvergeParams::Mode> kSimConverge[] = {
    {"off", ConvergeParams::Mode::Off}, {"report", ConvergeParams::Mode::Report}, {"stop", ConvergeParams::Mode::Stop}};
inline constexpr Choice<uint8_t> kHostSqPriority[] = {{"urgent", 0}, {"high", 1}, {"medium", 2}, {"low", 3}};  // QPRIO
inline constexpr Choice<LifetimeStats> kStatsLifetimes[] = {
    {"auto", LifetimeStats::Auto}, {"on", LifetimeStats::On}, {"all", LifetimeStats::All}, {"off", LifetimeStats::Off}};
inline constexpr Choice<StreamsInternal> kStreamsInternal[] = {
    {"auto", StreamsInternal::Auto}, {"true", StreamsInternal::Own}, {"false", StreamsInternal::User}};
inline constexpr Choice<SnapshotMode> kPreconditionSnapshot[] = {
    {"auto", SnapshotMode::Auto}, {"save", SnapshotMode::Save}, {"load", SnapshotMode::Load}, {"off", SnapshotMode::Off}};
// workload.* (one job's keys: workload_params.cpp, placement_params.cpp)
inline constexpr Choice<bool> kWorkloadPreset[] = {{"none", false}, {"jesd219", true}};  // JESD219's sizes and zones
inline constexpr Choice<bool> kWorkloadTraceTiming[] = {{"closed", false}, {"open", true}};  // at the trace's times
inline constexpr Choice<bool> kWorkloadStreamHint[] = {{"none", false}, {"zone", true}};  // zone i -> stream i+1
inline constexpr Choice<bool> kWorkloadPlidSelect[] = {{"roundrobin", false}, {"random", true}};  // a random id
inline constexpr Choice<bool> kWorkloadCapturePageCache[] = {{"unbounded", true}, {"dirty_only", false}};  // clean kept
inline constexpr Choice<bool> kWorkloadCapturePcScope[] = {{"page", false}, {"inode", true}};  // the inode's context
inline constexpr Choice<ExitWhat> kWorkloadExitWhat[] = {
    {"none", ExitWhat::None}, {"group", ExitWhat::Group}, {"stonewall", ExitWhat::Stonewall}, {"all", ExitWhat::All}};
inline constexpr Choice<bool> kWorkloadRateProcess[] = {{"linear", false}, {"poisson", true}};  // exponential gaps
inline constexpr Choice<IoLogParams::Window> kWorkloadLogWindowValue[] = {
    {"avg", IoLogParams::Window::Avg}, {"max", IoLogParams::Window::Max}, {"both", IoLogParams::Window::Both}};
inline constexpr Choice<bool> kWorkloadFilesystem[] = {{"none", false}, {"ext4", true}};  // the area is an Ext4 file
inline constexpr Choice<bool> kAppLsmCompactionPick[] = {{"round_robin", false}, {"random", true}};  // a random table
inline constexpr Choice<bool> kAppCacheEviction[] = {{"fifo", false}, {"lru", true}};  // least recently read
inline constexpr Choice<DataPlacement> kWorkloadDataplacement[] = {
    {"none", DataPlacement::None}, {"fdp", DataPlacement::Fdp}, {"streams", DataPlacement::Streams}};
inline constexpr Choice<AppPlacement> kAppPlacement[] = {
    {"none", AppPlacement::None}, {"fdp", AppPlacement::Fdp}, {"zns", AppPlacement::Zns}};
inline constexpr Choice<ExtentAllocator::Fit> kAppAllocation[] = {{"best_fit", ExtentAllocator::Fit::Best},
                                                                   {"next_fit", ExtentAllocator::Fit::Next},
                                                                   {"spread", ExtentAllocator::Fit::Spread}};
inline constexpr Choice<TraceFitMode> kWorkloadTraceFit[] = {{"auto", TraceFitMode::Auto},
                                                             {"error", TraceFitMode::Error},
                                                             {"wrap", TraceFitMode::Wrap},
                                                             {"scale", TraceFitMode::Scale},
                                                             {"shift", TraceFitMode::Shift}};
inline constexpr Choice<BlkparseEvent> kWorkloadBlkparseEvent[] = {
    {"Q", BlkparseEvent::Queued}, {"D", BlkparseEvent::Issued}};
}  // namespace choices

// Every enum-like key with its table's names (the schema's choices) and a parse of a name through the table
// (tests/config/test_choices.cpp parses every schema choice).
struct KeyedChoices {
  const char* key;
  std::vector<std::string> names;
  void (*parse)(const std::string& name, const std::string& key);  // throws ConfigError for a name not in the table
};
const std::vector<KeyedChoices>& keyed_choices();

}  // namespace ssdtlm
