#pragma once
// Tests only: the row type and diagnostic readers of the table-driven legality tests (legality_test,
// conv_legality_test, grouped_legality_test, gemv_legality_test): each row is a whole program and the
// exact messages `check` gives for it, before any nvcc run.
#include <ostream>
#include <string>
#include <vector>

#include "compiler/frontend.h"

namespace ucutlass::ir_testing {

struct LegalityRow {
  const char* name;
  const char* program;
  std::vector<std::string> messages;  // exact, in order; empty = legal
};

// Names the row in test listings instead of dumping its bytes.
inline void PrintTo(const LegalityRow& row, std::ostream* os) { *os << row.name; }

// The diagnostics' messages, in order.
inline std::vector<std::string> messages_of(const std::string& text) {
  FrontendResult r = run_frontend("t.dsl", text);
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diags->all()) out.push_back(d.message);
  return out;
}

// The same, each as "LINE:COL: message" (the position is part of the contract: it points at the
// setting to fix).
inline std::vector<std::string> located_messages(const std::string& text) {
  FrontendResult r = run_frontend("t.dsl", text);
  std::vector<std::string> out;
  for (const Diagnostic& d : r.diags->all()) {
    LineCol lc = r.diags->file().line_col(d.span.begin);
    out.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.column) + ": " + d.message);
  }
  return out;
}

}  // namespace ucutlass::ir_testing
