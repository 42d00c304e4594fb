// Exact NAND traffic counters (section 4 of the architecture): programs in pages by kind, reads in page-read
// operations by purpose, erases in blocks. The counters own their derived figures (the total programmed, the WAF)
// and their report, so summary.json, the stonewall groups and timeseries.csv compute them one way.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace ssdtlm {

struct FlashCounters {
  uint64_t programs[4] = {0, 0, 0, 0};  // indexed by UnitKind: UD, MD, GUD, GMD
  uint64_t reads[3] = {0, 0, 0};        // indexed by ReadKind: user, map, gc
  uint64_t erases = 0;
  uint64_t gc_victims = 0;
  uint64_t gc_units_moved = 0;
  // SLC cache (slc.*): fold programs (pages into TLC/QLC, not counted in programs[GUD]) and fold reads (not in
  // reads[gc]); host units into SLC and direct into TLC/QLC; units folded.
  uint64_t fold_programs = 0, fold_reads = 0;
  uint64_t slc_host_units = 0, slc_direct_units = 0, slc_folded_units = 0;

  // Every page programmed, of every kind (the WAF's numerator).
  uint64_t total_programs() const { return programs[0] + programs[1] + programs[2] + programs[3] + fold_programs; }
  // Write amplification of `pages` programmed pages of page_bytes for host_bytes written (0 with nothing written).
  static double waf(uint64_t pages, double page_bytes, double host_bytes) {
    return host_bytes > 0 ? double(pages) * page_bytes / host_bytes : 0.0;
  }
  FlashCounters& operator+=(const FlashCounters& o);
  // The counts between an earlier snapshot `from` and this one.
  FlashCounters since(const FlashCounters& from) const;

  // summary.json's objects (slc: with the SLC cache, whose fold programs and reads are listed too):
  // {"ud", "md", "gud", "gmd"[, "fold"]} programs,
  nlohmann::json programs_report(bool slc) const;
  // "nand": programs, reads, erases, GC victims and units moved, page_bytes,
  nlohmann::json nand_report(double page_bytes, bool slc) const;
  // "waf": total and per kind, for host_bytes written.
  nlohmann::json waf_report(double page_bytes, double host_bytes, bool slc) const;
};

}  // namespace ssdtlm
