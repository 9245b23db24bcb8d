#pragma once
// Lowering: syntax tree -> typed IR. Resolves every name (with "did you
// mean" for typos), checks argument kinds and ranges, and records spans. It
// does not judge whether a configuration is legal on an architecture; that
// is validate.h's job, after resolve_auto().
//
//   kernel k = gemm(m = 4096, n = 4096, k = 4096).with_types(bf16).with_tile(128, 256, 64)
//   ==> GemmKernel{m=4096, n=4096, k=4096, a=b=d=bf16, c=void, tile={128,256,64}, ...}
#include "dsl/ast.h"
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

Program lower_program(const dsl::Program& ast, Diagnostics& diags);

}  // namespace ucutlass::ir
