#pragma once
// The settings of tiled GEMMs (tile, cluster, warps, schedules, stages, raster, scheduler, operand
// swap, alignments, layouts, math path, epilogue) mean nothing to the kernels that are not GEMMs (row
// kernels, attention): saying one is a mistake worth naming, with the kernel's own settings as legal.
#include <string>

#include "ir/gemm_kernel.h"
#include "support/diagnostic.h"

namespace ucutlass::ir {

// `kind`: "a row kernel (softmax has no matrix product)"; `settings`: the legal settings; `levers`: the hint.
void reject_gemm_settings(const GemmKernel& k, Diagnostics& d, const std::string& kind, const std::string& settings,
                          const std::string& levers);

}  // namespace ucutlass::ir
