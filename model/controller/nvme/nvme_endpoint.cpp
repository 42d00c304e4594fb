#include "controller/nvme/nvme_endpoint.h"

#include <algorithm>
#include <optional>

#include "common/sim_time.h"
#include "controller/nvme/endpoint_command.h"
#include "power/apst.h"

namespace ssdtlm {

using namespace nvme;

namespace {
// Ring arithmetic of a queue of `size` entries, positions below `size`: (a - b) mod size and the next position,
// without a division.
inline uint32_t ring_sub(uint32_t a, uint32_t b, uint32_t size) { return a >= b ? a - b : a + size - b; }
inline uint32_t ring_next(uint32_t a, uint32_t size) { return a + 1 == size ? 0 : a + 1; }
}  // namespace

NvmeEndpoint::NvmeEndpoint(sc_core::sc_module_name name, const EndpointParams& p)
    : sc_module(name),
      bar("bar"),
      dma("dma"),
      dram("dram_isock"),
      p_(p),
      link_(p.pcie),
      msix_(size_t(p.msix_vectors) * 4, 0),
      sq_(p.io_queues + 1),
      cq_(p.io_queues + 1),
      arb_(p.io_queues + 1),
      coalesce_(p.msix_vectors),
      coalesce_off_(p.msix_vectors, false),
      granted_queues_(p.io_queues) {
  bar.bind(*this);
  dma.register_invalidate_direct_mem_ptr(this, &NvmeEndpoint::invalidate_dmi);
  for (uint32_t v = 0; v < p.msix_vectors; ++v) msix_[v * 4 + 3] = 1;  // vectors start masked
  SC_HAS_PROCESS(NvmeEndpoint);
  SC_METHOD(on_due);
  sensitive << due_ev_;
  dont_initialize();
}

NvmeEndpoint::~NvmeEndpoint() {
  for (Command* c : free_) delete c;
}

// ---- registers ---------------------------------------------------------------------------------------------

uint64_t NvmeEndpoint::reg_read(uint32_t off, uint32_t bytes) const {
  if (off >= kMsixTable && off < kMsixTable + msix_.size() * 4) return msix_[(off - kMsixTable) / 4];
  uint64_t v = 0;
  switch (off & ~7u) {
    case kCap: {
      // MQES, CQR (contiguous queues required), AMS bit 17 (weighted round robin with urgent), TO in 500 ms
      // units, DSTRD 0, CSS bit 37 (NVM command set), MPSMIN = MPSMAX = 0 (4 KiB pages). A zoned namespace: CSS bit
      // 43 too (bit 6 of CSS, I/O Command Sets: CC.CSS 110b, NVMe Base 2.0 §3.1.4.1), as the ZNS command set needs.
      const uint64_t to = std::max<uint64_t>(1, (std::max(p_.ready_ps, p_.shutdown_ps) + 499999999999ull) / 500000000000ull);
      v = uint64_t(p_.mqes) | 1ull << 16 | 1ull << 17 | std::min<uint64_t>(to, 255) << 24 | 1ull << 37 |
          (p_.zoned ? kCapCssIoSets : 0);
      break;
    }
    case kVs: v = version() | uint64_t(intms_) << 32; break;  // VS at 08h, INTMS at 0Ch
    case kIntmc: v = intms_ | uint64_t(cc_) << 32; break;     // INTMC at 10h, CC at 14h
    case 0x18: v = uint64_t(csts_) << 32; break;               // CSTS at 1Ch
    case 0x20: v = uint64_t(aqa_) << 32; break;                // AQA at 24h
    case kAsq: v = asq_; break;
    case kAcq: v = acq_; break;
    default: return 0;
  }
  if (off & 4) v >>= 32;
  return bytes == 4 ? uint32_t(v) : v;
}

void NvmeEndpoint::b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
  const uint32_t off = uint32_t(gp.get_address());
  const uint32_t len = gp.get_data_length();
  if ((len != 4 && len != 8) || off % len || off >= kBarBytes) {
    gp.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  const uint64_t t = now_ps() + delay.value();
  if (gp.is_read()) {
    const uint64_t v = reg_read(off, len);
    std::memcpy(gp.get_data_ptr(), &v, len);
    // A register read is a non-posted request: down, the endpoint answers, the completion comes up.
    const uint64_t back = link_.complete_up(link_.write_down(t, 0), len);
    delay = ps_time(back - now_ps());
  } else {
    uint64_t v = 0;
    std::memcpy(&v, gp.get_data_ptr(), len);
    reg_write(off, v, link_.write_down(t, len));  // posted: the host goes on at once
  }
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
}

tlm::tlm_sync_enum NvmeEndpoint::nb_transport_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& phase,
                                                 sc_core::sc_time& delay) {
  if (phase != tlm::BEGIN_REQ) return tlm::TLM_ACCEPTED;
  b_transport(gp, delay);
  phase = tlm::BEGIN_RESP;
  return tlm::TLM_COMPLETED;
}

