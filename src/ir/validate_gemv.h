#pragma once
// GEMV kernels, gemv(m = M, k = K[, batch = B]): y = alpha * A x (+ beta * c), A [M, K]
// row-major, x [K], y [M], run by CUTLASS's SIMT GEMV (cutlass/gemm/kernel/gemv.h, the
// row-major specialization, launched by cutlass/gemm/device/gemv.h). No tiles and no
// tensor cores: the problem is bound by reading A once, so what decides speed is how
// wide and how many loads are in flight. A CTA is a (threads_per_row, threads /
// threads_per_row) block; each group of threads_per_row lanes owns one row of A, walks
// it `access` elements per load (16 bytes = 4 f32 or 8 f16), and adds its partial sums
// with xor shuffles over the whole warp. The levers (with_gemv):
//
//   access           elements of A (and x) per load: a power of two, at most 32 bytes
//                    (CUTLASS's widest global load), dividing K (can_implement)
//   threads_per_row  lanes per row: a power of two up to 32 (the shuffle reduction)
//   threads          threads per CTA: a multiple of 32 up to 1024 (no partial warps:
//                    the shuffles name all 32 lanes)
//
// A warp covers 32 / threads_per_row rows and its shuffles need every lane, so a fixed M
// must be a multiple of that (a dynamic M is checked by the host entry). The batch runs
// along grid z, which CUTLASS sizes as batch % 65536. The epilogue is CUTLASS's
// LinearCombination of one element: alpha and beta, nothing else.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// Widest legal access of an element type: 32 bytes (8 f32, 16 f16 or bf16).
int gemv_max_access(DType t);
// Rows of A one warp covers.
inline int gemv_rows_per_warp(int threads_per_row) { return 32 / threads_per_row; }

// The rules of CUTLASS's Gemv for a gemv kernel (k.is_gemv()), after resolve_auto.
// Appends diagnostics; returns true when legal.
bool validate_gemv(const GemmKernel& k, Diagnostics& diags);

}  // namespace ucutlass::ir
