// The fio options ssdtlm models, applied to a job (Interpreter::apply): each is an entry of a table, name and
// handler, by concept: what the job does and how much (here), how it runs and reports (fio_job_options_run.cpp),
// zones, placement, durability and engines (fio_job_options_device.cpp). Every other option is classed by fio's
// option table (fio_option_table.cpp).
#include "frontend/fio/fio_job_internal.h"

#include <map>
#include <stdexcept>
#include <unordered_map>

#include "common/text.h"
#include "common/units.h"

namespace ssdtlm {
namespace fio {

namespace {
// A refused option given its default value, which asks for nothing the model lacks (num_range=1, sprandom=0).
bool refused_option_off(const std::string& key, const Line& l) {
  static const std::map<std::string, std::string> off = {
      {"bs_is_seq_rand", "0"},  {"file_append", "0"},      {"sprandom", "0"},
      {"num_range", "1"},   {"thinktime_iotime", "0"}, {"ramp_size", "0"},       {"replay_scale", "1"},
      {"replay_align", "0"}, {"write_zone_remainder", "0"}};
  const auto it = off.find(key);
  if (it == off.end() || !l.has_value) return false;
  std::string v = lower(std::string(trim(l.value)));
  if (v == "false" || v == "no" || v == "off") v = "0";
  if (v == "true" || v == "yes" || v == "on") v = "1";
  return v == it->second;
}

// An option the model does not apply: one without effect is noted, a refused one (unless at its default) or an
// unknown one is an error.
void apply_unmodelled(Interpreter& in, const std::string& key, const Line& l) {
  std::string why;
  switch (classify_option(key, why)) {
    case OptionClass::NoEffect:
      in.ignore(l.key);
      break;
    case OptionClass::Refused:
      if (refused_option_off(key, l)) {  // fio's default, off (num_range=1, sprandom=0): nothing to refuse
        in.ignore(l.key);
        break;
      }
      fail(l, why);
    case OptionClass::Unknown:
      fail_at(l.file, l.line,
              "unknown fio option " + quote_text(l.key) +
                  " (fio 3.42 has no such option; docs/guides/fio.md lists them)");
  }
}

// Every modelled option's handler by its canonical name, from the tables by concept.
std::unordered_map<std::string, OptionHandler> modelled_options() {
  std::unordered_map<std::string, OptionHandler> by_name;
  for (const OptionTable* table : {&job_pattern_options(), &job_amount_options(), &job_timing_options(),
                                   &job_pacing_options(), &job_output_options(), &zone_and_placement_options(),
                                   &spdk_arbitration_options(), &durability_and_engine_options()})
    for (const ModelledOption& o : *table)
      if (!by_name.emplace(o.name, o.apply).second)
        throw std::logic_error(std::string("fio option '") + o.name + "' has two handlers");
  return by_name;
}
}  // namespace

// What the job does: operations, block sizes, addresses, random sequences.
const OptionTable& job_pattern_options() {
  static const OptionTable table = {
    {"name", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.name = l.value;
     }},
    {"rw", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.rw = lower(l.value);
       s.rw_at = l;
     }},
    {"rwmixread", [](Interpreter& in, Spec& s, const Line& l) { s.rwmixread = in.percent(l); }},
    {"rwmixwrite", [](Interpreter& in, Spec& s, const Line& l) { s.rwmixread = 100 - in.percent(l); }},
    {"bs", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.bs = per_direction(l);
       s.bs_at = l;
       s.bssplit = {};
       s.bsrange = {};
     }},
    {"bssplit", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.bssplit = per_direction(l);
       s.bssplit_at = l;
     }},
    {"bsrange", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.bsrange = per_direction(l);
       s.bsrange_at = l;
     }},
    {"blockalign", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.blockalign = per_direction(l);
       s.blockalign_at = l;
     }},
    {"random_distribution", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.dist = l.value;
       s.dist_at = l;
     }},
    {"norandommap", [](Interpreter& in, Spec& s, const Line& l) { s.norandommap = in.flag(l); }},
    {"randrepeat", [](Interpreter& in, Spec& s, const Line& l) {
       if (!in.flag(l)) {
         in.ignore(l.key);
         in.note(l.file + ":" + std::to_string(l.line) + ": " + l.key +
                 "=0 asks for a different random sequence per run; ssdtlm runs are reproducible: vary --seed instead");
       }
     }},
    {"randseed", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       try {
         s.randseed = parse_integer(l.value);
       } catch (const UnitError& e) {
         fail(l, e.what());
       }
       s.randseed_at = l;
     }},
    {"rw_sequencer", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       s.rw_sequencer = lower(l.value);
       if (s.rw_sequencer != "sequential" && s.rw_sequencer != "identical") fail(l, "expected sequential or identical");
     }},
    {"percentage_random", [](Interpreter& in, Spec& s, const Line& l) {
       in.need_value(l);
       const auto per = per_direction(l);
       for (int k = 0; k < 3; ++k) {
         s.percentage_random[k] = 100;  // fio's default for a direction left empty
         if (!per[k]) continue;
         Line one = l;
         one.value = *per[k];
         s.percentage_random[k] = in.count(one, s.kb_base);
         if (s.percentage_random[k] > 100) fail(l, "expected percentages in [0, 100]");
       }
       s.percentage_random_at = l;
     }},
  };
  return table;
}

