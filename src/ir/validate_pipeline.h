#pragma once
// Legality of a pipeline's tensors over resolved kernels: every binding of a
// tensor must agree with the first one (for an input: its first reader; for
// any other tensor: the step that writes it) in kind, shape (batch, rows,
// cols), element type and layout, because the host entry hands the same
// packed memory to both kernels.
//
//   up:   d = h  ->  h is [4096, 16384] bf16 row-major (D of up: M x N)
//   down: a = h  ->  A of down must then be [4096, 16384] bf16 row-major (M x K)
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Appends diagnostics; returns true when every pipeline is legal.
bool validate_pipelines(const Program& p, Diagnostics& diags);

}  // namespace ucutlass::ir
