#pragma once
// The TF32 split of a K-stacked 3xTF32 operand (map::KernelConfig::k_stack3) as one CUDA kernel of
// the program, for a program with a TF32 kernel on f32 inputs (the only kind a solution K-stacks).
//
// A solution's _ucutlass_stack3 (solution/k_stack.h) needs, for an f32 operand x with K along its
// last axis, the [..., 3K] stack [lo, hi, hi] (A side) or [hi, lo, hi] (B side), hi = x rounded to
// TF32 and lo = x - hi. Four PyTorch element-wise kernels build it from 9 to 10 words of traffic per
// element, strided where K is not contiguous (a row-major B is read along N): on the H200 0.52 of
// level1/001's 1.60 ms. This kernel reads x once and writes the stack once (4 words), through
// 32 x 32 shared-memory tiles where x's K axis is not its contiguous one, so both sides stay
// coalesced.
//
//   C API:  ucutlass_tf32_stack3(src, dst, batch, rows, k, stride_batch, stride_row, stride_k, a_side, ...)
//   Torch:  _ucutlass.tf32_stack3(x, a_side) -> the contiguous [..., 3K] stack, or None where the
//           kernel does not take x's strides (the caller then splits with PyTorch ops)
//
// The same kernels split into bf16 parts for 3xBF16 (ucutlass_bf16_stack3, _ucutlass.bf16_stack3: 2-byte
// parts, 2.5 words of traffic per element).
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

// Whether the program gets the TF32 split: a TF32 kernel whose A is f32.
bool program_has_tf32_split(const ir::Program& p);

// Whether it gets the bf16 split (3xBF16, map::KernelConfig::bf16_operands with k_stack3): a 16-bit
// tensor_op kernel reading bf16 and writing f32, the kind a solution runs over f32 data rounded or
// split to bf16 (a native bf16 problem with an f32 output gets it too, unused, for one small kernel).
bool program_has_bf16_split(const ir::Program& p);

// The CUDA kernels and the C entry (for the _capi.cu file), the torch function (for the binding)
// and its m.def line; each empty when the program does not get the split.
std::string emit_capi_tf32_split(const ir::Program& p);
std::string emit_torch_tf32_split(const ir::Program& p);
std::string emit_torch_tf32_split_def(const ir::Program& p);

}  // namespace ucutlass::codegen
