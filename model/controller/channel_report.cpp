// The channels' report: what the dies did, counted by the channel controllers (the FTL's counters count what it
// issued), and how busy buses and dies were.
#include <nlohmann/json.hpp>

#include "controller/channel_controller.h"

namespace ssdtlm {

namespace {

// Per channel (bus) and per die (array, by global index: die k of channel c is k * channels + c).
void per_unit_utilization(const std::vector<ChannelController*>& chans, const Geometry& g, double span_ps,
                          nlohmann::json& util) {
  nlohmann::json buses = nlohmann::json::array(), dies = nlohmann::json::array();
  std::vector<double> die_frac(g.dies, 0.0);
  for (size_t c = 0; c < chans.size(); ++c) {
    const ChannelStats& cs = chans[c]->stats();
    buses.push_back(span_ps > 0 ? double(cs.bus_busy_ps) / span_ps : 0.0);
    for (size_t k = 0; k < cs.die_array_ps.size(); ++k)
      die_frac[k * g.channels + c] = span_ps > 0 ? double(cs.die_array_ps[k]) / span_ps : 0.0;
  }
  for (double f : die_frac) dies.push_back(f);
  util["channels"] = buses;
  util["dies"] = dies;
}

}  // namespace

nlohmann::json channels_report(const std::vector<ChannelController*>& chans, const Geometry& g, double span_ps) {
  double bus = 0, die = 0;
  uint64_t array_ops[3] = {0, 0, 0}, suspends[3] = {0, 0, 0}, suspended_reads = 0, suspended_ps = 0, overtakes = 0;
  uint64_t plane_ops = 0, multiplane_ops = 0, combined_reads = 0;
  for (const ChannelController* ch : chans) {
    const ChannelStats& cs = ch->stats();
    bus += double(cs.bus_busy_ps);
    die += double(cs.die_array_busy_ps);
    for (int k = 0; k < 3; ++k) array_ops[k] += cs.ops[k], suspends[k] += cs.suspends[k];
    suspended_reads += cs.suspended_reads;
    suspended_ps += cs.suspended_ps;
    overtakes += cs.read_overtakes;
    plane_ops += cs.plane_ops;
    multiplane_ops += cs.multiplane_ops;
    combined_reads += cs.combined_reads;
  }
  const uint64_t suspensions = suspends[1] + suspends[2];
  nlohmann::json nand = {
      {"array_ops", {{"reads", array_ops[0]}, {"programs", array_ops[1]}, {"erases", array_ops[2]}}},
      // flash.suspend and flash.die_sched (docs/reference/hardware.md)
      {"suspend",
       {{"program_suspends", suspends[1]},
        {"erase_suspends", suspends[2]},
        {"reads_served", suspended_reads},
        {"suspended_s", double(suspended_ps) / 1e12},
        {"mean_suspended_us", suspensions ? double(suspended_ps) / 1e6 / double(suspensions) : 0.0}}},
      {"read_overtakes", overtakes},
      // flash.multiplane (docs/reference/hardware.md): array operations as the dies ran them, the share on several planes
      {"multiplane",
       {{"array_ops", plane_ops},
        {"multiplane_ops", multiplane_ops},
        {"fraction", plane_ops ? double(multiplane_ops) / double(plane_ops) : 0.0},
        {"combined_reads", combined_reads}}}};
  nlohmann::json util = {{"channel_bus", span_ps > 0 ? bus / span_ps / g.channels : 0.0},
                         {"die_array", span_ps > 0 ? die / span_ps / g.dies : 0.0}};
  per_unit_utilization(chans, g, span_ps, util);
  return {{"nand", nand}, {"utilization", util}};
}

}  // namespace ssdtlm
