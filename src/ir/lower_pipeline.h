#pragma once
// Lowering of pipeline declarations (ir/pipeline.h): resolves kernel and
// operand names, then checks the data flow in the order the steps run:
// every tensor read is an input or written by an earlier step, nothing is
// written twice or read before it is written, no step depends on itself
// (a cycle), every input is read and every intermediate is read or listed in
// outputs(...). Shapes, element types and layouts need resolved kernels and
// are validate_pipeline.h's job.
#include "dsl/ast.h"
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Appends the lowered pipelines of `ast` to `p`, whose kernels are lowered and
// resolved (resolve_auto decides whether a kernel reads C).
void lower_pipelines(const dsl::Program& ast, Program& p, Diagnostics& diags);

}  // namespace ucutlass::ir
