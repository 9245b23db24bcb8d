#pragma once
// Which math path a tensor-core op (GEMM, convolution, attention) is priced
// at. The rule: the fastest path an honest kernel could use and still pass
// the problem's tolerance, because a lower bound that an honest kernel beats
// raises false "too fast" alarms. The reasoning per case is in docs/sol.md.
#include <optional>
#include <string>
#include <vector>

#include "graph/op_graph.h"
#include "sol/math_path.h"

namespace ucutlass::sol {

// KernelBench's tolerance profiles: `kernelbench` (current: fp32 1e-4,
// fp16/bf16 1e-2) and `kernelbench-v0.1` (1e-2 for every dtype).
enum class ToleranceProfile { kernelbench, kernelbench_v01 };

std::optional<ToleranceProfile> parse_tolerance_profile(const std::string& name);
std::string tolerance_profile_name(ToleranceProfile t);
const std::vector<std::string>& tolerance_profile_names();
double tolerance_for(graph::DType dtype, ToleranceProfile t);

struct PathChoice {
  MathPath path = MathPath::fp32;
  std::string reason;
};

// The path for a tensor-core op whose operands are `operand`; `stated` is the
// user's --precision, which wins for floating operands.
PathChoice choose_tensor_path(graph::DType operand, ToleranceProfile t, std::optional<MathPath> stated);

// The path for any other op's FLOPs: SIMT at fp64 for fp64 data, else fp32.
PathChoice simt_path(graph::DType data);

}  // namespace ucutlass::sol
