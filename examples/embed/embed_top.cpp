// examples/embed: the SSD in a virtual platform. A host memory, a bus and the ssdtlm::Ssd; the project's NVMe
// driver model stands in for the CPU and its operating system: it brings the controller up through BAR0, runs
// Identify, creates I/O queue pairs, then writes N distinct random 4 KiB blocks, reads them all back, and reads N
// random 4 KiB blocks anywhere in the namespace, with a fixed number of commands in flight per queue. Prints what
// it did; exits 0 only when every command completed with success status and the drive's integrity checker found
// no read returning anything but the last version written (the model carries versions, not data values).
//
//   ssdtlm-embed-example [--ios N] [--queues Q] [--depth D] [--config FILE]... [--set key=value]...
//
// Address map (bus addresses, also what the SSD's DMA uses):
//   0x8000_0000  host memory (queues, PRP lists, data buffers), its size from the driver's needs
//   0xF000_0000  the SSD's BAR0, 128 KiB (registers, doorbells, MSI-X table at +0x10000)
//   0xFEE0_0000  the MSI window, 1 MiB (the driver programs each MSI-X vector's address here, data = vector)
#include <systemc>
#include <tlm>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <unordered_set>
#include <vector>

#include "host/host_memory.h"
#include "host/nvme_driver.h"
#include "simple_bus.h"
#include "ssdtlm/ssd.h"

namespace {

constexpr uint64_t kMemBase = 0x80000000, kBar0 = 0xF0000000, kMsiBytes = 0x100000;

struct Options {
  uint64_t ios = 4096;  // writes, then as many reads back and as many reads anywhere
  uint32_t queues = 4, depth = 32;
  ssdtlm::SsdConfig ssd;
};

// One phase's account: commands, failures, latencies (us) and the simulated span.
struct Phase {
  explicit Phase(const char* n) : name(n) {}
  const char* name;
  uint64_t done = 0, failed = 0;
  std::vector<double> lat_us;
  double start_us = 0, end_us = 0;
  void print() {
    std::sort(lat_us.begin(), lat_us.end());
    const auto pct = [&](double q) { return lat_us.empty() ? 0.0 : lat_us[size_t(q * double(lat_us.size() - 1))]; };
    double sum = 0;
    for (double l : lat_us) sum += l;
    const double span_s = (end_us - start_us) / 1e6;
    std::printf("%-9s %" PRIu64 " x 4 KiB completed, %" PRIu64 " failed, %.0f IOPS, %.1f MB/s, latency mean %.2f us, "
                "p50 %.2f us, p99 %.2f us, max %.2f us\n",
                name, done, failed, span_s > 0 ? double(done) / span_s : 0.0,
                span_s > 0 ? double(done) * 4096 / span_s / 1e6 : 0.0, lat_us.empty() ? 0.0 : sum / double(lat_us.size()),
                pct(0.5), pct(0.99), lat_us.empty() ? 0.0 : lat_us.back());
  }
};

double now_us() { return sc_core::sc_time_stamp().to_seconds() * 1e6; }

// The CPU: the driver model and the test program it runs.
struct Host : sc_core::sc_module {
  ssdtlm::NvmeDriver& drv;
  Options opt;
  std::vector<uint64_t> blocks;  // 4 KiB blocks written, then read back
  Phase write{"write"}, read_back{"read-back"}, read_any{"read"};
  bool ok = false;
  sc_core::sc_event completed;

  Host(sc_core::sc_module_name n, ssdtlm::NvmeDriver& d, const Options& o) : sc_module(n), drv(d), opt(o) {
    SC_HAS_PROCESS(Host);
    SC_THREAD(main);
  }

  void main() {
    std::string error;
    const double t0 = now_us();
    if (!drv.init(&error)) {
      std::printf("bring-up failed: %s\n", error.c_str());
      return sc_core::sc_stop();
    }
    std::printf("bring-up: controller ready, Identify done, %u I/O queue pairs created in %.1f us; namespace %" PRIu64
                " LBAs of %u B, largest transfer %u B\n",
                opt.queues, now_us() - t0, drv.ns_lbas(), drv.lba_bytes(), drv.max_transfer_bytes());
    const uint64_t per_block = 4096 / drv.lba_bytes(), n_blocks = drv.ns_lbas() / per_block;
    std::mt19937_64 rng(42);
    std::unordered_set<uint64_t> seen;  // distinct random blocks: each read has exactly one write to return
    while (blocks.size() < opt.ios && blocks.size() < n_blocks)
      if (const uint64_t b = rng() % n_blocks; seen.insert(b).second) blocks.push_back(b);
    run(write, ssdtlm::nvme::kWrite, blocks, per_block);
    std::vector<uint64_t> again = blocks;
    std::shuffle(again.begin(), again.end(), rng);
    run(read_back, ssdtlm::nvme::kRead, again, per_block);
    std::vector<uint64_t> any(opt.ios);  // anywhere in the namespace (what preconditioning wrote, or never written)
    for (uint64_t& b : any) b = rng() % n_blocks;
    run(read_any, ssdtlm::nvme::kRead, any, per_block);
    ok = drv.shutdown(&error);
    if (!ok) std::printf("shutdown failed: %s\n", error.c_str());
    sc_core::sc_stop();
  }

