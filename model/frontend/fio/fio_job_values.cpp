// How fio reads option values: sizes with kb_base, percentages, times with fio's default units, flags,
// per-direction lists and "(expr)" arithmetic.
#include "frontend/fio/fio_job_internal.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <functional>

#include "common/text.h"
#include "common/units.h"

namespace ssdtlm {
namespace fio {

namespace {

// Integer arithmetic of fio's "(expr)": + - * / % ^ and parentheses over atoms (numbers with units).
class Expr {
 public:
  Expr(const std::string& s, std::function<double(const std::string&)> atom) : s_(s), atom_(std::move(atom)) {}
  double eval() {
    const double v = sum();
    skip();
    if (i_ != s_.size()) throw UnitError("an arithmetic expression", s_, "unexpected '" + s_.substr(i_) + "'");
    return v;
  }

 private:
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  double sum() {
    double v = product();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) {
        const char op = s_[i_++];
        const double r = product();
        v = op == '+' ? v + r : v - r;
      } else {
        return v;
      }
    }
  }
  double product() {
    double v = power();
    for (;;) {
      skip();
      if (i_ < s_.size() && (s_[i_] == '*' || s_[i_] == '/' || s_[i_] == '%')) {
        const char op = s_[i_++];
        const double r = power();
        if (op != '*' && r == 0) throw UnitError("an arithmetic expression", s_, "division by zero");
        v = op == '*' ? v * r : op == '/' ? v / r : std::fmod(v, r);
      } else {
        return v;
      }
    }
  }
  // Nesting ("((((1))))", "- - -1", "2^2^2") is bounded: each level is a recursion.
  static constexpr int kMaxDepth = 256;
  struct Deeper {
    Expr& e;
    explicit Deeper(Expr& x) : e(x) {
      if (++e.depth_ > kMaxDepth)
        throw UnitError("an arithmetic expression", e.s_.size() > 60 ? e.s_.substr(0, 60) + "..." : e.s_,
                        "nested deeper than " + std::to_string(kMaxDepth) + " levels of parentheses, signs or powers");
    }
    ~Deeper() { --e.depth_; }
  };
  double power() {
    Deeper guard(*this);
    const double b = unary();
    skip();
    if (i_ < s_.size() && s_[i_] == '^') {
      ++i_;
      return std::pow(b, power());
    }
    return b;
  }
  double unary() {
    Deeper guard(*this);
    skip();
    if (i_ < s_.size() && s_[i_] == '-') {
      ++i_;
      return -unary();
    }
    if (i_ < s_.size() && s_[i_] == '(') {
      ++i_;
      const double v = sum();
      skip();
      if (i_ >= s_.size() || s_[i_] != ')') throw UnitError("an arithmetic expression", s_, "missing ')'");
      ++i_;
      return v;
    }
    const size_t start = i_;
    while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) ++i_;
    if (start == i_) throw UnitError("an arithmetic expression", s_, "expected a number");
    return atom_(s_.substr(start, i_ - start));
  }

  std::string s_;
  size_t i_ = 0;
  int depth_ = 0;
  std::function<double(const std::string&)> atom_;
};

}  // namespace

// "a,b,c" per direction (read, write, trim): a value not ending in a comma applies to the directions after it.
// More than three values ("4k,,,"), or none ("bs=,"), is refused.
std::array<std::optional<std::string>, 3> per_direction(const Line& l) {
  const std::string& v = l.value;
  std::array<std::optional<std::string>, 3> out;
  const auto parts = split(v, ',');
  if (parts.size() > 3) fail(l, "expected at most three comma-separated values (read,write,trim)");
  bool any = false;
  for (auto& p : parts) any |= !trim(p).empty();
  if (!any) fail(l, "expected a value (read,write,trim: at least one of them)");
  for (size_t i = 0; i < 3; ++i) {
    if (i < parts.size()) {
      if (!trim(parts[i]).empty()) out[i] = std::string(trim(parts[i]));
    } else if (!trim(parts.back()).empty()) {
      out[i] = std::string(trim(parts.back()));
    }
  }
  return out;
}

void Interpreter::ignore(const std::string& key) {
  if (std::find(out_.ignored.begin(), out_.ignored.end(), key) == out_.ignored.end()) out_.ignored.push_back(key);
}

void Interpreter::note(const std::string& text) {
  if (std::find(out_.notes.begin(), out_.notes.end(), text) == out_.notes.end()) out_.notes.push_back(text);
}

