// The enum-like keys' tables (choice.h): each key's names, in the schema's order, and what each parses to. The
// schema takes the keys' choices from keyed_choices() (config_schema.cpp); the readers parse through the tables
// (params.cpp, placement_params.cpp, reliability_params.cpp, power_config.cpp). A new value is one line in its
// table; a new key is its table and one line in choices.cpp.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/choice.h"
#include "controller/slc/slc_cache.h"
#include "controller/streams/streams.h"
#include "flash/flash_params.h"
#include "host/converge_params.h"

namespace ssdtlm {

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
