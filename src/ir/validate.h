#pragma once
// Legality of a resolved kernel on its architecture: every configuration
// that CUTLASS would reject at compile time (static_assert) or at run time
// (can_implement) for the program's fixed shapes is reported here, with the
// setting's span, what is wrong and what is legal, before any nvcc run.
// Rules come from CUTLASS 4.2 (shared facts: cutlass.md section 2e and the
// SM80 generator); each rule is one function so tests can name it.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Shared memory a kernel may use on the H200 (sm90 opt-in limit, 227 KiB).
constexpr int kSmemCapacityBytes = 232448;

// Appends diagnostics; returns true when the kernel is legal.
bool validate(const GemmKernel& k, Diagnostics& diags);
bool validate(const Program& p, Diagnostics& diags);

// Estimated shared memory, for the stage-count rule and for `explain`.
int mainloop_stage_bytes(const GemmKernel& k);
int epilogue_smem_bytes(const GemmKernel& k);

}  // namespace ucutlass::ir