  // Each of `list` once, `opt.depth` commands in flight per queue, the queues taken in turn.
  void run(Phase& ph, uint8_t opcode, const std::vector<uint64_t>& list, uint64_t per_block) {
    ph.start_us = now_us();
    std::vector<uint32_t> in_flight(opt.queues, 0);
    size_t next = 0;
    uint16_t q = 0;
    while (ph.done < list.size()) {
      for (uint32_t tries = 0; next < list.size() && tries < opt.queues; ++tries, q = uint16_t((q + 1) % opt.queues)) {
        while (next < list.size() && in_flight[q] < opt.depth) {
          ssdtlm::NvmeDriver::Io io;
          io.opcode = opcode;
          io.slba = list[next] * per_block;
          io.nlb = uint32_t(per_block);
          io.queue = q;
          const double issued = now_us();
          const uint16_t queue = q;
          if (!drv.submit(io, [this, &ph, &in_flight, issued, queue](const ssdtlm::Completion& c) {
                ++ph.done;
                if (c.status) ++ph.failed;
                ph.lat_us.push_back(double(c.done_ps) / 1e6 - issued);
                ph.end_us = std::max(ph.end_us, double(c.done_ps) / 1e6);
                --in_flight[queue];
                completed.notify(sc_core::sc_time(double(c.done_ps), sc_core::SC_PS) - sc_core::sc_time_stamp());
              }))
            break;  // the queue is full
          ++in_flight[q], ++next;
        }
      }
      sc_core::wait(completed);
    }
    ph.print();
  }
};

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) return false;
    const char* v = argv[++i];
    if (a == "--ios") o.ios = std::strtoull(v, nullptr, 10);
    else if (a == "--queues") o.queues = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--depth") o.depth = uint32_t(std::strtoul(v, nullptr, 10));
    else if (a == "--config") o.ssd.files.push_back(v);
    else if (a == "--set") o.ssd.overrides.push_back(v);
    else return false;
  }
  return o.ios > 0 && o.queues > 0 && o.queues <= 64 && o.depth > 0 && o.depth < 4096;
}

}  // namespace

int sc_main(int argc, char** argv) {
  Options opt;
  if (!parse(argc, argv, opt)) {
    std::fprintf(stderr, "usage: %s [--ios N] [--queues 1..64] [--depth 1..4095] [--config FILE]... [--set key=value]...\n",
                 argv[0]);
    return 2;
  }
  opt.ssd.bar0_base = kBar0;
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);  // "stopped by user"

  // The SSD: a bad configuration is refused here, before anything is simulated.
  std::unique_ptr<ssdtlm::Ssd> ssd;
  try {
    ssd = std::make_unique<ssdtlm::Ssd>("ssd", opt.ssd);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ssdtlm-embed-example: %s\n", e.what());
    return 2;
  }

  // Host memory and the driver (the CPU), the bus between them and the SSD.
  ssdtlm::DriverParams dp;
  dp.io_queues = opt.queues;
  dp.queue_entries = opt.depth + 1;  // a queue of N entries holds N - 1 commands
  dp.bar_base = kBar0;
  ssdtlm::HostMemory mem("memory", kMemBase, ssdtlm::NvmeDriver::memory_bytes(dp, 1u << 20));
  ssdtlm::NvmeDriver driver("driver", mem, dp);
  SimpleBus<2, 2> bus("bus");
  bus.map(kMemBase, mem.bytes(), 0);
  bus.map(ssdtlm::HostMemory::kMsiBase, kMsiBytes, 0);  // the MSI window: host memory raises the driver's interrupt
  bus.map(kBar0, ssdtlm::Ssd::kBar0Bytes, 1);
  driver.bar.bind(bus.tsocks[0]);  // CPU MMIO
  ssd->dma.bind(bus.tsocks[1]);    // the SSD as bus master
  bus.isocks[0].bind(mem.tsock);
  bus.isocks[1].bind(ssd->bar);
  Host host("host", driver, opt);

  sc_core::sc_start();
  const ssdtlm::SsdStatus s = ssd->finish();
  std::printf("ssd:  %" PRIu64 " commands (%" PRIu64 " admin), %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64
              " completions with error status, %" PRIu64 " doorbell errors; %" PRIu64 " MSI-X interrupts (%.3f per I/O); "
              "WAF %.3f; PCIe link busy up %.3f down %.3f\n",
              s.commands, s.admin_commands, s.reads, s.writes, s.errors, s.doorbell_errors, s.interrupts,
              double(s.interrupts) / double(std::max<uint64_t>(1, s.reads + s.writes)), s.waf, s.link_up_busy,
              s.link_down_busy);
  if (s.integrity_enabled)
    std::printf("integrity: %" PRIu64 " reads checked, %" PRIu64 " errors%s%s\n", s.integrity_checked_reads,
                s.integrity_errors, s.integrity_errors ? ": " : "", s.integrity_first_error.c_str());
  else
    std::printf("integrity: not checked (check.integrity=false)\n");
  const bool pass = host.ok && host.write.done == host.blocks.size() && host.read_back.done == host.blocks.size() &&
                    host.read_any.done == opt.ios && !host.write.failed && !host.read_back.failed &&
                    !host.read_any.failed && !s.integrity_errors;
  std::printf("result: %s (simulated %.3f ms)\n", pass ? "PASS" : "FAIL", sc_core::sc_time_stamp().to_seconds() * 1e3);
  return pass ? 0 : 1;
}