void NvmeEndpoint::reg_write(uint32_t off, uint64_t v, uint64_t t) {
  if (off >= kDoorbells && off < kMsixTable) return doorbell((off - kDoorbells) / 4, uint32_t(v), t);
  if (off >= kMsixTable && off < kMsixTable + msix_.size() * 4) {
    msix_[(off - kMsixTable) / 4] = uint32_t(v);
    return;
  }
  switch (off) {
    case kIntms: intms_ |= uint32_t(v); break;
    case kIntmc: intms_ &= ~uint32_t(v); break;
    case kCc: write_cc(uint32_t(v), t); break;
    case kAqa: aqa_ = uint32_t(v) & 0x0FFF0FFF; break;
    case kAsq: asq_ = v; break;
    case kAsq + 4: asq_ = (asq_ & 0xFFFFFFFFull) | v << 32; break;
    case kAcq: acq_ = v; break;
    case kAcq + 4: acq_ = (acq_ & 0xFFFFFFFFull) | v << 32; break;
    default: break;  // read-only or reserved
  }
}

void NvmeEndpoint::write_cc(uint32_t v, uint64_t t) {
  const uint32_t old = cc_;
  cc_ = v;
  const uint32_t shn = (v >> 14) & 3;
  if (shn != kShnNone && ((old >> 14) & 3) == kShnNone) {
    csts_ = (csts_ & ~0xCu) | kShstOccurring << 2;  // shutdown processing; done once nothing is in flight
    schedule(t + p_.shutdown_ps, Due::Ready, 2);
  }
  if ((v & kCcEn) && !(old & kCcEn)) {
    if (!enable(t)) csts_ |= kCstsCfs;  // as QEMU's nvme_start_ctrl failure: Controller Fatal Status
  } else if (!(v & kCcEn) && (old & kCcEn)) {
    reset_queues();
    csts_ &= ~kCstsCfs;
    schedule(t + p_.ready_ps, Due::Ready, 0);
  }
}

bool NvmeEndpoint::enable(uint64_t t) {
  // CC.EN 0 -> 1 (NVMe 1.4 §7.6.1): the admin queue from AQA/ASQ/ACQ, the page size from CC.MPS, the
  // arbitration mechanism from CC.AMS; an inconsistent setting leaves the controller failed.
  const uint32_t asqs = (aqa_ & 0xFFF) + 1, acqs = ((aqa_ >> 16) & 0xFFF) + 1;
  const uint32_t mps = (cc_ >> 7) & 0xF, ams = (cc_ >> 11) & 7, css = (cc_ >> 4) & 7;
  const bool css_ok = css == 0 || (css == kCcCssAll && p_.zoned);  // NVM only, or all I/O command sets (CAP.CSS)
  if (asqs < 2 || acqs < 2 || asq_ % 4096 || acq_ % 4096 || !asq_ || !acq_ || mps != 0 || ams > 1 || !css_ok)
    return false;
  page_ = 4096u << mps;
  arb_.set_wrr(ams == 1);
  sq_[0] = Sq{true, asq_, asqs, 0, 0, 0};
  cq_[0] = Cq{};
  cq_[0].live = true, cq_[0].base = acq_, cq_[0].size = acqs, cq_[0].ien = true, cq_[0].sqs = 1;
  schedule(t + p_.ready_ps, Due::Ready, 1);
  return true;
}