// How much: depth, clones, region, amount.
const OptionTable& job_amount_options() {
  static const OptionTable table = {
    {"iodepth", [](Interpreter& in, Spec& s, const Line& l) { s.iodepth = in.count(l, s.kb_base, 1); }},
    {"numjobs", [](Interpreter& in, Spec& s, const Line& l) {
       s.numjobs = in.count(l, s.kb_base, 1);
       if (s.numjobs > 4096) fail(l, "expected at most 4096 jobs");
     }},
    {"size", [](Interpreter& in, Spec& s, const Line& l) { s.size = in.amount(l, s.kb_base, true); }},
    {"offset", [](Interpreter& in, Spec& s, const Line& l) { s.offset = in.amount(l, s.kb_base, true, true); }},
    {"offset_increment", [](Interpreter& in, Spec& s, const Line& l) {
       s.offset_increment = in.amount(l, s.kb_base, true, true);
     }},
    {"offset_align", [](Interpreter& in, Spec& s, const Line& l) { s.offset_align = in.count(l, s.kb_base); }},
    {"io_size", [](Interpreter& in, Spec& s, const Line& l) { s.io_size = in.amount(l, s.kb_base, true); }},
    {"number_ios", [](Interpreter& in, Spec& s, const Line& l) { s.number_ios = in.count(l, s.kb_base); }},
    {"loops", [](Interpreter& in, Spec& s, const Line& l) { s.loops = in.count(l, s.kb_base, 1); }},
    {"fill_device", [](Interpreter& in, Spec& s, const Line& l) { s.fill_device = in.flag(l); }},
  };
  return table;
}

void Interpreter::apply(Spec& s, const Line& l) {
  static const std::unordered_map<std::string, OptionHandler> handlers = modelled_options();
  const std::string key = canonical_option(l.key);
  const auto it = handlers.find(key);
  if (it != handlers.end())
    it->second(*this, s, l);
  else
    apply_unmodelled(*this, key, l);
}

unsigned Interpreter::kb_base_of(const std::vector<const Line*>& lines) {
  unsigned kb = 1024;
  for (const Line* l : lines)
    if (l->key == "kb_base") {
      if (l->value == "1024")
        kb = 1024;
      else if (l->value == "1000")
        kb = 1000;
      else
        fail(*l, "expected 1024 or 1000");
    }
  return kb;
}

}  // namespace fio
}  // namespace ssdtlm
