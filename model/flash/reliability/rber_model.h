// The raw bit error rate of a NAND page and what the controller's ECC does about it (reliability.*): plain C++,
// O(1) per read, no SystemC. See README.md and docs/reference/nand.md for the model, its parameters and their sources.
//
// RBER(c, t, r) = eps + alpha c^k + beta c^m t^n + gamma c^p r^q,  c = max(cycles, 1)
//   cycles: the block's program/erase cycles (reliability.initial_pe_cycles + erases in the run),
//   t: retention age of the data in hours at the fit's temperature (reliability.rber_temp_c): real hours times
//      the Arrhenius acceleration factor AF(T) = exp(Ea/k_B (1/T_fit - 1/T)) of the temperature T they were spent
//      at (reliability.activation_energy_ev, 1.1 eV: JEDEC JESD218's retention acceleration). Data written
//      before the run aged reliability.retention_days at reliability.retention_temp_c; in the run, data ages at
//      the drive's temperature (thermal.ambient_c, or the thermal model's with thermal.enabled),
//   r: reads of the block since it was programmed, per page (read disturb).
// The wear and retention terms are the power-law form of Liu et al. (FAST'12) fitted to Mielke et al.
// (IRPS'08); read disturb grows with reads and wear (Cai et al., DSN'15). A power law in the cycle count
// describes cycled cells (c >= 1; a log-log fit has no point at c = 0): a fresh block reads as a once-cycled one,
// so its data still loses charge and suffers read disturb, as programmed cells do whatever their cycling, instead
// of the power law's extrapolated zero (issue 44: one P/E cycle was a cliff). A page's RBER is this mean times a
// lognormal page-to-page factor (reliability.page_sigma) drawn from a hash of the page and its erase count, so
// the same data always reads the same way.
//
// The ECC ladder on a read: hard-decision decode succeeds when the page's RBER is at most hard_rber. Else up to
// retry_steps read-retries with shifted read references, each an extra tR and data-out, each shrinking the
// threshold-shift part of the errors (retention and read disturb) by retry_gain; then the soft-decision LDPC
// tiers, tier i with its extra sensing reads and its decode latency on the controller, succeeding when the
// RBER is at most soft_rber[i]. Past the last tier the read is uncorrectable.
#pragma once
#include <cstdint>
#include <vector>

namespace ssdtlm {

struct ReliabilityParams {
  bool on = false;                  // reliability.model = rber
  double initial_pe = 0;            // reliability.initial_pe_cycles
  double retention_hours = 0;       // reliability.retention_days x 24 (at retention_temp_c)
  double ea_ev = 1.1;               // reliability.activation_energy_ev: Arrhenius activation energy of retention
  double fit_temp_c = 25;           // reliability.rber_temp_c: the temperature rber_params' retention hours hold at
  double retention_temp_c = 25;     // reliability.retention_temp_c: where the pre-run data spent retention_days
  double run_temp_c = 25;           // thermal.ambient_c: the drive's temperature in the run (until the thermal
                                    // model reports another, Reliability::set_temp_c)
  double eps = 1.48e-3, alpha = 3.9e-10, k = 2.05, beta = 6.28e-5, m = 0.14, n = 0.54, gamma = 3.73e-9, p = 0.33,
         q = 1.71;                  // reliability.rber_params
  double page_sigma = 0.3;          // reliability.page_sigma
  double hard_rber = 5e-3;          // reliability.hard_rber
  uint32_t retry_steps = 4;         // reliability.retry_steps
  double retry_gain = 0.5;          // reliability.retry_gain
  std::vector<double> soft_rber = {8e-3, 1.2e-2};       // reliability.soft_rber
  std::vector<uint32_t> soft_reads = {2, 4};            // reliability.soft_reads: extra sensing reads per tier
  std::vector<uint64_t> soft_decode_ps = {8000000, 30000000};  // reliability.soft_decode_us
  uint32_t reclaim_reads = 0;       // reliability.reclaim_reads: reads of a block that trigger its reclaim (0 = off)
  uint32_t reclaim_steps = 0;       // reliability.reclaim_retry_steps: a read needing this many retries (0 = off)
  double slc_endurance_gain = 10;   // a block in SLC mode wears as if its P/E count were this many times smaller
};

// What one read costs beyond its first tR and data-out.
struct ReadOutcome {
  uint8_t retries = 0;        // read-retry steps (extra tR + data-out each)
  uint8_t soft_tier = 0;      // 0 = none, i = soft tier i (1-based)
  uint8_t extra_reads = 0;    // extra tR + data-out: retries + the tier's soft sensing reads
  bool uncorrectable = false;
  uint64_t decode_ps = 0;     // soft decoding on the controller
  double rber = 0;            // the page's RBER
};

class RberModel {
 public:
  explicit RberModel(const ReliabilityParams& p) : p_(p) {}
  const ReliabilityParams& params() const { return p_; }
  // The Arrhenius factor of retention at temp_c against the fit's temperature: an hour at temp_c ages the data
  // as many hours at rber_temp_c (JESD218's retention acceleration; 1 at the fit's temperature).
  double acceleration(double temp_c) const;
  // Mean RBER of a page: P/E cycles, retention hours (at the fit's temperature), reads of its block since
  // programmed, per page.
  double mean_rber(double pe, double hours, double reads_per_page) const;
  // The part of it that read-retry recovers (threshold shifts: retention and read disturb).
  double shift_rber(double pe, double hours, double reads_per_page) const;
  // The page-to-page factor of one page instance (hash of its location and erase count).
  double page_factor(uint64_t key) const;
  // The P/E-dependent factors of the three terms: alpha c^k, beta c^m, gamma c^p with c = max(pe, 1) (they
  // change only with an erase: Reliability caches them per block, so a read evaluates only the t^n and r^q
  // powers).
  struct WearTerms {
    double wear = 0, retention = 0, disturb = 0;
  };
  WearTerms wear_terms(double pe) const;
  // shift_rber from cached wear terms (the same value and rounding as shift_rber(pe, hours, reads)).
  double shift_rber(const WearTerms& w, double hours, double reads_per_page) const;
  // The ECC ladder for a page of this mean RBER, shift part and page factor.
  ReadOutcome decode(double mean, double shift, double factor) const;

 private:
  ReliabilityParams p_;
};

}  // namespace ssdtlm