void NvmeEndpoint::reset_queues() {
  for (Sq& s : sq_) s = Sq{};
  for (Cq& c : cq_) c = Cq{};
  for (uint32_t q = 0; q < sq_.size(); ++q) arb_.set_ready(q, 0);
  aer_cids_.clear();
  pending_aen_.clear();
  aec_ = 0, zdc_masked_ = false;  // Asynchronous Event Configuration back to its default
  granted_queues_ = p_.io_queues;
  active_ = 0;
  arbitration_ = 0;  // the Arbitration feature's reset value: AB 0, every weight 0 (one command)
  arb_.set_weights(0, 0, 0);
  arb_.set_burst(0);
  apste_ = false, apst_table_ = {};  // APST's reset value: disabled
  if (apst_ && apst_->host_state()) apst_->wake(now_ps());  // a reset leaves a state the host chose: PS0
  if (apst_) apst_->set_idle_times({});
}

// ---- doorbells and fetch -----------------------------------------------------------------------------------

void NvmeEndpoint::doorbell(uint32_t index, uint32_t v, uint64_t t) {
  const uint32_t q = index / 2;
  const bool is_cq = index & 1;
  if (!(csts_ & kCstsRdy) || q >= sq_.size() || (is_cq ? !cq_[q].live : !sq_[q].live))
    return doorbell_error(0);  // Write to Invalid Doorbell Register
  if (!is_cq) {
    Sq& s = sq_[q];
    if (v >= s.size || ring_sub(s.tail, s.head, s.size) + ring_sub(v, s.tail, s.size) >= s.size)
      return doorbell_error(1);  // Invalid Doorbell Write Value
    s.tail = v;
    arb_.set_ready(q, ring_sub(s.tail, s.head, s.size));
    return fetch(t);
  }
  Cq& c = cq_[q];
  if (v >= c.size || ring_sub(v, c.head, c.size) > ring_sub(c.tail, c.head, c.size)) return doorbell_error(1);
  c.head = v;
  while (!c.backlog.empty() && ring_next(c.tail, c.size) != c.head) {
    const Cqe e = c.backlog.front();
    c.backlog.pop_front();
    write_cqe(uint16_t(q), e, std::max(t, now_ps()));
  }
}

void NvmeEndpoint::doorbell_error(uint8_t info) {
  // NVMe 1.4 §5.2 (Asynchronous Event Request): error status event, info 00h invalid doorbell register,
  // 01h invalid doorbell write value, log page 01h. The write itself is ignored.
  ++n_.doorbell_errors;
  post_event(kAenError | uint32_t(info) << 8 | uint32_t(kLogError) << 16);
}

void NvmeEndpoint::post_event(uint32_t dw0) {
  pending_aen_.push_back(dw0);
  deliver_events();
}

void NvmeEndpoint::deliver_events() {
  // Each event completes an outstanding Asynchronous Event Request (DW0: type, information, log page), oldest first.
  while (!aer_cids_.empty() && !pending_aen_.empty()) {
    const uint16_t cid = aer_cids_.back();
    aer_cids_.pop_back();
    const uint32_t dw0 = pending_aen_.front();
    pending_aen_.erase(pending_aen_.begin());
    finish(0, cid, kSuccess, now_ps(), dw0);
  }
}

void NvmeEndpoint::fetch(uint64_t t) {
  if (in_fetch_) return;
  in_fetch_ = true;
  // The engine fetches at once the commands whose fetch starts within kFetchWindowPs; beyond, it waits until it
  // is free again and arbitrates then, so a command arriving meanwhile (an urgent queue's) competes for the
  // next fetch instead of queueing behind every entry already waiting.
  constexpr uint64_t kFetchWindowPs = 1000000;  // 1 us
  const uint64_t horizon = std::max(t, now_ps()) + kFetchWindowPs;
  for (int q; csts_ & kCstsRdy;) {
    if (std::max(t, engine_free_) > horizon) {
      if (!fetch_due_ && arb_.pick_ready()) fetch_due_ = true, schedule(engine_free_ - kFetchWindowPs, Due::Fetch, 0);
      break;
    }
    if (p_.max_commands && active_ >= p_.max_commands) break;  // every command slot busy: a completion resumes
    if ((q = arb_.pick()) < 0) break;
    Sq& s = sq_[q];
    Sqe e;
    const uint64_t addr = s.base + uint64_t(s.head) * sizeof(Sqe);
    if (!dma_read(addr, &e, sizeof(Sqe))) {
      fatal();  // RDY is 0 now: nothing more is fetched
      break;
    }
    s.head = ring_next(s.head, s.size);
    arb_.set_ready(uint32_t(q), ring_sub(s.tail, s.head, s.size));
    // APST: the first I/O command after idle waits for the drive to leave its power state; those behind it too.
    if (apst_ && q != 0 && active_ == 0) {
      const uint64_t from = std::max(t, engine_free_);
      engine_free_ = from + apst_->wake(from);
    }
    const uint64_t start = std::max(t, engine_free_);
    engine_free_ = start + p_.fetch_ps;
    const uint64_t arrival = link_.read_host(engine_free_, addr, sizeof(Sqe), p_.host_mem_ps, true);
    ++n_.commands;
    if (q != 0) ++active_;
    if (q == 0)
      admin(e, arrival);
    else
      io(uint16_t(q), e, arrival);
  }
  in_fetch_ = false;
}

