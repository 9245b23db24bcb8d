#include "compiler/frontend.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "dsl/parser.h"
#include "ir/canonical.h"
#include "ir/lower.h"
#include "ir/lower_pipeline.h"
#include "ir/resolve_auto.h"
#include "ir/validate.h"
#include "ir/validate_pipeline.h"
#include "support/phase_timer.h"

namespace ucutlass {

FrontendResult run_frontend(std::string path, std::string text) {
  FrontendResult r;
  r.file = std::make_unique<SourceFile>(std::move(path), std::move(text));
  r.diags = std::make_unique<Diagnostics>(*r.file);
  dsl::Program ast;
  {
    PhaseTimer t("parse");
    ast = dsl::parse_program(*r.file, *r.diags);
  }
  {
    PhaseTimer t("lower");
    r.program = ir::lower_program(ast, *r.diags);
  }
  // Resolution and legality need a well-formed kernel; a program with
  // syntax or name errors stops here so messages stay about the real cause.
  if (r.diags->has_errors()) return r;
  {
    PhaseTimer t("resolve");
    ir::resolve_auto(r.program);
  }
  {
    // Pipelines bind kernel operands, and which operands a kernel has (C is
    // read or void) is known once auto settings are resolved.
    PhaseTimer t("pipelines");
    ir::lower_pipelines(ast, r.program, *r.diags);
  }
  {
    PhaseTimer t("validate");
    ir::validate(r.program, *r.diags);
    if (!r.diags->has_errors()) ir::validate_pipelines(r.program, *r.diags);
  }
  if (r.diags->has_errors()) return r;
  {
    PhaseTimer t("hash");
    r.hash = ir::program_hash(r.program);
  }
  r.ok = true;
  return r;
}

FileFrontendResult run_frontend_on_file(const std::string& path) {
  FileFrontendResult out;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    out.io_error = "cannot read " + path + ": " + std::strerror(errno);
    return out;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  out.result = run_frontend(path, ss.str());
  return out;
}

}  // namespace ucutlass
