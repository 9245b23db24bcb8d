#pragma once
// The rules of row kernels (row_problem.h) and their auto choices.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Fills every `auto` of a row kernel (k.is_rows()): types (d = a; argmax writes int64), the widest
// access up to 16 bytes that divides the length, threads for about eight loads per thread, the
// fewest splits whose chunk fits the registers (more while the rows leave the 132 SMs under two
// CTAs each and chunks stay a CTA wide), and the items that chunk needs.
void resolve_rows(GemmKernel& k);

// The rules of the runtime kernel (src/codegen/runtime/row_kernels.hpp) for a row kernel, after
// resolve_auto. Appends diagnostics; returns true when legal.
bool validate_rows(const GemmKernel& k, Diagnostics& diags);

}  // namespace ucutlass::ir
