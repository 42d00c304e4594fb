// The FTL module's waveform signals (ftl.*, chN.dieK.free_blocks) and their sampling: kept with the waveform
// code so the module itself only calls trace_sample() at the end of each entry point when traced.
#include <algorithm>

#include "common/sim_time.h"
#include "controller/ftl.h"
#include "controller/gc/line_pool.h"
#include "wave/wave_signals.h"

namespace ssdtlm {

void Ftl::trace(WaveTracer& w) {
  auto t = std::make_unique<FtlWave>(g_.dies, g_.blocks_per_die);
  t->w = &w;
  const BlockManager& b = e_.state.blocks();
  uint64_t min = g_.blocks_per_die;
  for (uint32_t d = 0; d < g_.dies; ++d) min = std::min<uint64_t>(min, b.free_blocks(d));
  const uint64_t all = uint64_t(g_.blocks_per_die) * g_.dies;
  auto add = [&](WaveValue& v, const std::string& path, uint64_t max, uint64_t initial, const char* help) {
    v.signal = w.add(path, wave_bits(max), WaveStyle::Counter, initial, -1, help);
    v.last = initial;
  };
  add(t->buffer, "ftl.buffer_units", buffer_->capacity(), buffer_->occupied(),
      "4 KiB units held in the DRAM write buffer");
  add(t->free_min, "ftl.free_blocks_min", g_.blocks_per_die, min, "free blocks of the die with the fewest");
  add(t->free_total, "ftl.free_blocks", all, b.total_free_blocks(), "free blocks, all dies");
  add(t->gc_active, "ftl.gc_active_dies", g_.dies, e_.gc.active_dies(), "dies collecting garbage");
  WaveGroup group;
  group.name = "ftl";
  group.rows = {{t->buffer.signal, 3}, {t->free_min.signal, 2}, {t->gc_active.signal, 2}};
  t->map = ts_ != nullptr;  // the map reaches flash: its DRAM cache holds dirty segments
  if (t->map) {
    add(t->map_dirty, "ftl.map_dirty_segments", cache_.params().segments(), cache_.dirty_segments(),
        "map segments (translation pages) dirty in the DRAM map cache");
    group.rows.push_back({t->map_dirty.signal, 2});
  }
  if (read_ahead_) {  // cache.read_ahead: the units read ahead held in DRAM (in flight or landed)
    add(t->read_ahead, "ftl.read_ahead_units", read_ahead_->budget_units(), read_ahead_->held(),
        "4 KiB units read ahead held in DRAM (cache.read_ahead)");
    group.rows.push_back({t->read_ahead.signal, 2});
  }
  WaveGroup dies;
  dies.name = "free blocks per die";
  dies.closed = true;
  dies.rows.push_back({t->free_total.signal, 2});
  for (uint32_t ch = 0; ch < g_.channels; ++ch)
    for (uint32_t k = 0; k < g_.dies_per_channel; ++k) {  // die k of channel ch is die k * channels + ch
      const uint32_t d = k * g_.channels + ch;
      const std::string name = "ch" + std::to_string(ch) + ".die" + std::to_string(k) + ".free_blocks";
      add(t->die_free[d], name, g_.blocks_per_die, b.free_blocks(d), "free blocks of the die");
      t->min.set(d, b.free_blocks(d));
      dies.rows.push_back({t->die_free[d].signal, 1});
    }
  group.groups.push_back(std::move(dies));
  const StreamParams& sp = streams_.params();
  if (sp.fdp) {  // FDP: open reclaim units per reclaim group
    WaveGroup rus;
    rus.name = "fdp open RUs per reclaim group";
    t->open_rus.resize(sp.fdp_rgs);
    for (uint32_t rg = 0; rg < sp.fdp_rgs; ++rg) {
      add(t->open_rus[rg], "fdp.rg" + std::to_string(rg) + ".open_rus", sp.fdp_ruhs, open_rus(rg),
          "FDP: reclaim unit handles with an open reclaim unit (one with pages left to write) in the reclaim group");
      rus.rows.push_back({t->open_rus[rg].signal, 1});
    }
    group.groups.push_back(std::move(rus));
  }
  if (const ZnsNamespace* z = streams_.zns()) {  // ZNS: open and active zones
    WaveGroup zg;
    zg.name = "zns zones";
    const ZoneConfig& zc = z->zones().config();
    const uint64_t most = zc.zones;
    add(t->open_zones, "zns.open_zones", most, z->zones().open_zones(), "ZNS: zones implicitly or explicitly opened");
    add(t->active_zones, "zns.active_zones", most, z->zones().active_zones(), "ZNS: zones open or closed (active)");
    zg.rows = {{t->open_zones.signal, 1}, {t->active_zones.signal, 1}};
    t->group_zones.resize(z->layout().groups);
    for (uint32_t g = 0; g < z->layout().groups; ++g) {
      add(t->group_zones[g], "zns.group" + std::to_string(g) + ".zones_writing", ZnsLayout::kSlots,
          z->zones_writing(g), "ZNS: zones of die group g with data in flight (a stream slot each: open, or full with units still buffered)");
      zg.rows.push_back({t->group_zones[g].signal, 1});
    }
    group.groups.push_back(std::move(zg));
    t->zns = true;
  }
  w.layout().groups.push_back(std::move(group));
  wave_ = std::move(t);
}

void Ftl::trace_sample() {
  FtlWave& t = *wave_;
  WaveTracer& w = *t.w;
  const uint64_t now = now_ps();
  if (!t.dirty.empty()) {
    const BlockManager& b = e_.state.blocks();
    for (uint32_t d : t.dirty) {
      t.touched[d] = 0;
      const uint64_t f = b.free_blocks(d);
      t.die_free[d].set(w, now, f);
      t.min.set(d, f);
      if (!t.open_rus.empty()) {
        const uint32_t rg = d / (g_.dies / uint32_t(t.open_rus.size()));
        t.open_rus[rg].set(w, now, open_rus(rg));
      }
    }
    t.dirty.clear();
    t.free_min.set(w, now, t.min.min());
    t.free_total.set(w, now, b.total_free_blocks());
  }
  t.buffer.set(w, now, buffer_->occupied());
  t.gc_active.set(w, now, e_.gc.active_dies());
  if (t.map) t.map_dirty.set(w, now, cache_.dirty_segments());
  if (read_ahead_) t.read_ahead.set(w, now, read_ahead_->held());
  if (t.zns) {
    const ZoneManager& zm = streams_.zns()->zones();
    t.open_zones.set(w, now, zm.open_zones());
    t.active_zones.set(w, now, zm.active_zones());
    for (uint32_t g = 0; g < t.group_zones.size(); ++g) t.group_zones[g].set(w, now, streams_.zns()->zones_writing(g));
  }
}

uint32_t Ftl::open_rus(uint32_t rg) const {
  const StreamParams& sp = streams_.params();
  const BlockManager& b = e_.state.blocks();
  const LinePool& lines = line_pool(b);
  uint32_t n = 0;
  for (uint32_t h = 0; h < sp.fdp_ruhs; ++h) {
    const uint64_t left = lines.open_line_units_left(rg, b.layout().user_frontier(rg * sp.fdp_ruhs + h));
    n += left != kInvalid && left > 0;
  }
  return n;
}

}  // namespace ssdtlm