// ---- completions and interrupts -----------------------------------------------------------------------------

uint64_t NvmeEndpoint::post(uint16_t sqid, uint16_t cid, uint16_t status, uint64_t t, uint32_t result, uint32_t dw1) {
  Cqe e;
  e.dw[0] = result;
  e.dw[1] = dw1;
  e.dw[2] = uint32_t(sq_[sqid].head) | uint32_t(sqid) << 16;
  e.dw[3] = uint32_t(cid) | uint32_t(status) << 17;
  if (status) {
    ++n_.errors;
    std::array<uint32_t, 16> entry{};
    entry[0] = uint32_t(++error_count_), entry[1] = uint32_t(error_count_ >> 32);
    entry[2] = uint32_t(sqid) | uint32_t(cid) << 16;
    entry[3] = uint32_t(status) << 1;
    error_log_.push_front(entry);
    if (error_log_.size() > 64) error_log_.pop_back();
  }
  ++n_.completions;
  const uint64_t posted = link_.write_up(t, cq_[sq_[sqid].cqid].base, sizeof(Cqe));
  schedule(posted, Due::Cqe, sq_[sqid].cqid, e);
  return posted;
}

void NvmeEndpoint::schedule(uint64_t t, Due what, uint16_t q, const Cqe& cqe) {
  const uint64_t now = now_ps();
  if (t < now) t = now;
  const bool sooner = due_.empty() || t < due_.top().t;
  due_.push(Event{t, seq_++, what, q, cqe}, what == Due::Cqe);
  if (p_.loosely_timed) {
    if (!in_due_) notify_lt(t, what);  // within on_due, its loop takes it or its end notifies
  } else if (sooner && t < wake_at_) {  // not when due_ev_ is pending for no later (the kernel would ignore it)
    wake_at_ = t;
    due_ev_.notify(ps_time(t - now));
  }
}

namespace {
// LT: what may go ahead of sc_time (a write to host memory); the rest (timers, CSTS changes, a fetch) at its time.
bool goes_ahead(int what) { return what <= 1; }  // Due::Cqe, Due::Msi
}  // namespace

void NvmeEndpoint::notify_lt(uint64_t t, Due what) {
  const uint64_t now = now_ps(), q = tlm::tlm_global_quantum::instance().get().value();
  uint64_t w = goes_ahead(int(what)) && q ? t - t % q : t;
  if (w < now) w = now;
  if (w >= wake_at_) return;
  wake_at_ = w;
  due_ev_.notify(ps_time(w - now));
}

