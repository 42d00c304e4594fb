#include "generic_platform.h"

#include <cmath>

#include "common/sim_time.h"
#include "controller/buffer/flush_policy.h"
#include "controller/gc/victim_policy.h"
#include "controller/streams/streams.h"
#include "workload/workload_factory.h"

namespace ssdtlm {

namespace platform_generic {
extern const char* const kDefaultConfig;
}

namespace {
bool map_pages(const Config& c) { return map_on_flash(c.s("ftl.mapping"), c.d("map.protected_ratio")); }
// The write frontiers of every die: the user streams, the GC streams and, with a demand-based mapping
// scheme, map pages.
FrontierLayout frontier_layout(const Config& c) {
  const StreamParams sp = StreamParams::from_config(c);
  FrontierLayout l;
  l.user = sp.user_streams();
  l.gc = sp.gc_streams();
  l.gc_in_user = sp.gc_in_user;
  l.map = map_pages(c);
  return l;
}
// Blocks per die kept from data: the GC threshold and an open block per frontier (superblock mode: up to
// BlockManager::kOpenLines open lines per frontier, so that some full line always holds invalid data).
// With ftl.gc_min_invalid, GC may leave free blocks below ftl.gc_free_blocks: only the urgent ones are kept.
uint32_t kept_free_blocks(const Config& c) {
  return uint32_t(c.d("ftl.gc_min_invalid") > 0 ? c.i("ftl.gc_urgent_free_blocks") : c.i("ftl.gc_free_blocks"));
}
uint32_t reserved_blocks(const Config& c) {
  const uint32_t open = c.s("ftl.gc_unit") == "superblock" ? uint32_t(BlockManager::kOpenLines) : 1;
  return kept_free_blocks(c) + open * frontier_layout(c).frontiers();
}
// GC settings the FTL cannot honour, refused naming the key.
void check_gc(const Config& c) {
  const FrontierLayout layout = frontier_layout(c);
  const bool min_invalid = c.d("ftl.gc_min_invalid") > 0;
  if (min_invalid && c.i("ftl.gc_urgent_free_blocks") > c.i("ftl.gc_free_blocks"))
    throw ConfigError("key 'ftl.gc_urgent_free_blocks': expected at most ftl.gc_free_blocks (" +
                      std::to_string(c.i("ftl.gc_free_blocks")) + "), got " + std::to_string(c.i("ftl.gc_urgent_free_blocks")));
  if (c.s("ftl.gc_unit") != "superblock") return;
  const uint32_t kept = kept_free_blocks(c);
  if (kept < layout.gc + 1)
    throw ConfigError("key '" + std::string(min_invalid ? "ftl.gc_urgent_free_blocks" : "ftl.gc_free_blocks") +
                      "': superblock GC needs a free line for each of the " + std::to_string(layout.gc) +
                      " GC stream(s) and one more to start, at least " + std::to_string(layout.gc + 1) +
                      " (lines), got " + std::to_string(kept));
  if (layout.gc > 1 && !layout.gc_in_user)
    throw ConfigError("key 'streams.gc_stream': superblock GC with several GC frontiers of their own is not supported "
                      "yet (each die copies its own victim block, so the GC lines fill unevenly and retired lines waste "
                      "the spare); use streams.gc_frontier=user (seed 004, FEMU) or streams.gc_stream=shared");
  if (map_pages(c))
    throw ConfigError("key 'ftl.gc_unit': superblock GC with translation pages on flash (ftl.mapping other than page, or "
                      "map.protected_ratio below 1) is not supported yet");
}
}  // namespace

GenericPlatform::GenericPlatform(const Config& c) : g_(Geometry::from_config(c, reserved_blocks(c))) {
  check_gc(c);
  const StreamParams sp = StreamParams::from_config(c);
  const bool check = c.b("check.integrity");
  for (uint32_t d = 0; d < g_.dies; ++d) dies_.push_back(std::make_unique<Die>(g_, d, check));
  if (check) checker_ = std::make_unique<IntegrityChecker>(g_.logical_units);

  // FTL algorithms and DRAM write buffer
  std::vector<Die*> all;
  for (auto& d : dies_) all.push_back(d.get());
  page_ftl_ = std::make_unique<PageFtl>(g_, all, make_victim_policy(c.s("ftl.gc_victim"), g_, "ftl.gc_victim"),
                                        uint32_t(c.i("ftl.gc_free_blocks")), frontier_layout(c));
  page_ftl_->set_streams(std::make_unique<Streams>(sp, g_.logical_units));
  if (c.s("ftl.gc_unit") == "superblock") page_ftl_->set_superblock(c.s("ftl.gc_victim"), "ftl.gc_victim");
  if (c.d("ftl.gc_min_invalid") > 0) {  // a victim must hold at least this many invalid units
    const auto most_valid = [&](uint64_t units) {
      return uint32_t(units - uint64_t(std::ceil(c.d("ftl.gc_min_invalid") * double(units))));
    };
    page_ftl_->blocks().set_worth(most_valid(g_.units_per_block), most_valid(uint64_t(g_.units_per_block) * g_.dies),
                                  uint32_t(c.i("ftl.gc_urgent_free_blocks")));
  }
  const std::string scheme = c.s("ftl.mapping");
  page_ftl_->set_checker(checker_.get());  // preconditioning's GC checks its erases and copies too
  page_ftl_->set_mapping(make_map_cache(scheme, MapCacheParams::from_config(c, g_), "ftl.mapping"), map_pages(c));
  FtlParams fp = FtlParams::from_config(c);
  if (fp.buffer_units < g_.units_per_page || fp.buffer_units * uint64_t(kUnitBytes) < c.u("workload.block_bytes"))
    throw ConfigError("key 'buffer.bytes': expected at least one flash page (" +
                      std::to_string(g_.units_per_page * kUnitBytes) + " bytes) and one request (workload.block_bytes), got " +
                      std::to_string(c.u("buffer.bytes")));
  fp.count_lpn_writes = c.b("stats.lpn_writes");
  FlushContext fc;
  fc.capacity_units = fp.buffer_units;
  fc.entries_per_segment = page_ftl_->map_cache().params().entries_per_segment();
  fc.segments = page_ftl_->map_cache().params().segments();
  fc.max_age_ps = uint64_t(c.d("buffer.max_age_ms") * 1e9);
  fc.cache = &page_ftl_->map_cache();
  auto buffer = std::make_unique<WriteBuffer>(fp.buffer_units, make_flush_policy(c.s("buffer.policy"), fc, "buffer.policy"),
                                              sp.user_streams());

  // modules
  std::vector<HostJob> jobs;
  for (size_t j = 0; j < std::max<size_t>(1, c.job_count()); ++j) {
    Config jc = c.job_config(j);
    if (c.job_count() && !c.json()["jobs"][j].contains("seed_offset")) jc.set("workload.seed_offset=" + std::to_string(j));
    workloads_.push_back(make_workload(jc, g_.logical_bytes(), false));
    jobs.push_back({c.job_name(j), workloads_.back().get(), uint32_t(jc.i("host.queues")), uint32_t(jc.i("host.queue_depth")),
                    jc.s("workload.pattern") == "trace" && jc.s("workload.trace_timing") == "open"});
  }
  host_ = std::make_unique<NvmeHost>("host", HostParams{g_.logical_bytes(), uint64_t(fp.buffer_units) * kUnitBytes}, jobs);
  NvmeParams np = NvmeParams::from_config(c);
  np.queues = host_->queues();
  nvme_ = std::make_unique<NvmeController>("nvme", np);
  ftl_ = std::make_unique<Ftl>("ftl", fp, *page_ftl_, std::move(buffer), checker_.get());
  dram_ = std::make_unique<Dram>("dram", DramParams::from_config(c));
  Channel bus(c.d("timing.channel_mts"), uint32_t(c.i("timing.channel_width_bytes")), c.d("timing.cmd_ns"));
  const FlashParams fparams = FlashParams::from_config(c);
  for (uint32_t ch = 0; ch < g_.channels; ++ch) {
    std::vector<Die*> on_channel;
    for (uint32_t k = 0; k < g_.dies_per_channel; ++k) on_channel.push_back(dies_[k * g_.channels + ch].get());
    channels_.push_back(std::make_unique<ChannelController>(("ch" + std::to_string(ch)).c_str(), g_, ch, on_channel,
                                                            bus, fparams));
  }

  // wiring
  host_->host_isock.bind(nvme_->nvme_tsock);
  nvme_->bind_backend(ftl_.get());
  ftl_->bind_frontend(nvme_.get());
  for (uint32_t ch = 0; ch < g_.channels; ++ch) ftl_->flash_isock[ch]->bind(channels_[ch]->tsock);
  dram_->attach(nvme_->dram.isock, DramSide::Host);
  dram_->attach(ftl_->dram.isock, DramSide::Map);
  for (auto& ch : channels_) dram_->attach(ch->dram.isock, DramSide::Flash);
}

std::vector<ChannelController*> GenericPlatform::channels() {
  std::vector<ChannelController*> v;
  for (auto& c : channels_) v.push_back(c.get());
  return v;
}

void GenericPlatform::trace(WaveTracer& w) {
  // Layout order: host, FTL, then one group per channel.
  host_->trace(w);
  ftl_->trace(w);
  for (auto& c : channels_) c->trace(w);
}

size_t GenericPlatform::model_bytes() const {
  size_t n = page_ftl_->memory_bytes() + ftl_->buffer().memory_bytes() + (checker_ ? checker_->memory_bytes() : 0);
  for (auto& d : dies_) n += d->memory_bytes();
  return n;
}

PlatformInfo generic_platform_info() { return generic_platform_info("generic", platform_generic::kDefaultConfig); }

PlatformInfo generic_platform_info(const std::string& name, const char* default_config) {
  return {name, default_config, [](const Config& c) { return std::unique_ptr<Platform>(new GenericPlatform(c)); }};
}

}  // namespace ssdtlm
