#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

const EpilogueStep* GemmKernel::bias_step() const {
  for (const EpilogueStep& s : epilogue)
    if (s.kind == EpilogueStep::Kind::bias) return &s;
  return nullptr;
}

bool GemmKernel::has_bias() const { return bias_step() != nullptr; }

bool GemmKernel::reads_source_in_steps() const {
  for (const EpilogueStep& s : epilogue)
    if (s.kind == EpilogueStep::Kind::expr && s.expr.uses(EpiExpr::Op::c)) return true;
  return false;
}

bool EpiExpr::uses(Op leaf) const {
  if (op == leaf) return true;
  for (const EpiExpr& a : args)
    if (a.uses(leaf)) return true;
  return false;
}

bool EpiExpr::uses_extras() const { return uses(Op::extra); }

}  // namespace ucutlass::ir
