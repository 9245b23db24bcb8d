#pragma once
// Legality of a grouped GEMM (GemmKernel with groups set), beyond the SM90
// GEMM rules every group also obeys (tile, cluster, stages, layouts, 16-byte
// TMA alignment of A, B, C and D).
//
// CUTLASS 4.2 runs grouped GEMMs on Hopper with the pointer-array kernels
// (gemm/kernel/sm90_gemm_array_tma_warpspecialized_{cooperative,pingpong}.hpp):
// kernel schedules KernelPtrArrayTmaWarpSpecialized{Cooperative,Pingpong},
// epilogue schedules PtrArrayTmaWarpSpecialized{Cooperative,Pingpong}, a
// GroupProblemShape, and only the group tile scheduler (a static_assert
// rejects any other, so no stream-K or split-K). The RS mainloop (register A)
// is for mixed-input types only, which the SM90 layout rule already excludes.
// ucutlass emits no per-group pointer arrays for epilogue operands yet, so
// steps that read or write a vector, scalar or aux tensor are rejected here.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Appends diagnostics for `k` (which must be grouped); returns true when legal.
bool validate_grouped(const GemmKernel& k, Diagnostics& diags);

// The kernel schedules a pointer-array kernel exists for: cooperative and pingpong.
bool is_grouped_schedule(KernelSchedule s);

}  // namespace ucutlass::ir
