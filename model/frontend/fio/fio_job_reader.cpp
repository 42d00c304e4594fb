// fio job files as text: sections, options, comments, include, ${VAR}.
#include "frontend/fio/fio_job_internal.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_file.h"
#include "common/text.h"

namespace ssdtlm {
namespace fio {

namespace {

namespace fs = std::filesystem;

// fio's ${VAR} substitution (options.c, fio_option_dup_subs): an unset variable reads as empty; its name is kept
// in `unset` so that an error about the value can say why the value is what it is.
std::string expand_env(const std::string& value, const std::string& file, int line, std::string& unset) {
  std::string out;
  for (size_t i = 0; i < value.size(); ++i) {
    if (value[i] == '$' && i + 1 < value.size() && value[i + 1] == '{') {
      const size_t end = value.find('}', i + 2);
      if (end == std::string::npos) fail_at(file, line, "unterminated ${...} in '" + value + "'");
      const std::string var = value.substr(i + 2, end - i - 2);
      if (const char* v = std::getenv(var.c_str()))
        out += v;
      else
        unset += (unset.empty() ? "${" : ", ${") + var + "}";
      i = end;
      continue;
    }
    if (value[i] == '$') {
      for (const char* kw : {"$pagesize", "$mb_memory", "$ncpus"})
        if (value.compare(i, std::strlen(kw), kw) == 0)
          fail_at(file, line, std::string(kw) + " describes the machine fio runs on, not the modelled device: write a number");
    }
    out += value[i];
  }
  return out;
}

}  // namespace

void Reader::read_text(const std::string& text, const std::string& path, bool nested, int depth) {
  if (depth > 16) fail_at(path, 0, "include nested more than 16 deep (a cycle?)");
  std::istringstream in(text);
  std::string raw;
  int lineno = 0;
  while (std::getline(in, raw)) {
    ++lineno;
    if (!raw.empty() && raw.back() == '\r') raw.pop_back();
    if (!errors) {
      read_line(raw, path, lineno, nested, depth);
      continue;
    }
    try {
      read_line(raw, path, lineno, nested, depth);
    } catch (const ConfigError& e) {
      errors->add(e.what());
    }
  }
}

void Reader::read_line(const std::string& raw, const std::string& path, int lineno, bool nested, int depth) {
  std::string t(trim(raw));
  if (t.empty() || t[0] == ';' || t[0] == '#') return;
  const size_t comment = t.find_first_of(";#");  // fio cuts a line at ';' or '#'
  if (comment != std::string::npos) t = std::string(trim(t.substr(0, comment)));
  if (t.empty()) return;
  if (t[0] == '[') {
    if (nested) fail_at(path, lineno, "an included file cannot start a section (" + quote_text(t) + ")");
    if (t.back() != ']' || t.size() < 3) fail_at(path, lineno, "expected a section header '[name]', got " + quote_text(t));
    Section s;
    s.name = std::string(trim(t.substr(1, t.size() - 2)));
    if (s.name.empty() || s.name.find_first_of("[]") != std::string::npos)
      fail_at(path, lineno, "expected a section name between '[' and ']', got " + quote_text(t));
    s.file = path;
    s.line = lineno;
    s.global = s.name.compare(0, 6, "global") == 0;
    sections.push_back(std::move(s));
    return;
  }
  if (t.compare(0, 8, "include ") == 0 || t.compare(0, 8, "include\t") == 0) {
    if (sections.empty()) fail_at(path, lineno, "'include' outside of a [section]");
    std::string name(trim(t.substr(8)));
    fs::path p(name);
    if (!fs::exists(p)) p = fs::path(path).parent_path() / name;
    if (name.empty()) fail_at(path, lineno, "include: expected a file name");
    std::error_code ec;
    if (fs::exists(p, ec) && !fs::is_regular_file(p, ec))
      fail_at(path, lineno, "include " + quote_text(name) + ": expected a regular file (a directory, FIFO or device is not read)");
    std::string text;
    try {
      text = read_input_file(p.string(), "include");
    } catch (const ConfigError& e) {
      fail_at(path, lineno, e.what());
    }
    read_text(text, p.string(), true, depth + 1);
    return;
  }
  if (sections.empty()) fail_at(path, lineno, "option " + quote_text(t) + " outside of a [section]");
  Line l;
  l.file = path;
  l.line = lineno;
  const size_t eq = t.find('=');
  l.has_value = eq != std::string::npos;
  l.key = lower(trim(l.has_value ? t.substr(0, eq) : t));
  if (l.has_value) l.value = expand_env(std::string(trim(t.substr(eq + 1))), path, lineno, l.unset_vars);
  if (l.key.empty()) fail_at(path, lineno, "expected 'option=value', got " + quote_text(t));
  sections.back().options.push_back(std::move(l));
}

}  // namespace fio
}  // namespace ssdtlm
