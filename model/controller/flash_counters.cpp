#include "controller/flash_counters.h"

#include <nlohmann/json.hpp>

namespace ssdtlm {

FlashCounters& FlashCounters::operator+=(const FlashCounters& o) {
  for (int k = 0; k < 4; ++k) programs[k] += o.programs[k];
  for (int k = 0; k < 3; ++k) reads[k] += o.reads[k];
  erases += o.erases;
  gc_victims += o.gc_victims;
  gc_units_moved += o.gc_units_moved;
  fold_programs += o.fold_programs;
  fold_reads += o.fold_reads;
  slc_host_units += o.slc_host_units;
  slc_direct_units += o.slc_direct_units;
  slc_folded_units += o.slc_folded_units;
  return *this;
}

FlashCounters FlashCounters::since(const FlashCounters& from) const {
  FlashCounters d;
  for (int k = 0; k < 4; ++k) d.programs[k] = programs[k] - from.programs[k];
  for (int k = 0; k < 3; ++k) d.reads[k] = reads[k] - from.reads[k];
  d.erases = erases - from.erases;
  d.gc_victims = gc_victims - from.gc_victims;
  d.gc_units_moved = gc_units_moved - from.gc_units_moved;
  d.fold_programs = fold_programs - from.fold_programs;
  d.fold_reads = fold_reads - from.fold_reads;
  d.slc_host_units = slc_host_units - from.slc_host_units;
  d.slc_direct_units = slc_direct_units - from.slc_direct_units;
  d.slc_folded_units = slc_folded_units - from.slc_folded_units;
  return d;
}

nlohmann::json FlashCounters::programs_report(bool slc) const {
  nlohmann::json j = {{"ud", programs[0]}, {"md", programs[1]}, {"gud", programs[2]}, {"gmd", programs[3]}};
  if (slc) j["fold"] = fold_programs;
  return j;
}

nlohmann::json FlashCounters::nand_report(double page_bytes, bool slc) const {
  nlohmann::json j = {{"programs", programs_report(slc)},
                      {"reads", {{"user", reads[0]}, {"map", reads[1]}, {"gc", reads[2]}}},
                      {"erases", erases},
                      {"gc_victims", gc_victims},
                      {"gc_units_moved", gc_units_moved},
                      {"page_bytes", page_bytes}};
  if (slc) j["reads"]["fold"] = fold_reads;
  return j;
}

nlohmann::json FlashCounters::waf_report(double page_bytes, double host_bytes, bool slc) const {
  auto of = [&](uint64_t pages) { return waf(pages, page_bytes, host_bytes); };
  nlohmann::json j = {{"total", of(total_programs())}, {"ud", of(programs[0])}, {"md", of(programs[1])},
                      {"gud", of(programs[2])}, {"gmd", of(programs[3])}};
  if (slc) j["fold"] = of(fold_programs);
  return j;
}

}  // namespace ssdtlm
