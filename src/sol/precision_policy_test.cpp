#include "sol/precision_policy.h"

#include <gtest/gtest.h>

namespace ucutlass::sol {
namespace {

using graph::DType;

TEST(PrecisionPolicy, FastestLegalPathPerDtypeAndTolerance) {
  struct Case {
    DType operand;
    ToleranceProfile tol;
    std::optional<MathPath> stated;
    MathPath path;
  };
  const auto kb = ToleranceProfile::kernelbench, v01 = ToleranceProfile::kernelbench_v01;
  const std::vector<Case> cases = {
      {DType::f32, kb, std::nullopt, MathPath::tf32},   // never slower than TF32, even at 1e-4
      {DType::f32, v01, std::nullopt, MathPath::bf16},  // 1e-2: a bf16 cast passes
      {DType::f16, kb, std::nullopt, MathPath::fp16},   {DType::bf16, kb, std::nullopt, MathPath::bf16},
      {DType::bf16, v01, std::nullopt, MathPath::bf16}, {DType::f64, kb, std::nullopt, MathPath::fp64_tensor},
      {DType::f8e4m3, kb, std::nullopt, MathPath::fp8}, {DType::i8, kb, std::nullopt, MathPath::fp8},
      {DType::i64, kb, std::nullopt, MathPath::fp32},
      {DType::f32, kb, MathPath::tf32x3, MathPath::tf32x3},  // the user states a path
      {DType::f32, v01, MathPath::fp32, MathPath::fp32},
      {DType::i64, kb, MathPath::fp8, MathPath::fp32},  // a stated path applies to floating operands only
  };
  for (const Case& c : cases)
    EXPECT_EQ(path_name(choose_tensor_path(c.operand, c.tol, c.stated).path), path_name(c.path))
        << graph::dtype_name(c.operand) << " " << tolerance_profile_name(c.tol);
}

TEST(PrecisionPolicy, Tolerances) {
  EXPECT_EQ(tolerance_for(DType::f32, ToleranceProfile::kernelbench), 1e-4);
  EXPECT_EQ(tolerance_for(DType::bf16, ToleranceProfile::kernelbench), 1e-2);
  EXPECT_EQ(tolerance_for(DType::f32, ToleranceProfile::kernelbench_v01), 1e-2);
  EXPECT_EQ(parse_tolerance_profile("kernelbench-v0.1"), ToleranceProfile::kernelbench_v01);
  EXPECT_FALSE(parse_tolerance_profile("strict"));
}

}  // namespace
}  // namespace ucutlass::sol
