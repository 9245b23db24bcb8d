#include "codegen/gemv_types.h"

#include "codegen/text_template.h"
#include "ir/validate_gemv.h"

namespace ucutlass::codegen {

namespace {

constexpr std::string_view kTypes = R"CPP(// gemv: D [M] = alpha * A [M, K] x B [K] (+ beta * C [M]), A row-major. CUTLASS's SIMT Gemv:
// $TPR$ threads per row of A, $ACCESS$ elements per load, $THREADS$ threads ($ROWS_PER_CTA$ rows) per CTA.
using ElementA = $A$;
using ElementB = $B$;
using ElementD = $D$;
using ElementAccumulator = float;
using ElementCompute = float;
using LayoutA = cutlass::layout::RowMajor;
constexpr int AlignmentA = $ACCESS$;
constexpr int AlignmentB = $ACCESS$;
constexpr int AlignmentC = 1;
constexpr int kThreadsPerRow = $TPR$;
constexpr int kThreads = $THREADS$;
// A warp's rows shuffle their partial sums with all 32 lanes: M must fill whole warps.
constexpr int kRowsPerWarp = 32 / kThreadsPerRow;

// One output element per row; C is read with D's type (D stands in when C is not read, beta = 0).
using EpilogueOp = cutlass::epilogue::thread::LinearCombination<ElementD, 1, ElementAccumulator, ElementCompute>;

using GemvKernel = cutlass::gemm::kernel::Gemv<
    ElementA, LayoutA, ElementB, ElementD, ElementAccumulator, EpilogueOp,
    AlignmentA, kThreads, kThreadsPerRow>;
// `Gemm` is the name the shared host entry runs.
using Gemm = cutlass::gemm::device::Gemv<GemvKernel>;
)CPP";

std::string ctype(ir::DType t) { return std::string(ir::cutlass_type(t)); }

}  // namespace

bool program_has_gemv(const ir::Program& p) {
  for (const ir::GemmKernel& k : p.kernels)
    if (k.is_gemv()) return true;
  return false;
}

std::string emit_gemv_types(const ir::GemmKernel& k) {
  const ir::GemvLevers& g = k.gemv_levers;
  return fill(kTypes, {{"A", ctype(k.a.value)},
                       {"B", ctype(k.b.value)},
                       {"D", ctype(k.d.value)},
                       {"ACCESS", std::to_string(g.access.value)},
                       {"TPR", std::to_string(g.threads_per_row.value)},
                       {"THREADS", std::to_string(g.threads.value)},
                       {"ROWS_PER_CTA", std::to_string(g.threads.value / g.threads_per_row.value)}});
}

}  // namespace ucutlass::codegen
