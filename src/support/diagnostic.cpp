#include "support/diagnostic.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ucutlass {

namespace {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::error: return "error";
    case Severity::warning: return "warning";
    case Severity::note: return "note";
  }
  return "error";
}

// Replaces bytes a terminal would misrender, so a caret line stays aligned and
// binary input cannot inject control sequences.
std::string printable(std::string_view line) {
  std::string out;
  out.reserve(line.size());
  for (unsigned char c : line) out.push_back(c == '\t' ? ' ' : (c < 0x20 || c >= 0x7f) ? '?' : c);
  return out;
}

}  // namespace

void Diagnostics::error(Span span, std::string message, std::string legal, std::string hint) {
  if (list_.size() >= kMaxKept) {
    ++dropped_;
    return;
  }
  list_.push_back({Severity::error, span, std::move(message), std::move(legal), std::move(hint)});
}

void Diagnostics::warning(Span span, std::string message, std::string legal, std::string hint) {
  list_.push_back({Severity::warning, span, std::move(message), std::move(legal), std::move(hint)});
}

bool Diagnostics::has_errors() const { return error_count() > 0; }

size_t Diagnostics::error_count() const {
  return dropped_ + std::count_if(list_.begin(), list_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::error; });
}

std::string render_diagnostic(const SourceFile& file, const Diagnostic& d) {
  LineCol lc = file.line_col(d.span.begin);
  std::string out = file.path() + ":" + std::to_string(lc.line) + ":" + std::to_string(lc.column) +
                    ": " + severity_name(d.severity) + ": " + d.message + "\n";
  std::string line = printable(file.line_text(lc.line));
  constexpr size_t kMaxShown = 160;
  if (line.size() > kMaxShown) line = line.substr(0, kMaxShown) + "...";
  out += "  " + line + "\n";
  size_t col = static_cast<size_t>(lc.column - 1);
  if (col <= line.size()) {
    // The underline stops at the end of the line for spans that run past it.
    size_t width = std::max<size_t>(1, std::min<size_t>(d.span.end - d.span.begin, line.size() - col));
    if (d.span.end <= d.span.begin) width = 1;
    out += "  " + std::string(col, ' ') + "^" + std::string(width - 1, '~') + "\n";
  }
  if (!d.legal.empty()) out += "  legal: " + d.legal + "\n";
  if (!d.hint.empty()) out += "  hint: " + d.hint + "\n";
  return out;
}

std::string Diagnostics::render() const {
  std::string out;
  for (const Diagnostic& d : list_) out += render_diagnostic(*file_, d);
  if (dropped_) out += file_->path() + ": " + std::to_string(dropped_) + " more errors not shown\n";
  return out;
}

nlohmann::json Diagnostics::to_json() const {
  nlohmann::json arr = nlohmann::json::array();
  for (const Diagnostic& d : list_) {
    LineCol lc = file_->line_col(d.span.begin);
    nlohmann::json j = {{"file", file_->path()},   {"line", lc.line},
                        {"column", lc.column},     {"severity", severity_name(d.severity)},
                        {"message", d.message}};
    if (!d.legal.empty()) j["legal"] = d.legal;
    if (!d.hint.empty()) j["hint"] = d.hint;
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace ucutlass