void NvmeEndpoint::on_due() {
  ++kernel_activations();
  const uint64_t now = now_ps();
  const bool lt = p_.loosely_timed;
  wake_at_ = ~uint64_t(0);  // due_ev_ fired: nothing pending
  if (lt) qk_.reset(), in_due_ = true;
  while (!due_.empty()) {
    const Event& top = due_.top();
    // AT: what is due now. LT: also the entries and messages due before the quantum's end, at their own times.
    if (top.t > now && (!lt || !goes_ahead(int(top.what)) || qk_.beyond(top.t))) break;
    const Event ev = top;
    due_.pop();
    const uint64_t at = lt ? std::max(ev.t, now) : now;
    switch (ev.what) {
      case Due::Cqe:
        write_cqe(ev.q, ev.cqe, at);
        if (ev.cqe.sq_id() != 0 && active_) {  // an I/O command's slot is free again
          const bool was_full = active_-- == p_.max_commands;
          if (apst_ && active_ == 0) apst_->idle_from(at);
          if (was_full) fetch(at);
        }
        break;
      case Due::Msi:
        if (lt) send_msi(ev.q, at - now);
        else msi_now_.push_back(ev.q);  // AT: after everything else due now
        break;
      case Due::Timer:
        if (coalesce_[ev.q].waiting() && coalesce_[ev.q].deadline() <= now) interrupt(ev.q, now);
        break;
      case Due::Fetch:
        fetch_due_ = false;
        fetch(now);
        break;
      case Due::Ready:
        if (ev.q == 2) {  // shutdown: complete once nothing is in flight
          if (in_flight_) schedule(now + p_.shutdown_ps, Due::Ready, 2);
          else csts_ = (csts_ & ~0xCu) | kShstComplete << 2;
        } else if (ev.q == 1 ? bool(cc_ & kCcEn) : !(cc_ & kCcEn)) {
          csts_ = ev.q == 1 ? (csts_ | kCstsRdy) : (csts_ & ~(kCstsRdy | 0xCu));
        }
        break;
    }
  }
  in_due_ = false;
  // AT: the messages due now go after every entry due now, so a handler that reaps at once finds them all.
  for (size_t i = 0; i < msi_now_.size(); ++i) send_msi(msi_now_[i], 0);
  msi_now_.clear();
  if (due_.empty()) return;
  if (lt) return notify_lt(due_.top().t, due_.top().what);
  if (due_.top().t >= wake_at_) return;  // pending for no later already (scheduled within the loop)
  wake_at_ = due_.top().t;
  due_ev_.notify(ps_time(due_.top().t - now));
}

void NvmeEndpoint::write_cqe(uint16_t cqid, Cqe e, uint64_t t) {
  Cq& c = cq_[cqid];
  if (!c.live) return;  // deleted meanwhile
  if (ring_next(c.tail, c.size) == c.head) {  // full: the entry waits for the host to free a slot
    c.backlog.push_back(e);
    return;
  }
  e.dw[3] = (e.dw[3] & ~(1u << 16)) | uint32_t(c.phase) << 16;
  if (!dma_write(c.base + uint64_t(c.tail) * sizeof(Cqe), &e, sizeof(Cqe))) return fatal();
  if (++c.tail == c.size) c.tail = 0, c.phase = !c.phase;
  if (!c.ien) return;
  const uint16_t v = c.vector;
  if (cqid == 0 || coalesce_off_[v] || coalesce_[v].posted(t)) return interrupt(v, t);
  if (!coalesce_[v].waiting() || coalesce_[v].deadline() <= t) return;
  schedule(coalesce_[v].deadline(), Due::Timer, v);
}

void NvmeEndpoint::send_msi(uint16_t vector, uint64_t delay_ps) {
  const uint32_t* m = &msix_[size_t(vector) * 4];
  dma_write(m[0] | uint64_t(m[1]) << 32, &m[2], 4, delay_ps);  // posted: no error comes back to the device
  ++n_.interrupts;
}

void NvmeEndpoint::interrupt(uint16_t vector, uint64_t t) {
  coalesce_[vector].fired();
  if (msix_[size_t(vector) * 4 + 3] & 1) return;  // masked (the pending bit is not modelled)
  const uint32_t* m = &msix_[size_t(vector) * 4];
  const uint64_t arrives = link_.write_up(t, m[0] | uint64_t(m[1]) << 32, 4, true);
  // LT, within on_due's pass: a message due before the quantum's end and before everything still queued goes at
  // once, its time the write's delay, instead of through the due queue to the same pass's loop, which would send it
  // next all the same (the handler reaps the same entries: those due no later than the message).
  if (in_due_ && !qk_.beyond(arrives) && (due_.empty() || due_.top().t > arrives))
    return send_msi(vector, arrives > now_ps() ? arrives - now_ps() : 0);
  schedule(arrives, Due::Msi, vector);
}

// ---- host memory --------------------------------------------------------------------------------------------

void NvmeEndpoint::fatal() {
  // As QEMU's NVMe device on a failed submission-entry read or completion-entry write (hw/nvme/ctrl.c,
  // nvme_process_sq and nvme_post_cqes: CSTS = NVME_CSTS_FAILED).
  ++n_.fatal_errors;
  csts_ = kCstsCfs;
}

