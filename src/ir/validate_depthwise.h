#pragma once
// Depthwise convolutions (groups = c = k) on sm80: CUTLASS's direct 2D
// convolution (conv/kernel/default_depthwise_fprop.h,
// DefaultDepthwiseDirect2dConvFprop with IteratorAlgorithm::kOptimized, run by
// conv/device/direct_convolution.h). It is not an implicit GEMM: each CTA
// keeps the filters of tile N channels in shared memory and walks output tiles
// of out_h x out_w pixels, one multiply-add per pixel, channel and tap on CUDA
// cores (SIMT). The GemmKernel settings mean:
//
//   tile   (M, N, K) = (output pixels per CTA tile = out_h * out_w,
//                       channels per CTA, filter taps r * s)
//   warps  (M, 1, 1):  warps along the output tile; each warp covers all N channels
//   stages             activation tiles in flight (2 or more)
//
// The output tile's accumulators must fit one activation stage (depthwise_epilogue_fits).
//
// The output tile is derived from tile M (a power of two): out_h = 2^floor(log2(M) / 2),
// out_w = M / out_h, so 64 is 8 x 8 and 32 is 4 x 8. kOptimized takes stride and
// dilation at run time (the shared-memory activation tile is sized per launch);
// the program's values are still checked by the host entry.
#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

struct DepthwiseTiling {
  int out_h = 0, out_w = 0;        // the CTA's output tile (ThreadBlockOutputShape), 0 if tile M is not legal
  int warp_m = 0;                  // output pixels per warp: tile M / warps M
  int threads_n = 0, threads_m = 0;  // a warp's lanes along channels and along pixels
  int thread_p = 0, thread_q = 0;  // output pixels of one lane group; 0 when CUTLASS has no such thread tile
};
DepthwiseTiling depthwise_tiling(const GemmKernel& k);

// Shared memory of one CTA with `stages` activation tiles (the kernel sizes it at launch):
// stages x max(activation tile, epilogue staging) + the CTA's filters.
int depthwise_smem_bytes(const GemmKernel& k, int stages);

// One activation stage in shared memory (Depthwise2dFpropDirectConvParams::activation_size: the
// activation tile in whole 16-byte loads of every thread) and the epilogue's accumulator staging
// (EpilogueDepthwise::SharedStorage: out_h * out_w x N accumulators).
int depthwise_activation_stage_bytes(const GemmKernel& k);
int depthwise_epilogue_bytes(const GemmKernel& k);

// The epilogue stages an output tile's accumulators in the activation stage the mainloop has just
// read (DepthwiseFpropDirectConvMultipleStage: smem_base_offset = filter + (tile % stages) x
// activation stage), and the stages lie one activation stage apart: accumulators larger than a
// stage overwrite the next tile's activations. 16-bit inputs with f32 accumulators and a small halo
// (stride 1, 3x3) break it; accumulators of the input's size always fit.
bool depthwise_epilogue_fits(const GemmKernel& k);

// CUTLASS has a thread tile (SimtWarpShape) for the warp's pixels that divides the output tile.
bool depthwise_thread_tile_ok(const GemmKernel& k);

// The rules of the direct convolution, for a depthwise sm80 conv kernel. Appends
// diagnostics; returns true when legal.
bool validate_depthwise(const GemmKernel& k, Diagnostics& diags);

}  // namespace ucutlass::ir
