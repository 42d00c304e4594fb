#include "host/nvme_driver.h"

#include <algorithm>
#include <cstring>
#include <optional>

#include "common/sim_time.h"

namespace ssdtlm {

using namespace nvme;

NvmeDriver::NvmeDriver(sc_core::sc_module_name name, HostMemory& mem, const DriverParams& p)
    : sc_module(name), bar("bar"), mem_(mem), p_(p), next_(mem.base()), q_(p.io_queues + 1) {
  mem_.on_msi([this](uint32_t v, uint64_t delay_ps) { on_msi(v, delay_ps); });
  SC_HAS_PROCESS(NvmeDriver);
  SC_METHOD(reap_due);
  sensitive << reap_ev_;
  dont_initialize();
  SC_METHOD(poll);
  sensitive << poll_ev_;
  dont_initialize();
}

uint64_t NvmeDriver::memory_bytes(const DriverParams& p, uint64_t max_transfer) {
  const uint64_t pages = 4096 * 4;  // admin SQ/CQ/ranges, Identify data, slack for alignment
  const uint64_t admin = uint64_t(p.admin_entries) * (64 + 16 + 16);
  const uint64_t io = uint64_t(p.io_queues) * (uint64_t(p.queue_entries) * (64 + 16 + 16) + 3 * 4096);
  return pages + admin + io + max_transfer + max_transfer / 4096 * 8 + (16u << 20);  // up to a 16 MiB MDTS
}

uint64_t NvmeDriver::alloc(uint64_t bytes, uint64_t align) {
  const uint64_t a = (next_ + align - 1) / align * align;
  if (a + bytes > mem_.base() + mem_.bytes()) throw std::runtime_error("NvmeDriver: host memory too small");
  next_ = a + bytes;
  std::memset(mem_.at(a), 0, bytes);
  return a;
}

void NvmeDriver::mmio(bool write, uint32_t off, void* data, uint32_t bytes, uint64_t delay_ps) {
  // One payload for every access (constructing one allocates its extension array); an access made while another
  // is under way (LT: a doorbell rung from the interrupt a completion write raised) takes its own.
  std::optional<tlm::tlm_generic_payload> nested;
  tlm::tlm_generic_payload& gp = mmio_busy_ ? nested.emplace() : mmio_gp_;
  gp.set_dmi_allowed(false);
  gp.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  gp.set_address(p_.bar_base + off);
  gp.set_data_ptr(static_cast<unsigned char*>(data));
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = ps_time(delay_ps);
  const bool outer = !mmio_busy_;
  mmio_busy_ = true;
  bar->b_transport(gp, d);
  if (outer) mmio_busy_ = false;
  if (!write) sc_core::wait(d);  // a read waits for its completion (from a thread)
}

uint32_t NvmeDriver::read32(uint32_t off) {
  uint32_t v = 0;
  mmio(false, off, &v, 4, 0);
  return v;
}
uint64_t NvmeDriver::read64(uint32_t off) {
  uint64_t v = 0;
  mmio(false, off, &v, 8, 0);
  return v;
}
void NvmeDriver::write32(uint32_t off, uint32_t v) { mmio(true, off, &v, 4, 0); }

bool NvmeDriver::wait_ready(bool ready, std::string* error) {
  const uint64_t give_up = now_ps() + timeout_ps_;
  for (;;) {
    const uint32_t csts = read32(kCsts);
    if (csts & kCstsCfs) {
      if (error) *error = "controller fatal status (CSTS.CFS) while waiting for CSTS.RDY";
      return false;
    }
    if (bool(csts & kCstsRdy) == ready) return true;
    if (now_ps() >= give_up) {
      if (error) *error = std::string("timeout (CAP.TO) waiting for CSTS.RDY = ") + (ready ? "1" : "0");
      return false;
    }
    sc_core::wait(ps_time(10000000));  // 10 us between polls
  }
}

namespace {
Sqe admin_cmd(uint8_t opcode, uint32_t nsid, uint32_t cdw10, uint32_t cdw11 = 0) {
  Sqe e;
  e.dw[0] = opcode;
  e.dw[1] = nsid;
  e.dw[10] = cdw10;
  e.dw[11] = cdw11;
  return e;
}
bool failed(const Completion& c, const char* what, std::string* error) {
  if (!c.status) return false;
  if (error) *error = std::string(what) + " failed with status 0x" + [&] {
    char b[8];
    std::snprintf(b, sizeof b, "%03x", c.status);
    return std::string(b);
  }();
  return true;
}
}  // namespace

void NvmeDriver::make_queue(Queue& q, uint32_t entries) {
  q.entries = entries;
  q.sq = alloc(uint64_t(entries) * sizeof(Sqe));
  q.cq = alloc(uint64_t(entries) * sizeof(Cqe));
  q.ranges = alloc(uint64_t(entries) * 16);  // Dataset Management ranges, one per command slot
  q.done.assign(entries, nullptr);
  for (uint32_t i = entries - 1; i-- > 0;) q.free_cids.push_back(uint16_t(i));
}

bool NvmeDriver::init(std::string* error) {
  const uint64_t cap = read64(kCap);
  stride_ = 4u << ((cap >> 32) & 0xF);
  timeout_ps_ = ((cap >> 24) & 0xFF) * 500000000000ull;
  const uint32_t mqes = uint32_t(cap & 0xFFFF) + 1;
  if (read32(kCc) & kCcEn) {
    write32(kCc, 0);
    if (!wait_ready(false, error)) return false;
  }
  Queue& a = q_[0];
  make_queue(a, p_.admin_entries);
  write32(kAqa, (a.entries - 1) | (a.entries - 1) << 16);
  write32(kAsq, uint32_t(a.sq)), write32(kAsq + 4, uint32_t(a.sq >> 32));
  write32(kAcq, uint32_t(a.cq)), write32(kAcq + 4, uint32_t(a.cq >> 32));
  for (uint32_t v = 0; v <= p_.io_queues; ++v) {  // MSI-X table: message address, data = vector, unmasked
    const uint32_t e = kMsixTable + v * 16;
    write32(e, uint32_t(HostMemory::kMsiBase)), write32(e + 4, 0), write32(e + 8, v), write32(e + 12, 0);
  }
  // As Linux's nvme_enable_ctrl: all I/O command sets (CC.CSS 110b) when the controller has them. Like Linux, the
  // driver then sets no I/O Command Set Profile (drivers/nvme/host issues no Set Features 19h): the controller runs
  // its combination 0 (Identify CNS 1Ch), which a zoned endpoint's is, NVM and ZNS.
  multi_css_ = cap & kCapCssIoSets;
  write32(kCc, kCcEn | 6u << 16 | 4u << 20 | (p_.wrr ? 1u : 0u) << 11 | (multi_css_ ? kCcCssAll : 0u) << 4);
  if (!wait_ready(true, error)) return false;
  vs_ = read32(kVs);  // as nvme_init_ctrl_finish: what the driver asks of the controller depends on its version
  // Identify: the controller's MDTS, the namespace's size and LBA format.
  const uint64_t id = alloc(4096);
  Sqe e = admin_cmd(kIdentify, 0, kCnsController);
  e.set_prp(id, 0);
  if (failed(admin(e), "Identify controller", error)) return false;
  const uint8_t mdts = *mem_.at(id + 77);
  effects_log_ = *mem_.at(id + 261) & 2;  // LPA bit 1: the Commands Supported and Effects log (nvme_init_effects)
  max_bytes_ = mdts ? 4096u << std::min<uint8_t>(mdts, 12) : (16u << 20);  // MDTS 0: no limit; 16 MiB here
  if (p_.apst && !configure_apst(id, error)) return false;
  e = admin_cmd(kIdentify, 1, kCnsNamespace);
  e.set_prp(id, 0);
  if (failed(admin(e), "Identify namespace", error)) return false;
  std::memcpy(&ns_lbas_, mem_.at(id), 8);
  const uint32_t flbas = *mem_.at(id + 26) & 0xF;
  lba_bytes_ = 1u << *mem_.at(id + 128 + 4 * flbas + 2);
  if (!identify_zones(id, flbas, error)) return false;
  data_ = alloc(max_bytes_);
  list_ = alloc(std::max<uint64_t>(8, max_bytes_ / 4096 * 8));
  for (uint64_t i = 1; i < max_bytes_ / 4096; ++i) {
    const uint64_t a = data_ + i * 4096;
    std::memcpy(mem_.at(list_ + (i - 1) * 8), &a, 8);
  }
  const uint32_t n = p_.io_queues - 1;
  Completion c = admin(admin_cmd(kSetFeatures, 0, kFeatNumQueues, n | n << 16));
  if (failed(c, "Set Features Number of Queues", error)) return false;
  if (std::min(c.result & 0xFFFF, c.result >> 16) < n) {
    if (error) *error = "the controller grants fewer I/O queues than asked";
    return false;
  }
  if (p_.coalesce_threshold &&
      failed(admin(admin_cmd(kSetFeatures, 0, kFeatIntCoalescing,
                             (p_.coalesce_threshold - 1) | p_.coalesce_time_100us << 8)),
             "Set Features Interrupt Coalescing", error))
    return false;
  if ((p_.wrr || p_.arbitration_burst) &&
      failed(admin(admin_cmd(kSetFeatures, 0, kFeatArbitration,
                             uint32_t(p_.hpw) << 24 | uint32_t(p_.mpw) << 16 | uint32_t(p_.lpw) << 8 |
                                 (p_.arbitration_burst & 7u))),
                       "Set Features Arbitration", error))
    return false;
  const uint32_t entries = std::min(p_.queue_entries, mqes);
  for (uint16_t qi = 1; qi <= p_.io_queues; ++qi) {
    Queue& q = q_[qi];
    make_queue(q, entries);
    Sqe cq = admin_cmd(kCreateCq, 0, qi | (entries - 1) << 16, 1u | (p_.polling ? 0u : 2u) | uint32_t(qi) << 16);
    cq.set_prp(q.cq, 0);
    if (failed(admin(cq), "Create I/O Completion Queue", error)) return false;
    const uint32_t prio = qi - 1u < p_.queue_prio.size() ? p_.queue_prio[qi - 1] : 2u;
    Sqe sq = admin_cmd(kCreateSq, 0, qi | (entries - 1) << 16, 1u | (prio & 3) << 1 | uint32_t(qi) << 16);
    sq.set_prp(q.sq, 0);
    if (failed(admin(sq), "Create I/O Submission Queue", error)) return false;
  }
  if (p_.polling) poll_ev_.notify(ps_time(p_.poll_ps));
  return true;
}

bool NvmeDriver::configure_apst(uint64_t id, std::string* error) {
  const uint32_t npss = *mem_.at(id + 263);
  if (!(*mem_.at(id + 265) & 1) || npss > 31) return true;  // APST not supported: nothing to configure
  // Table entry n: bits 7:3 the state to enter (ITPS), 31:8 the idle time in state n before it (ITPT, ms).
  uint64_t table[32] = {};
  uint64_t target = 0;
  for (int ps = int(npss); ps >= 0; --ps) {  // deepest first, as nvme_configure_apst walks them
    if (target) table[ps] = target;
    const uint8_t* d = mem_.at(id + 2048 + 32 * uint64_t(ps));
    uint32_t enlat = 0, exlat = 0;
    std::memcpy(&enlat, d + 4, 4), std::memcpy(&exlat, d + 8, 4);
    if (!(d[3] & 2) || ps == 0) continue;  // an operational state: not a target
    uint64_t itpt = 0;
    if (p_.apst_itpt_ms.empty()) {
      if (exlat > 100000) continue;  // beyond Linux's default ps_max_latency_us
      itpt = std::min<uint64_t>((uint64_t(enlat) + exlat + 19) / 20, (1u << 24) - 1);
    } else {
      if (size_t(ps - 1) >= p_.apst_itpt_ms.size()) continue;
      itpt = p_.apst_itpt_ms[ps - 1];
    }
    target = uint64_t(ps) << 3 | itpt << 8;
  }
  std::memcpy(mem_.at(id), table, sizeof table);
  Sqe e = admin_cmd(kSetFeatures, 0, kFeatApst, 1);
  e.set_prp(id, 0);
  return !failed(admin(e), "Set Features Autonomous Power State Transition", error);
}

Completion NvmeDriver::identify(uint64_t id, uint32_t cns, uint32_t nsid, uint32_t csi) {
  Sqe e = admin_cmd(kIdentify, nsid, cns, csi << 24);
  e.set_prp(id, 0);
  return admin(e);
}

bool NvmeDriver::identify_zones(uint64_t id, uint32_t flbas, std::string* error) {
  // The namespace's Command Set Identifier: Linux's nvme_identify_ns_descs walks the descriptor list (NIDT 04h, NIDL
  // 1); with CC.CSS 110b a namespace that reports none is refused ("Command set not reported"). A controller before
  // NVMe 1.3 has no descriptor list: not asked, the namespace is the NVM command set's (nvme_identify_ns_descs).
  if (vs_ < kVersion13) return true;
  if (failed(identify(id, kCnsNsDescList, 1, 0), "Identify Namespace Identification Descriptor list", error))
    return false;
  int csi = -1;
  for (uint32_t at = 0; at + 4 <= 4096;) {
    const uint8_t nidt = *mem_.at(id + at), nidl = *mem_.at(id + at + 1);
    if (!nidl) break;
    if (nidt == kNidtCsi && nidl == 1) csi = *mem_.at(id + at + 4);
    at += 4 + nidl;
  }
  if (multi_css_ && csi < 0) {
    if (error) *error = "Command set not reported for namespace 1 (Identify CNS 03h has no CSI descriptor)";
    return false;
  }
  if (csi != kCsiZns) return true;
  // Zone Append must be a supported command (Commands Supported and Effects, IOCS 7Dh CSUPP): Linux forces the
  // namespace read-only without it; this driver, which writes, refuses it. A controller without the log (LPA bit 1
  // clear) is not asked for it, as nvme_init_effects: no CSUPP known, the same refusal.
  if (!effects_log_) {
    if (error) *error = "the zoned namespace does not support Zone Append (Linux forces it read-only)";
    return false;
  }
  Sqe log = admin_cmd(kGetLogPage, 1, kLogEffects | (4096u / 4 - 1) << 16);
  log.dw[14] = uint32_t(kCsiZns) << 24;
  log.set_prp(id, 0);
  if (failed(admin(log), "Get Log Page Commands Supported and Effects (ZNS)", error)) return false;
  if (!(*mem_.at(id + 1024 + 4 * kZoneAppend) & 1)) {
    if (error) *error = "the zoned namespace does not support Zone Append (Linux forces it read-only)";
    return false;
  }
  // ZASL (nvme_set_max_append): 2^ZASL x 4 KiB (the minimum memory page size), 0: the transfer limit (MDTS).
  if (failed(identify(id, kCnsIoController, 0, kCsiZns), "Identify I/O Command Set specific Controller (ZNS)", error))
    return false;
  const uint8_t zasl = *mem_.at(id);
  max_append_bytes_ = zasl ? std::min<uint32_t>(4096u << std::min<uint8_t>(zasl, 12), max_bytes_) : max_bytes_;
  // nvme_update_zone_info: zone operation characteristics the driver does not handle (ZOC != 0) and a zone size that
  // is not a power of two are refused; MOR + 1 and MAR + 1 the open and active limits (FFFFFFFFh + 1 = 0: none).
  if (failed(identify(id, kCnsIoNamespace, 1, kCsiZns), "Identify I/O Command Set specific Namespace (ZNS)", error))
    return false;
  uint16_t zoc = 0;
  uint32_t mar = 0, mor = 0;
  uint64_t zsze = 0;
  std::memcpy(&zoc, mem_.at(id), 2), std::memcpy(&mar, mem_.at(id + 4), 4), std::memcpy(&mor, mem_.at(id + 8), 4);
  std::memcpy(&zsze, mem_.at(id + 2816 + 16 * flbas), 8);
  if (zoc) {
    if (error) *error = "zone operation characteristics (ZOC " + std::to_string(zoc) + ") not supported";
    return false;
  }
  if (!zsze || (zsze & (zsze - 1))) {
    if (error) *error = "invalid zone size: " + std::to_string(zsze) + " logical blocks (not a power of two)";
    return false;
  }
  zone_lbas_ = zsze;
  zone_ext_bytes_ = uint32_t(*mem_.at(id + 2816 + 16 * flbas + 8)) * 64;
  max_open_ = mor + 1, max_active_ = mar + 1;
  return true;
}

bool NvmeDriver::shutdown(std::string* error) {
  write32(kCc, read32(kCc) | kShnNormal << 14);
  const uint64_t give_up = now_ps() + timeout_ps_;
  while (((read32(kCsts) >> 2) & 3) != kShstComplete) {
    if (now_ps() >= give_up) {
      if (error) *error = "timeout waiting for CSTS.SHST = shutdown complete";
      return false;
    }
    sc_core::wait(ps_time(10000000));
  }
  write32(kCc, 0);
  return wait_ready(false, error);
}

Completion NvmeDriver::admin(Sqe e) {
  bool got = false;
  Completion out;
  post(0, e, [&](const Completion& c) {
    out = c;
    got = true;
    admin_ev_.notify(sc_core::SC_ZERO_TIME);
  }, now_ps());
  while (!got) sc_core::wait(admin_ev_);
  if (out.done_ps > now_ps()) sc_core::wait(ps_time(out.done_ps - now_ps()));
  return out;
}

void NvmeDriver::set_prps(Sqe& e, uint64_t bytes) {
  // Every command's data lies in the shared buffer from its start: PRP1 its first page, PRP2 the second
  // or the buffer's PRP list (written once, at init).
  const uint64_t pages = (bytes + 4095) / 4096;
  if (pages <= 1) return e.set_prp(data_, 0);
  if (pages == 2) return e.set_prp(data_, data_ + 4096);
  e.set_prp(data_, list_);
}

bool NvmeDriver::post(uint16_t qi, Sqe e, std::function<void(const Completion&)> done, uint64_t at_ps) {
  Queue& q = q_[qi];
  if (q.free_cids.empty()) return false;
  const uint16_t cid = q.free_cids.back();
  q.free_cids.pop_back();
  e.dw[0] = (e.dw[0] & 0xFFFF) | uint32_t(cid) << 16;
  q.done[cid] = std::move(done);
  ++q.used;
  std::memcpy(mem_.at(q.sq + uint64_t(q.tail) * sizeof(Sqe)), &e, sizeof(Sqe));
  q.tail = q.tail + 1 == q.entries ? 0 : q.tail + 1;
  uint32_t v = q.tail;
  mmio(true, doorbell(qi, false), &v, 4, at_ps - now_ps() + (qi ? p_.submit_cpu_ps : 0));
  return true;
}

bool NvmeDriver::submit_raw(uint16_t queue, Sqe e, std::function<void(const Completion&)> done) {
  return post(uint16_t(queue + 1), e, std::move(done), now_ps());
}

bool NvmeDriver::submit(const Io& io, std::function<void(const Completion&)> done) {
  return submit(io, std::move(done), now_ps());
}

bool NvmeDriver::submit(const Io& io, std::function<void(const Completion&)> done, uint64_t at_ps) {
  const uint16_t qi = uint16_t(io.queue + 1);
  Queue& q = q_[qi];
  if (q.free_cids.empty()) return false;
  Sqe e;
  e.dw[0] = io.opcode;
  e.dw[1] = 1;
  e.dw[10] = uint32_t(io.slba), e.dw[11] = uint32_t(io.slba >> 32);
  e.dw[12] = (io.nlb - 1) | (io.fua ? 1u << 30 : 0u) | uint32_t(io.dtype & 0xF) << 20;
  e.dw[13] = uint32_t(io.dspec) << 16 | io.zsa;
  e.dw[2] = io.hint_pc, e.dw[3] = io.hint_proc, e.dw[14] = io.hint_slot_run, e.dw[15] = io.hint_next;
  const uint16_t cid = q.free_cids.back();  // the one post() takes: its PRP list slot
  if (io.opcode == kDsm) {
    const uint64_t range = q.ranges + uint64_t(cid) * 16;
    const uint32_t r[4] = {0, io.nlb, uint32_t(io.slba), uint32_t(io.slba >> 32)};
    std::memcpy(mem_.at(range), r, 16);
    e.dw[10] = 0, e.dw[11] = 1u << 2, e.dw[12] = 0, e.dw[13] = 0;  // one range, deallocate
    e.set_prp(range, 0);
  } else if (io.opcode == kRead || io.opcode == kWrite || io.opcode == kZoneAppend) {
    set_prps(e, uint64_t(io.nlb) * lba_bytes_);
  }
  return post(qi, e, std::move(done), at_ps);
}

void NvmeDriver::on_msi(uint32_t vector, uint64_t delay_ps) {
  ++interrupts_;
  if (vector >= q_.size()) return;
  const uint64_t at = now_ps() + delay_ps + p_.interrupt_cpu_ps;
  if (p_.loosely_timed || at == now_ps()) return reap(uint16_t(vector), at);  // in the sender's context
  due_queues_.push_back(uint16_t(vector));
  due_at_.push_back(at);
  reap_ev_.notify(ps_time(delay_ps + p_.interrupt_cpu_ps));
}

void NvmeDriver::reap_due() {
  ++kernel_activations();
  const uint64_t now = now_ps();
  size_t keep = 0;
  for (size_t i = 0; i < due_queues_.size(); ++i) {
    if (due_at_[i] <= now) {
      reap(due_queues_[i], now);
    } else {
      due_queues_[keep] = due_queues_[i], due_at_[keep] = due_at_[i];
      ++keep;
    }
  }
  due_queues_.resize(keep), due_at_.resize(keep);
  for (uint64_t t : due_at_) reap_ev_.notify(ps_time(t - now));  // the earliest notification wins
}

void NvmeDriver::poll() {
  ++kernel_activations();
  for (uint16_t qi = 0; qi < q_.size(); ++qi) reap(qi, now_ps());
  poll_ev_.notify(ps_time(p_.poll_ps));
}

void NvmeDriver::reap(uint16_t qi, uint64_t t) {
  Queue& q = q_[qi];
  if (!q.entries) return;
  bool any = false;
  for (;;) {
    Cqe e;
    std::memcpy(&e, mem_.at(q.cq + uint64_t(q.head) * sizeof(Cqe)), sizeof(Cqe));
    if (e.phase() != q.phase) break;
    any = true;
    if (++q.head == q.entries) q.head = 0, q.phase = !q.phase;
    t += p_.completion_cpu_ps;
    const uint16_t cid = e.cid();
    auto done = std::move(q.done[cid]);
    q.done[cid] = nullptr;
    q.free_cids.push_back(cid);
    --q.used;
    if (done) done(Completion{e.code(), e.dw[0], e.dw[1], t});
  }
  if (!any) return;
  uint32_t v = q.head;
  mmio(true, doorbell(qi, true), &v, 4, t - now_ps());
}

}  // namespace ssdtlm
