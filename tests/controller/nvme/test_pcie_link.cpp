// The PCIe link model against the specification's arithmetic, written out here independently of the model:
// bytes per second = GT/s x lanes x encoding / 8; a memory write TLP = payload + 16 B header (4 DW, 64-bit
// address) + 8 B framing, sequence number and LCRC; a completion = payload + 12 B header + 8 B; a DLLP 8 B.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "controller/nvme/pcie_link.h"

using namespace ssdtlm;

namespace {

// Bytes per second per direction of a link, from the PCIe base specification's rates and line codes.
double spec_rate(double gt_per_s, uint32_t lanes, double encoding) { return gt_per_s * 1e9 * lanes * encoding / 8; }

// Moves `ios` 128 KiB reads' data (device -> host memory writes, back to back, page-aligned buffers) and returns
// the data bytes per second the upstream wire delivered.
double sequential_read_rate(PcieTlpLink& link, int ios) {
  uint64_t end = 0;
  for (int i = 0; i < ios; ++i) end = link.write_up(0, 0x100000 + uint64_t(i) * 131072, 131072);
  const uint64_t wire_ps = end - link.params().latency_ps;
  return double(ios) * 131072 / (double(wire_ps) * 1e-12);
}

}  // namespace

TEST_CASE("pcie link: raw rate by generation, lanes and line encoding") {
  const struct {
    uint32_t gen, lanes;
    double expect;
  } cases[] = {{1, 1, 250e6}, {2, 4, 2e9}, {3, 4, spec_rate(8, 4, 128.0 / 130)}, {4, 4, spec_rate(16, 4, 128.0 / 130)},
               {5, 16, spec_rate(32, 16, 128.0 / 130)}};
  for (const auto& c : cases) {
    PcieParams p;
    p.generation = c.gen;
    p.lanes = c.lanes;
    CHECK(PcieTlpLink(p).raw_bytes_per_s() == Approx(c.expect).epsilon(1e-9));
  }
  CHECK(spec_rate(8, 4, 128.0 / 130) == Approx(3.938e9).epsilon(1e-3));  // the old nvme.link_mbps default
  PcieParams bad;
  bad.generation = 6;
  CHECK_THROWS(PcieTlpLink(bad));
}

TEST_CASE("pcie link: 128 KiB sequential read within 2 % of the arithmetic at Gen3 x4 and Gen4 x4, MPS 256 B") {
  for (uint32_t gen : {3u, 4u}) {
    PcieParams p;
    p.generation = gen;
    p.lanes = 4;
    p.mps = 256;
    PcieTlpLink link(p);
    const double expect = spec_rate(gen == 3 ? 8 : 16, 4, 128.0 / 130) * 256 / (256 + 16 + 8);
    const double got = sequential_read_rate(link, 200);
    INFO("Gen" << gen << " x4: " << got / 1e6 << " MB/s, arithmetic " << expect / 1e6 << " MB/s");
    CHECK(got == Approx(expect).epsilon(0.02));
    CHECK(got == Approx(expect).epsilon(1e-6));  // the model is the arithmetic, to rounding
    CHECK(link.counters().tlps_up == 200u * 512);
    // The host acknowledges the writes downstream: (1/4 Ack + 1/4 UpdateFC) per TLP.
    CHECK(link.counters().dllps_down == 200u * 512 / 2);
    CHECK(link.down().bytes() == 200u * 512 / 2 * 8);
  }
}

TEST_CASE("pcie link: memory writes split at MPS-aligned boundaries") {
  PcieParams p;
  p.mps = 128;
  PcieTlpLink link(p);
  link.write_up(0, 0x1000 + 96, 64);  // 32 B up to the boundary, then 32 B: two TLPs
  CHECK(link.counters().tlps_up == 2);
  CHECK(link.up().bytes() == 64 + 2 * 24);
  link.write_up(0, 0x2000, 16);  // a completion entry: one TLP
  CHECK(link.counters().tlps_up == 3);
  CHECK(link.up().bytes() == 64 + 2 * 24 + 16 + 24);
}

TEST_CASE("pcie link: reads of host memory split by MRRS, completions by MPS, and take the round trip") {
  PcieParams p;
  p.generation = 3;
  p.lanes = 4;
  p.mps = 256;
  p.mrrs = 512;
  p.latency_ps = 500000;
  PcieTlpLink link(p);
  const double ps_per_byte = 1e12 / spec_rate(8, 4, 128.0 / 130);
  // A 64 B submission entry: one request up (24 B), one completion down (64 + 20 B), the host answers 100 ns later.
  const uint64_t t = link.read_host(0, 0x4000, 64, 100000);
  const double expect = 24 * ps_per_byte + 500000 + 100000 + 84 * ps_per_byte + 500000;
  CHECK(double(t) == Approx(expect).margin(2));
  // 128 KiB of write data: 256 requests of 512 B, 512 completions of 256 B; the downstream wire is the bound.
  PcieTlpLink big(p);
  const uint64_t end = big.read_host(0, 0x100000, 131072, 0);
  CHECK(big.counters().tlps_up == 256);
  CHECK(big.counters().tlps_down == 512);
  CHECK(big.down().bytes() >= 512u * (256 + 20));
  // The first request's round trip, then the completions back to back on the downstream wire (the host's
  // DLLPs for the requests fit in the idle wire before them).
  const double expect_end = 24 * ps_per_byte + 500000 + 512 * (256 + 20) * ps_per_byte + 500000;
  CHECK(double(end) == Approx(expect_end).epsilon(1e-6));
  CHECK(131072 / (double(end) * 1e-12) < spec_rate(8, 4, 128.0 / 130) * 256 / 276);
  // The endpoint acknowledges the completions upstream: 512 / 2 DLLPs.
  CHECK(big.counters().dllps_up == 256);
}

TEST_CASE("pcie link: a max payload or read request size that is not a power of two from 128 to 4096 is refused") {
  // The link splits transfers by mask and shift (PCIe encodes both sizes as 128 << n bytes).
  for (uint32_t bad : {0u, 64u, 192u, 300u, 8192u}) {
    PcieParams p;
    p.mps = bad;
    CHECK_THROWS_AS(PcieTlpLink(p), std::invalid_argument);
    p = PcieParams{};
    p.mrrs = bad;
    CHECK_THROWS_AS(PcieTlpLink(p), std::invalid_argument);
  }
  for (uint32_t good : {128u, 256u, 512u, 1024u, 2048u, 4096u}) {
    PcieParams p;
    p.mps = good, p.mrrs = good;
    CHECK_NOTHROW(PcieTlpLink(p));
  }
}

TEST_CASE("pcie link: TLPs of writes at every offset, against the count of MPS-aligned pieces") {
  for (uint32_t mps : {128u, 256u, 4096u}) {
    PcieParams p;
    p.mps = mps;
    PcieTlpLink link(p);
    uint64_t tlps = 0;
    for (uint64_t addr = 0x10000; addr < 0x10000 + 2 * mps; addr += 4) {
      for (uint64_t bytes : {uint64_t(4), uint64_t(16), uint64_t(mps) - 4, uint64_t(mps), uint64_t(mps) + 4, uint64_t(4096)}) {
        uint64_t pieces = 0;  // counted the slow way: each MPS-aligned block the transfer touches
        for (uint64_t b = addr / mps; b * mps < addr + bytes; ++b) ++pieces;
        link.write_up(0, addr, bytes);
        tlps += pieces;
        REQUIRE(link.counters().tlps_up == tlps);
      }
    }
  }
}
