// The RBER model and the ECC ladder (flash/reliability/rber_model.h) without a simulation: the error rate
// grows with P/E cycles, retention age and reads; the ladder escalates hard decode -> read-retry steps ->
// soft tiers -> uncorrectable as the RBER grows, each rung costing what its parameters say.
#include <catch2/catch.hpp>

#include "flash/reliability/rber_model.h"
#include "flash/reliability/reliability.h"

using namespace ssdtlm;

TEST_CASE("rber: the mean RBER grows with P/E cycles, retention age and reads, each alone", "[reliability]") {
  const RberModel m{ReliabilityParams()};
  double last = 0;
  for (double pe : {0.0, 100.0, 1000.0, 3000.0, 10000.0}) {
    const double r = m.mean_rber(pe, 24, 10);
    CHECK(r > last);
    last = r;
  }
  last = 0;
  for (double h : {0.0, 1.0, 24.0, 720.0, 8760.0}) {
    const double r = m.mean_rber(1000, h, 0);
    CHECK(r >= last);
    if (h > 0) CHECK(r > last);
    last = r;
  }
  last = 0;
  for (double reads : {0.0, 10.0, 1000.0, 1e5}) {
    const double r = m.mean_rber(1000, 0, reads);
    CHECK(r >= last);
    if (reads > 0) CHECK(r > last);
    last = r;
  }
  // a fresh page just programmed: the base rate eps (and a once-cycled block's wear, alpha = 3.9e-10); the shift
  // part is what retention and reads add
  CHECK(m.mean_rber(0, 0, 0) == Approx(ReliabilityParams().eps + ReliabilityParams().alpha));
  CHECK(m.shift_rber(1000, 720, 50) == Approx(m.mean_rber(1000, 720, 50) - m.mean_rber(1000, 0, 0)));
}

TEST_CASE("rber: the ECC ladder escalates with the RBER: hard decode, read-retry, soft tiers, uncorrectable", "[reliability]") {
  ReliabilityParams p;
  p.page_sigma = 0;
  const RberModel m(p);
  // below the hard limit: decoded on the first read
  ReadOutcome o = m.decode(0.5 * p.hard_rber, 0.2 * p.hard_rber, 1.0);
  CHECK(o.retries == 0);
  CHECK(o.extra_reads == 0);
  CHECK(o.decode_ps == 0);
  // the shift part is halved per retry step: a page at 1.5x the limit with 0.9x of it in shifts needs 2 steps
  // (fixed 0.6 + 0.9 x 0.5^s <= 1 for s = 2 (0.825), not s = 1 (1.05))
  o = m.decode(1.5 * p.hard_rber, 0.9 * p.hard_rber, 1.0);
  CHECK(o.retries == 2);
  CHECK(o.extra_reads == 2);
  CHECK(o.soft_tier == 0);
  CHECK_FALSE(o.uncorrectable);
  // a wear floor above the hard limit: every retry step, then the first soft tier that corrects it
  o = m.decode(p.soft_rber[0] * 0.9, 0.0, 1.0);
  CHECK(o.retries == p.retry_steps);
  CHECK(o.soft_tier == 1);
  CHECK(o.extra_reads == p.retry_steps + p.soft_reads[0]);
  CHECK(o.decode_ps == p.soft_decode_ps[0]);
  o = m.decode(p.soft_rber[1] * 0.9, 0.0, 1.0);
  CHECK(o.soft_tier == 2);
  CHECK(o.decode_ps == p.soft_decode_ps[1]);
  // past the last tier: uncorrectable, after every rung
  o = m.decode(p.soft_rber[1] * 1.1, 0.0, 1.0);
  CHECK(o.uncorrectable);
  CHECK(o.extra_reads == p.retry_steps + p.soft_reads[1]);
  // monotone: a higher RBER never costs less
  uint32_t cost = 0;
  for (double r = 1e-4; r < 3e-2; r *= 1.1) {
    const ReadOutcome x = m.decode(r, 0.5 * r, 1.0);
    const uint32_t c = x.extra_reads + (x.uncorrectable ? 1000 : 0) + uint32_t(x.decode_ps / 1000000);
    CHECK(c >= cost);
    cost = c;
  }
}

TEST_CASE("rber: page factors are lognormal with mean 1 and fixed per page instance", "[reliability]") {
  ReliabilityParams p;
  p.page_sigma = 0.3;
  const RberModel m(p);
  double sum = 0;
  const int n = 20000;
  for (int i = 0; i < n; ++i) sum += m.page_factor(uint64_t(i) * 7919);
  CHECK(sum / n == Approx(1.0).epsilon(0.02));
  CHECK(m.page_factor(42) == m.page_factor(42));
}

TEST_CASE("reliability: reads count toward read disturb and queue their block for reclaim at the threshold", "[reliability]") {
  Geometry raw;
  raw.channels = 1;
  raw.dies_per_channel = 1;
  raw.planes = 1;
  raw.blocks_per_die = 8;
  raw.pages_per_block = 4;
  raw.page_bytes = 4096;
  raw.over_provisioning = 0.5;
  const Geometry g = Geometry::derive(raw);
  ReliabilityParams p;
  p.on = true;
  p.initial_pe = 1000;
  p.reclaim_reads = 10;
  Reliability rel(g, p);
  rel.on_program(3, 0, 0);
  const double before = rel.block_rber(3, 0, false, 0);
  for (int i = 0; i < 9; ++i) rel.on_read(3, 1, 0, false, 0);
  CHECK(rel.block_rber(3, 0, false, 0) > before);
  CHECK_FALSE(rel.reclaim_due(0));
  rel.on_read(3, 1, 0, false, 0);
  REQUIRE(rel.reclaim_due(0));
  CHECK(rel.pop_reclaim(0) == 3);
  CHECK(rel.pop_reclaim(0) == kInvalid);
  // an SLC-mode block wears more slowly: the same erases give a lower RBER
  CHECK(rel.block_rber(5, 0, true, 0) < rel.block_rber(5, 0, false, 0));
  // data written before the run is reliability.retention_days older
  ReliabilityParams aged = p;
  aged.retention_hours = 30 * 24;
  Reliability old(g, aged);
  CHECK(old.block_rber(2, 0, false, 0) > rel.block_rber(2, 0, false, 0));
  CHECK(rel.counters().reads == 10);
}
