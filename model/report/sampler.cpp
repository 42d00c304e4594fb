#include "report/sampler.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <sstream>

#include "common/sim_time.h"
#include "power/power_meter.h"
#include "report/power_summary.h"
#include "wave/wave_trace.h"

namespace ssdtlm {

namespace {
uint64_t real_bits(double x) {
  uint64_t v;
  std::memcpy(&v, &x, sizeof v);
  return v;
}

// The interval's power and the temperature at its end into the row (and the waveform).
void sample_power(Platform& p, uint64_t now, TimeseriesRow& r, WaveTracer* w, uint32_t signal) {
  PowerMeter* m = p.power();
  if (!m) {
    r.power_w = r.temp_c = 0;
    std::fill(r.component_w, r.component_w + kPowerComponents, 0.0);
    r.throttle = 0;
    return;
  }
  const PowerSample s = m->sample(power_counters(p, now));
  r.power_w = s.total_w;
  std::copy(s.w, s.w + kPowerComponents, r.component_w);
  r.temp_c = s.temp_c;
  r.throttle = s.throttle;
  if (!w) return;
  w->set(signal, now, real_bits(s.total_w));
  for (uint32_t k = 0; k < kPowerComponents; ++k) w->set(signal + 1 + k, now, real_bits(s.w[k]));
  w->set(signal + 1 + kPowerComponents, now, real_bits(s.temp_c));
  w->set(signal + 2 + kPowerComponents, now, s.throttle);
}
}  // namespace

Sampler::Sampler(sc_core::sc_module_name name, Platform& p, uint64_t interval_ps, uint64_t expected_ios, bool progress)
    : sc_module(name), p_(p), interval_ps_(interval_ps), expected_ios_(expected_ios), progress_(progress) {
  wall0_ = last_print_ = std::chrono::steady_clock::now();
  SC_HAS_PROCESS(Sampler);
  SC_METHOD(sample);
  sensitive << tick_;
  dont_initialize();
  tick_.notify(ps_time(interval_ps_));
}

bool Sampler::take(uint64_t now) {
  if (now <= last_ps_) return false;
  const HostStats& h = p_.host().stats();
  const FlashCounters& f = p_.ftl().flash_counters();
  const Ftl::Gauges ftl = p_.ftl().gauges();
  const Geometry& g = p_.geometry();
  double dt = double(now - last_ps_) / 1e12;
  uint64_t reads = h.ios[0] - last_ios_[0], writes = h.ios[1] - last_ios_[1];
  uint64_t bytes = h.bytes[0] + h.bytes[1] - last_bytes_;
  uint64_t written = h.bytes[1] - last_written_;
  uint64_t programs = f.total_programs();
  TimeseriesRow r;
  r.t_ms = double(now) / 1e9;
  r.read_iops = double(reads) / dt;
  r.write_iops = double(writes) / dt;
  r.iops = r.read_iops + r.write_iops;
  r.mbps = double(bytes) / dt / 1e6;
  r.waf = FlashCounters::waf(programs - last_programs_, double(g.units_per_page) * kUnitBytes, double(written));
  r.free_blocks = ftl.free_blocks;
  r.buffer_units = ftl.buffer_units;
  r.gc_active_dies = ftl.gc_active_dies;
  r.outstanding = p_.host().outstanding();
  const uint64_t lookups = ftl.map_lookups, hits = ftl.map_hits;
  r.map_hit_ratio = lookups > last_lookups_ ? double(hits - last_hits_) / double(lookups - last_lookups_) : 1.0;
  r.map_dirty_segments = ftl.map_dirty_segments;
  const uint64_t gc_programs = f.programs[uint32_t(UnitKind::GUD)] + f.programs[uint32_t(UnitKind::GMD)];
  r.erases = f.erases - last_erases_;
  r.gc_programs = gc_programs - last_gc_programs_;
  const uint64_t nand_reads = f.reads[0] + f.reads[1] + f.reads[2];
  // An interval in which nothing happened (no completion, no NAND operation, no map lookup, nothing outstanding,
  // no GC) is not a row: its gauges are the previous row's and its rates zero (docs: idle gaps are skipped).
  const bool idle = reads == 0 && writes == 0 && h.trims == last_trims_ && programs == last_programs_ &&
                    r.erases == 0 && nand_reads == last_nand_reads_ && lookups == last_lookups_ && r.outstanding == 0 &&
                    r.gc_active_dies == 0;
  sample_power(p_, now, r, wave_, wave_power_);
  last_trims_ = h.trims;
  last_nand_reads_ = nand_reads;
  last_erases_ = f.erases;
  last_gc_programs_ = gc_programs;
  last_lookups_ = lookups;
  last_hits_ = hits;
  if (!idle) rows_.push_back(r);
  last_ps_ = now;
  last_ios_[0] = h.ios[0];
  last_ios_[1] = h.ios[1];
  last_bytes_ = h.bytes[0] + h.bytes[1];
  last_written_ = h.bytes[1];
  last_programs_ = programs;
  return idle;
}

void Sampler::sample() {
  ++kernel_activations();
  const uint64_t now = now_ps();
  const bool idle = take(now);
  if (progress_) {
    auto wall = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(wall - last_print_).count() >= 2.0) {
      last_print_ = wall;
      // What counts comes from the host: trace requests, simulated time for runtime-bound or open-loop jobs,
      // I/Os or bytes for synthetic ones (expected_ios_ is not used: it cannot know a trace's length).
      const double elapsed = std::chrono::duration<double>(wall - wall0_).count();
      const uint64_t done = p_.host().completed();
      const HostProgress pr = p_.host().progress();
      char pct[48] = "";
      char eta[48] = "";
      if (pr.fraction >= 0) {
        std::snprintf(pct, sizeof pct, " (%.0f%%)", 100.0 * pr.fraction);
        if (pr.fraction > 0) std::snprintf(eta, sizeof eta, " | ETA %.0f s", elapsed * (1.0 - pr.fraction) / pr.fraction);
      }
      std::fprintf(stderr, "[ssdtlm] sim %.3f s | %s%s | %llu I/Os done, %.0f per wall s%s\n", double(now) / 1e12,
                   pr.text.c_str(), pct, (unsigned long long)done, elapsed > 0 ? double(done) / elapsed : 0.0, eta);
    }
  }
  if (p_.host().finished()) return;
  if (watch_ && watch_(now)) return;
  if (!idle) {
    tick_.notify(ps_time(interval_ps_));
    return;
  }
  // Idle: sleep to the interval in which the next event falls (an open-loop trace's gap of days is a few
  // kernel events, not one per interval), keeping the rows on the interval grid. Nothing pending at all
  // means the model stalled: no tick either, so sc_start returns and simulate() reports it.
  if (!sc_core::sc_pending_activity()) return;
  const uint64_t gap = sc_core::sc_time_to_pending_activity().value();
  const uint64_t k = std::max<uint64_t>(1, gap / interval_ps_ + (gap % interval_ps_ ? 1 : 0));
  if (k > 1) last_ps_ = now + (k - 1) * interval_ps_;  // nothing happens before the next event
  tick_.notify(ps_time(k * interval_ps_));
}