PrpReader NvmeEndpoint::prp_reader(bool& failed) {
  return [this, &failed](uint64_t a, uint64_t* out, uint32_t n) {
    if (!dma_read(a, out, n * 8)) failed = true, std::fill(out, out + n, 0);
  };
}

void NvmeEndpoint::walk_data(const Sqe& s, uint64_t bytes, bool& failed, PrpWalk& out) {
  if (s.psdt() == 0) {
    if (walk_prps_direct(s.prp1(), s.prp2(), bytes, page_, out)) return;  // one or two pages: no list to read
    return walk_prps(s.prp1(), s.prp2(), bytes, page_, prp_reader(failed), out);
  }
  out = walk_data(s, bytes, failed);
}

PrpWalk NvmeEndpoint::walk_data(const Sqe& s, uint64_t bytes, bool& failed) {
  if (s.psdt() == 0) return walk_prps(s.prp1(), s.prp2(), bytes, page_, prp_reader(failed));
  if (s.psdt() == 3) {  // reserved (Base 2.0 Figure 91)
    PrpWalk w;
    w.status = kInvalidField;
    return w;
  }
  // 01b and 10b: SGL1 describes the data (10b changes only how MPTR, the metadata pointer, is read; the namespace
  // has no metadata).
  return walk_sgl(SglDescriptor::from_dwords(&s.dw[6]), bytes, [this, &failed](uint64_t a, uint32_t* out, uint32_t n) {
    if (!dma_read(a, out, n * 16)) failed = true, std::fill(out, out + size_t(n) * 4, 0u);
  });
}

bool NvmeEndpoint::dma_read(uint64_t addr, void* dst, uint32_t bytes) {
  if (dmi_ok_ && addr >= dmi_.get_start_address() && addr + bytes - 1 <= dmi_.get_end_address()) {
    std::memcpy(dst, dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address()), bytes);
    return true;
  }
  tlm::tlm_generic_payload gp;
  gp.set_command(tlm::TLM_READ_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(dst));
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = sc_core::SC_ZERO_TIME;
  dma->b_transport(gp, d);
  if (!gp.is_response_ok()) return false;
  if (gp.is_dmi_allowed() && !dmi_ok_) dmi_ok_ = dma->get_direct_mem_ptr(gp, dmi_);
  return true;
}

void NvmeEndpoint::invalidate_dmi(sc_dt::uint64 start, sc_dt::uint64 end) {
  if (dmi_ok_ && start <= dmi_.get_end_address() && end >= dmi_.get_start_address()) dmi_ok_ = false;
}

bool NvmeEndpoint::dma_write(uint64_t addr, const void* src, uint32_t bytes, uint64_t delay_ps) {
  // Into host memory through DMI when the target granted it for writing (a completion entry, admin data): a DMI
  // grant tells the initiator the target needs to see no transaction there (IEEE 1666-2011 §11.2). Everything
  // else through the socket, as the target reacts to it (an MSI-X address is never in a DMI range).
  if (dmi_ok_ && dmi_.is_write_allowed() && addr >= dmi_.get_start_address() &&
      addr + bytes - 1 <= dmi_.get_end_address()) {
    std::memcpy(dmi_.get_dmi_ptr() + (addr - dmi_.get_start_address()), src, bytes);
    return true;
  }
  // One payload for every write (constructing one allocates its extension array); a write made while another is
  // under way (the host's interrupt handler, called by an MSI-X write, rang a doorbell) takes its own.
  std::optional<tlm::tlm_generic_payload> nested;
  tlm::tlm_generic_payload& gp = dma_busy_ ? nested.emplace() : dma_gp_;
  gp.set_dmi_allowed(false);
  gp.set_command(tlm::TLM_WRITE_COMMAND);
  gp.set_address(addr);
  gp.set_data_ptr(static_cast<unsigned char*>(const_cast<void*>(src)));
  gp.set_data_length(bytes);
  gp.set_streaming_width(bytes);
  gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  sc_core::sc_time d = ps_time(delay_ps);
  const bool outer = !dma_busy_;
  dma_busy_ = true;
  dma->b_transport(gp, d);  // writes go through the socket: the target may react (an MSI-X address)
  if (outer) dma_busy_ = false;
  return gp.is_response_ok();
}

}  // namespace ssdtlm
