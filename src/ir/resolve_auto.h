#pragma once
// resolve_auto: replaces every `auto` (or unset) setting of a lowered kernel
// with a concrete choice that is legal and sound for its architecture, types
// and shape. Explicit settings are never changed. Runs before validate(), so
// the validator judges exactly what will be emitted.
//
//   gemm(m=4096,n=4096,k=4096).with_types(bf16)            (sm90a)
//   ==> tile 128x128x64, cluster 2x1x1, cooperative + tma_cooperative,
//       stages auto-carveout (0), alignment 8/8/8, persistent scheduler
#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

void resolve_auto(GemmKernel& k);
void resolve_auto(Program& p);

// Largest alignment (in elements) the operand's type allows for 16-byte
// vector access, reduced until it divides the fixed contiguous extent.
int natural_alignment(DType t, int64_t contiguous_extent);

}  // namespace ucutlass::ir
