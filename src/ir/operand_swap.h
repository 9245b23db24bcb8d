#pragma once
// Operand swap: D = A * B computed as D^T = B^T * A^T.
//
// The same buffers, read differently: the transposed problem's A is the
// program's B read as an N x K matrix (a column-major K x N B is a row-major
// N x K B^T), its B is the program's A, its output is D^T (a row-major M x N D
// is a column-major N x M D^T), M and N trade places, and every broadcast
// vector trades its axis (a per-column bias becomes a per-row one).
//
// Why: an sm90a tile's M is at least 64 rows (one warp group's WGMMA), while
// its N can be 16. A GEMM with few rows (LLM decode, M = 16) wastes most of a
// 64-row tile; swapped, the few rows land on tile N and nothing is wasted.
// On CUTLASS 4.2 a swap never makes an illegal layout legal (WGMMA's K-major
// rule for tf32 and fp8 is symmetric in A and B, and the TMA epilogue takes
// either output layout), so the rules for it are about speed and scope.
#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

// The kernel with its problem transposed; applying it twice gives back the
// kernel. Tile, cluster, warps, raster, scheduler and stages are left alone:
// with a swap they already describe the kernel as it runs.
GemmKernel transposed(const GemmKernel& k);

// The shape a swap pays off for: fewer rows than the smallest WGMMA tile M (64) and a
// wide N to give the swapped kernel its rows. `auto` and the optimizer's search both use it.
inline bool swap_pays_off(int64_t m, int64_t n) { return m > 0 && m < 64 && n >= 2 * m; }

// What the emitted CUTLASS kernel computes: transposed(k) when k swaps its
// operands, else k.
GemmKernel as_run(const GemmKernel& k);

// Said with every legality error found on the kernel as run.
inline constexpr const char* kOperandSwapNote =
    "with_operand_swap(on) runs D^T = B^T * A^T: this kernel's A is the program's B, its M is the program's N";

}  // namespace ucutlass::ir
