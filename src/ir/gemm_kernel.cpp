#include "ir/gemm_kernel.h"

namespace ucutlass::ir {

const EpilogueStep* GemmKernel::bias_step() const {
  for (const EpilogueStep& s : epilogue)
    if (s.kind == EpilogueStep::Kind::bias) return &s;
  return nullptr;
}

bool GemmKernel::has_bias() const { return bias_step() != nullptr; }

}  // namespace ucutlass::ir