void Sampler::trace(WaveTracer& w) {
  // Power and temperature are traced when power is modelled beyond the energy count (a power budget, APST or the
  // thermal model); otherwise their rows would be flat interval averages pushing the dies off the first screen.
  const PowerMeter* m = p_.power();
  if (!m || !(m->budget() || m->params().apst || m->thermal_params().enabled)) return;
  WaveGroup group;
  group.name = "power";
  wave_power_ = w.add("power.total_w", 64, WaveStyle::Real, 0, -1, "drive power, W: each stats.interval_ms average from its end");
  group.rows.push_back({wave_power_, 3});
  for (uint32_t k = 0; k < kPowerComponents; ++k) {
    const std::string name = power_component_name(PowerComponent(k));
    group.rows.push_back({w.add("power." + name + "_w", 64, WaveStyle::Real, 0, -1, name + " power, W (interval average)"), 2});
  }
  uint64_t ambient;
  const double a = m->thermal_params().ambient_c;
  std::memcpy(&ambient, &a, sizeof ambient);
  group.rows.push_back({w.add("thermal.temp_c", 64, WaveStyle::Real, ambient, -1, "drive temperature, C (thermal.enabled)"), 3});
  group.rows.push_back({w.add("thermal.throttle", 2, WaveStyle::Counter, 0, -1, "thermal throttle level: 0 none, 1 TMT1, 2 TMT2"), 1});
  w.layout().groups.push_back(std::move(group));  // after the channels: their first one's dies stay on screen
  wave_ = &w;
}

void Sampler::start_clock() { wall0_ = last_print_ = std::chrono::steady_clock::now(); }

void Sampler::finish() { take(p_.host().stats().last_complete_ps); }

std::string Sampler::csv() const {
  std::ostringstream os;
  os << "t_ms,iops,read_iops,write_iops,mbps,waf,free_blocks,buffer_units,gc_active_dies,outstanding,map_hit_ratio,"
        "map_dirty_segments,erases,gc_programs,power_w,nand_w,channel_w,dram_w,controller_w,pcie_w,temp_c,throttle\n";
  char line[512];
  for (auto& r : rows_) {
    std::snprintf(line, sizeof line, "%.3f,%.1f,%.1f,%.1f,%.3f,%.4f,%llu,%llu,%llu,%llu,%.4f,%llu,%llu,%llu", r.t_ms,
                  r.iops, r.read_iops, r.write_iops, r.mbps, r.waf, (unsigned long long)r.free_blocks,
                  (unsigned long long)r.buffer_units, (unsigned long long)r.gc_active_dies,
                  (unsigned long long)r.outstanding, r.map_hit_ratio, (unsigned long long)r.map_dirty_segments,
                  (unsigned long long)r.erases, (unsigned long long)r.gc_programs);
    os << line;
    std::snprintf(line, sizeof line, ",%.4f,%.4f,%.4f,%.4f,%.4f,%.4f,%.3f,%u\n", r.power_w, r.component_w[0],
                  r.component_w[1], r.component_w[2], r.component_w[3], r.component_w[4], r.temp_c, r.throttle);
    os << line;
  }
  return os.str();
}

}  // namespace ssdtlm
