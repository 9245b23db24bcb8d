#pragma once
// Diagnostics are a product feature: each one says where (file:line:col),
// what is wrong, and what is legal, so a person or an agent can fix the
// program without reading CUTLASS.
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "support/source_file.h"

namespace ucutlass {

enum class Severity { error, warning, note };

struct Diagnostic {
  Severity severity = Severity::error;
  Span span;
  std::string message;  // what is wrong
  std::string legal;    // what would be accepted instead ("" if nothing to add)
  std::string hint;     // a concrete fix, such as a "did you mean" ("" if none)
};

// Collects diagnostics for one source file; passes append, the driver prints.
class Diagnostics {
 public:
  explicit Diagnostics(const SourceFile& file) : file_(&file) {}

  void error(Span span, std::string message, std::string legal = {}, std::string hint = {});
  void warning(Span span, std::string message, std::string legal = {}, std::string hint = {});

  // Past this many errors further ones are counted, not kept: binary or
  // huge input must not flood the terminal.
  static constexpr size_t kMaxKept = 50;

  bool has_errors() const;
  size_t error_count() const;
  const std::vector<Diagnostic>& all() const { return list_; }
  const SourceFile& file() const { return *file_; }

  // The text form: "path:line:col: error: message", the source line, a caret
  // under the span, then "  legal: ..." and "  hint: ..." lines.
  std::string render() const;
  nlohmann::json to_json() const;

 private:
  const SourceFile* file_;
  std::vector<Diagnostic> list_;
  size_t dropped_ = 0;
};

std::string render_diagnostic(const SourceFile& file, const Diagnostic& d);

}  // namespace ucutlass
