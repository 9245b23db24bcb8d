#pragma once
// GEMV kernels (gemv(m, k), ir/validate_gemv.h): CUTLASS's SIMT Gemv, emitted into
// `namespace NAME_detail` like a GEMM so the shared host entry, C API and torch
// binding serve it unchanged (it is the GEMM with n = 1, x as B [K, 1], y as D [M, 1]):
//
//   gemm::kernel::Gemv<ElementA, RowMajor, ElementB, ElementD, f32, LinearCombination<D, 1>,
//                      access, threads, threads_per_row> -> gemm::device::Gemv, named Gemm
//
// make_arguments (host_entry.cpp) adds what Gemv assumes without checking: A's rows packed
// (it steps from row to row by K), x and y contiguous, and M a multiple of a warp's rows.
#include <string>

#include "ir/gemm_kernel.h"

namespace ucutlass::codegen {

bool program_has_gemv(const ir::Program& p);

std::string emit_gemv_types(const ir::GemmKernel& k);

}  // namespace ucutlass::codegen
