#include "sol/precision_policy.h"

#include <cstdio>

namespace ucutlass::sol {

using graph::DType;

std::optional<ToleranceProfile> parse_tolerance_profile(const std::string& name) {
  if (name == "kernelbench") return ToleranceProfile::kernelbench;
  if (name == "kernelbench-v0.1" || name == "kernelbench-v0") return ToleranceProfile::kernelbench_v01;
  return std::nullopt;
}

std::string tolerance_profile_name(ToleranceProfile t) {
  return t == ToleranceProfile::kernelbench ? "kernelbench" : "kernelbench-v0.1";
}

const std::vector<std::string>& tolerance_profile_names() {
  static const std::vector<std::string> names{"kernelbench", "kernelbench-v0.1"};
  return names;
}

double tolerance_for(DType dtype, ToleranceProfile t) {
  if (t == ToleranceProfile::kernelbench_v01) return 1e-2;
  return dtype == DType::f32 || dtype == DType::f64 ? 1e-4 : 1e-2;
}

PathChoice choose_tensor_path(DType operand, ToleranceProfile t, std::optional<MathPath> stated) {
  if (stated && graph::is_floating(operand)) return {*stated, "stated by --precision"};
  switch (operand) {
    case DType::f64:
      return {MathPath::fp64_tensor, "fp64 operands: fp64 math, at the FP64 tensor-core rate"};
    case DType::f32:
      if (t == ToleranceProfile::kernelbench_v01)
        return {MathPath::bf16,
                "fp32 at tolerance 1e-2: operands rounded to bf16/fp16 (relative error 2^-9) with fp32 "
                "accumulation pass, so the 16-bit tensor rate is reachable by an honest kernel"};
      return {MathPath::tf32,
              "fp32 at tolerance 1e-4: priced at the TF32 tensor rate, the fastest path that passes on some "
              "inputs; the legal path may be 3xTF32 or SIMT, both slower, so the bound stays a lower bound"};
    case DType::f16:
      return {MathPath::fp16, "fp16 operands at the fp16 tensor rate (fp8 cannot be relied on to pass 1e-2)"};
    case DType::bf16:
      return {MathPath::bf16, "bf16 operands at the bf16 tensor rate (fp8 cannot be relied on to pass 1e-2)"};
    case DType::f8e4m3:
    case DType::f8e5m2:
      return {MathPath::fp8, "fp8 operands at the fp8 tensor rate"};
    case DType::i8:
    case DType::u8:
      return {MathPath::fp8, "8-bit integer operands: the int8 tensor rate equals the fp8 rate"};
    default:
      return {MathPath::fp32, "integer operands wider than 8 bits: SIMT"};
  }
}

PathChoice simt_path(DType data) {
  if (data == DType::f64) return {MathPath::fp64, "fp64 SIMT"};
  return {MathPath::fp32, "SIMT"};
}

}  // namespace ucutlass::sol