uint64_t Interpreter::size_value(const Line& l, const std::string& text, unsigned kb_base, bool cut_at_separator) {
  const SizeSyntax fio{kb_base, true}, iec{kb_base, false};
  try {
    uint64_t v;
    if (!text.empty() && text[0] == '(') {
      const double d = Expr(text, [&](const std::string& a) { return double(parse_size(a, fio)); }).eval();
      if (!(d >= 0) || d >= 1.8e19) throw UnitError("a size", text, "negative or too large");
      v = uint64_t(std::llround(d));
    } else {
      // fio's get_mult_bytes: the unit ends at a separator (':', '-', '/'; ',' splits directions before), the rest
      // is not read: bs=4k-512k is 4k in fio (a range is bsrange=4k-512k).
      const size_t cut = text.find_first_of(":-/", 1);
      if (cut_at_separator && cut != std::string::npos && std::isdigit(static_cast<unsigned char>(text[0]))) {
        const bool bs = canonical_option(l.key) == "bs";
        note(l.file + ":" + std::to_string(l.line) + ": " + l.key + "=" + l.value + ": fio reads '" + text + "' as '" +
             text.substr(0, cut) + "', its size parser stopping at '" + text[cut] + "' (parse.c get_mult_bytes)" +
             (bs ? "; a range of block sizes is bsrange=" + text : ""));
        return size_value(l, text.substr(0, cut), kb_base);
      }
      v = parse_size(text, fio);
      if (v != parse_size(text, iec))
        note(l.file + ":" + std::to_string(l.line) + ": " + l.key + "=" + text + " is " + std::to_string(v) +
             " bytes, as fio reads it with kb_base=1024 (KiB, MiB, ... are powers of 1000 there; set kb_base=1000 "
             "for IEC units)");
    }
    return v;
  } catch (const UnitError& e) {
    fail(l, e.what());
  }
}

Amount Interpreter::amount(const Line& l, unsigned kb_base, bool allow_percent, bool zero_ok) {
  Amount a;
  a.set = true;
  a.at = l;
  const std::string v(trim(l.value));
  // fio's __get_mult_bytes: a unit starting with '%' is a percentage, whatever follows ("100%%": 100 %).
  if (const size_t pc = v.find('%'); pc != std::string::npos && pc > 0 && v[0] != '(' &&
                                     v.find_first_not_of('%', pc) == std::string::npos) {
    if (!allow_percent) fail(l, "a percentage is not allowed here");
    try {
      a.pct = parse_number(v.substr(0, pc));
    } catch (const UnitError& e) {
      fail(l, e.what());
    }
    if (zero_ok ? !(a.pct >= 0 && a.pct < 100) : !(a.pct > 0 && a.pct <= 100))
      fail(l, zero_ok ? "expected a percentage in [0, 100)" : "expected a percentage in (0, 100]");
    a.percent = true;
    return a;
  }
  if (v.size() > 1 && (v.back() == 'z' || v.back() == 'Z') && std::isdigit(static_cast<unsigned char>(v[0]))) {
    // fio's zone suffix (size=8z, offset=524z): whole zones of the zoned device (resolved by the Builder)
    a.zones = true;
    a.bytes = size_value(l, v.substr(0, v.size() - 1), kb_base, true);
    return a;
  }
  a.bytes = size_value(l, v, kb_base, true);
  return a;
}

uint64_t Interpreter::time_value(const Line& l, double default_unit_ns) {
  try {
    const std::string v(trim(l.value));
    double ns;
    if (!v.empty() && v[0] == '(')  // fio: the arithmetic is in microseconds
      ns = 1e3 * Expr(v, [](const std::string& a) { return parse_time_ns(a, 1e3, true) / 1e3; }).eval();
    else
      ns = parse_time_ns(v, default_unit_ns, true);
    if (!(ns >= 0)) throw UnitError("a time", v, "negative");
    if (!(ns < 9.2e18)) fail(l, "expected a time below 2^63 ns (292 years; a run ends at 2^64 ps, 213.5 days)");
    return uint64_t(std::llround(ns));
  } catch (const UnitError& e) {
    fail(l, e.what());
  }
}

uint64_t Interpreter::count(const Line& l, unsigned kb_base, uint64_t min) {
  const uint64_t v = size_value(l, std::string(trim(l.value)), kb_base);
  if (v < min) fail(l, "expected at least " + std::to_string(min));
  return v;
}

bool Interpreter::flag(const Line& l) {
  if (!l.has_value) return true;
  try {
    return parse_bool(l.value);
  } catch (const UnitError& e) {
    fail(l, e.what());
  }
}

double Interpreter::percent(const Line& l) {
  double v = 0;
  try {
    v = parse_number(l.value);
  } catch (const UnitError& e) {
    fail(l, e.what());
  }
  if (!(v >= 0 && v <= 100)) fail(l, "expected a percentage in [0, 100]");
  return v;
}

void Interpreter::need_value(const Line& l) {
  if (!l.has_value || trim(l.value).empty()) fail(l, "expected a value (option=value)");
}

}  // namespace fio
}  // namespace ssdtlm
